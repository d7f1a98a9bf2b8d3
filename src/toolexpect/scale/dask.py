"""Score logs on a Dask cluster (``toolexpect score --dask [ADDRESS]``, ``pip install toolexpect[dask]``).

The specs are compiled once here and shipped as one task that holds them (pickled as their
cases): each worker fetches its result once, and if every worker holding it dies, the scheduler
runs that task again (scattered data would be lost for good). Each log is surveyed on a worker
(:func:`toolexpect.scale.shards.survey_log`: its format and size, and for a canonical JSON Lines log
its blocks, cut without reading it), each shard is read and scored on a worker
(:func:`toolexpect.scale.shards.score_shard`, the one scorer), and the partial scores are merged here
as they arrive, in whatever order: the merge is associative and commutative. Once every shard
is in, each block's lines are numbered as in its log (:func:`toolexpect.scale.shards.numbered`), so
the report is the one a single process gives. The records each shard holds (records that records
of other logs may join: a conversation across rotated files, one trace in two exports) stay on
the cluster and are joined by a group-by on their run key, a ``dask.bag`` shuffle
(:mod:`toolexpect.scale.grouped`); only the partial scores of their runs, one per log and stage,
come back. A task whose worker dies is run again (Dask's own retries); a log that cannot be
read is reported with its path, and the rest is scored. See docs/scale.md.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from distributed import Future

from toolexpect.errors import ToolexpectError
from toolexpect.pairing.groups import Held, token
from toolexpect.scale import grouped
from toolexpect.scale.grouped import Own
from toolexpect.scale.shards import (
    BLOCKSIZE,
    Scored,
    Shard,
    list_logs,
    numbered,
    score_shard,
    survey_log,
    unreadable,
)
from toolexpect.scoring.partial import CompiledSpecs, PartialScore, ScoreReport, SpecsLike, specs_of
from toolexpect.spelling import PYTHON, Spelling

T = TypeVar("T")

Live = tuple[Own, list[Own]]
"""A live link: the token and the conversations that link to it."""

if TYPE_CHECKING:
    from distributed import Client, LocalCluster

    from toolexpect.catalogue import Catalogue
    from toolexpect.model import Spec
    from toolexpect.pairing import PairingOptions

__all__ = ["RETRIES", "LostWork", "NoCluster", "Spread", "run", "score"]

RETRIES = 3
"""How many times a task that raised is run again (a task whose worker died is rescheduled
by Dask itself, up to ``distributed.scheduler.allowed-failures`` times)."""


class LostWork(ToolexpectError, RuntimeError):
    """The cluster gave up on a task (cancelled, or its workers kept dying): no report."""


class NoCluster(ToolexpectError, RuntimeError):
    """The local cluster did not start (say, a worker process failed as it started): no report.
    The message says what failed and the first cause distributed gives (the worker's own
    error); ``worker`` is true when a worker (or its nanny) is what failed."""

    def __init__(self, message: str, *, worker: bool) -> None:
        super().__init__(message)
        self.worker = worker


@dataclass(frozen=True, slots=True)
class Spread:
    """How the work was spread: logs, partitions, workers, seconds per stage, and how many
    records the shards held, joined into runs by a group-by on their run key (``held``)."""

    logs: int
    partitions: int
    workers: int
    scheduler: str
    seconds: dict[str, float] = field(default_factory=dict)
    held: int = 0


def score(
    specs: SpecsLike,
    paths: str | Sequence[str],
    client: Client | str | None = None,
    *,
    fmt: str = "auto",
    explained: int | None = None,
    blocksize: int = BLOCKSIZE,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
    spelling: Spelling = PYTHON,
) -> ScoreReport:
    """Score the logs at ``paths`` (paths, globs, URLs) against ``specs`` (``Spec`` objects, or
    paths of spec files and folders read and checked before any work is sent, see
    :func:`toolexpect.scoring.partial.specs_of`) on a Dask cluster: ``client``, a scheduler's address,
    or ``None`` for a local cluster of one worker per CPU.
    The same report :func:`toolexpect.scoring.partial.score` gives (see :func:`run`)."""
    return run(
        specs,
        paths,
        client,
        fmt=fmt,
        explained=explained,
        blocksize=blocksize,
        tools=tools,
        pairing=pairing,
        spelling=spelling,
    )[0]


def run(
    specs: SpecsLike,
    paths: str | Sequence[str],
    client: Client | str | None = None,
    *,
    fmt: str = "auto",
    explained: int | None = None,
    blocksize: int = BLOCKSIZE,
    tools: Catalogue | None = None,
    pairing: PairingOptions | None = None,
    spelling: Spelling = PYTHON,
) -> tuple[ScoreReport, Spread]:
    """:func:`score`, with how the work was spread (``explained`` as
    :func:`~toolexpect.scoring.partial.score_partition` takes it; ``blocksize``: the bytes of a block
    of a canonical JSON Lines log; ``tools``: a catalogue to check each recorded call
    against, as ``score --tools`` does; ``pairing``: how runs pair with cases, as
    ``--pair-by`` and ``--case-from`` say, each partition on its own: see docs/scale.md;
    ``spelling``: how the pairing findings spell the options they suggest)."""
    from distributed import Client

    loaded = specs_of(specs)  # a spec with errors stops here, before a cluster starts
    seconds: dict[str, float] = {}
    clock = time.perf_counter()
    if client is None or isinstance(client, str):
        cluster = None
        if client is None:
            cluster = _local_cluster()
        with cluster or contextlib.nullcontext(), Client(cluster or client) as own:
            seconds["cluster start"] = time.perf_counter() - clock
            report, spread = _run(
                own, loaded, paths, fmt, (explained, tools, pairing), blocksize, seconds, spelling
            )
        return report, spread
    return _run(client, loaded, paths, fmt, (explained, tools, pairing), blocksize, seconds, spelling)


def _local_cluster() -> LocalCluster:
    """A local cluster of a worker process per CPU, or :class:`NoCluster` naming why a worker
    did not start. Only distributed's CRITICAL logs are shown: its tracebacks would bury the
    one message toolexpect gives, and a worker that dies mid-run is rescheduled all the same."""
    from distributed import LocalCluster

    try:
        # Any free port for the scheduler's HTTP server: another cluster may hold 8787.
        return LocalCluster(
            n_workers=os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.CRITICAL,
        )
    except Exception as error:  # distributed gives a bare RuntimeError("Nanny failed to start.")
        first: BaseException = error
        while first.__cause__ is not None:
            first = first.__cause__
        worker = any(f"{kind} failed to start" in str(error) for kind in ("Nanny", "Worker"))
        what = (
            "a worker process failed as it started"
            if worker
            else "its scheduler failed as it started"
            if "Scheduler failed to start" in str(error)
            else "an error stopped it"
        )
        raise NoCluster(f"{what} ({type(first).__name__}: {first})", worker=worker) from error


def _run(
    client: Client,
    specs: Sequence[Spec],
    paths: str | Sequence[str],
    fmt: str,
    kept: tuple[int | None, Catalogue | None, PairingOptions | None],
    blocksize: int,
    seconds: dict[str, float],
    spelling: Spelling,
) -> tuple[ScoreReport, Spread]:
    from distributed import as_completed

    explained, tools, pairing = kept
    clock = time.perf_counter()
    logs, missing = list_logs([paths] if isinstance(paths, str) else list(paths))
    compiled = CompiledSpecs.of(specs)
    shipped = client.submit(_same, compiled, pure=False, retries=RETRIES)
    checked = None if tools is None else client.submit(_same, tools, pure=False, retries=RETRIES)
    surveys = client.map(
        survey_log, logs, range(len(logs)), fmt=fmt, blocksize=blocksize, retries=RETRIES, pure=False
    )
    shards: list[Shard] = [shard for found in client.gather(surveys) for shard in found]
    seconds["plan"] = _lap(clock)
    clock = time.perf_counter()
    total = compiled.empty()
    for number, finding in enumerate(missing):
        total = total.merge(unreadable((-len(missing) + number,), finding))
    merging = 0.0
    futures = _scored(client, shipped, shards, (explained, checked, pairing))
    partials = client.map(_partial_of, futures, retries=RETRIES)  # the held records stay there
    shard_of = {
        future.key: (shard, scored) for future, shard, scored in zip(partials, shards, futures, strict=True)
    }
    arriving = as_completed(partials, with_results=True)
    del futures, partials
    whole: dict[int, Shard] = {}
    held: list[Future[Scored | None]] = []
    counted = [0, 0]  # records held, and those that may tie conversations together
    for future, said in arriving:
        shard, scored = shard_of.pop(future.key)
        if future.status != "finished":
            raise LostWork(f"the cluster lost the scoring of {shard.log}: {said!r}")
        future.release()
        started = time.perf_counter()
        partial, holds, links = said
        if partial is None:  # a block with a loose call: its log is scored whole below
            whole[shard.at[0]] = Shard(shard.log, (shard.at[0], -1), shard.fmt)
        else:
            total = total.merge(partial)
            if holds:
                held.append(scored)
                counted = [counted[0] + holds, counted[1] + links]
        merging += time.perf_counter() - started
    if whole:
        total = PartialScore(tuple(part for part in total.parts if part.at[0] not in whole))
        again = _scored(client, shipped, list(whole.values()), (explained, checked, pairing))
        for (partial, holds, links), scored in zip(
            client.gather(client.map(_partial_of, again)), again, strict=True
        ):
            total = total.merge(partial)
            if holds:
                held.append(scored)
                counted = [counted[0] + holds, counted[1] + links]
    total = numbered(total)  # every block of every log is in
    seconds["read and score"] = _lap(clock) - merging
    seconds["merge"] = merging
    clock = time.perf_counter()
    joined, notes = _grouped(client, held, shipped, len(logs), (explained, checked, pairing), counted)
    total = grouped.with_notes(total.merge(joined), notes)
    count = counted[0]
    del held
    seconds["group held records"] = _lap(clock)
    clock = time.perf_counter()
    report = compiled.finish(total, spelling=spelling)
    seconds["finish"] = _lap(clock)
    info = client.scheduler_info()
    workers = len(info.get("workers", {}))
    return report, Spread(len(logs), len(shards), workers, str(info.get("address")), seconds, count)


def _scored(
    client: Client,
    specs: Future[CompiledSpecs],
    shards: list[Shard],
    how: tuple[int | None, Future[Catalogue] | None, PairingOptions | None],
) -> list[Future[Scored | None]]:
    """The tasks that score ``shards`` (each retried up to :data:`RETRIES` times), with
    ``explained``, the catalogue and the pairing options ``how`` gives."""
    count = len(shards)
    explained, tools, pairing = how
    return client.map(
        score_shard,
        [specs] * count,
        shards,
        [explained] * count,
        [tools] * count,
        [pairing] * count,
        retries=RETRIES,
    )


def _grouped(
    client: Client,
    scored: list[Future[Scored | None]],
    specs: Future[CompiledSpecs],
    logs: int,
    how: tuple[int | None, Future[Catalogue] | None, PairingOptions | None],
    counted: list[int],
) -> tuple[PartialScore, list[grouped.Joined]]:
    """The partial score of the runs of the records the shards held (``counted``: how many, and
    how many may tie conversations together): the records grouped by run key on the cluster
    (``dask.bag`` shuffles, see :mod:`toolexpect.scale.grouped`); only the partial scores, one
    per log and stage, and the ``R410`` notes of the joining come here."""
    import dask.bag as db
    from dask.delayed import delayed

    explained, tools, pairing = how
    held, links = counted
    if not held:
        return PartialScore(()), []
    records = db.from_delayed([delayed(_held_of)(future) for future in scored])
    partitions = max(1, min(held, len(scored)))
    conversations = records.groupby(grouped.own, shuffle="tasks", npartitions=partitions)
    if links:
        said = conversations.map(grouped.link_entries, pairing).flatten()
        live = said.groupby(_first, shuffle="tasks", npartitions=partitions).map(grouped.live_pairs).flatten()
        unions = live.reduction(_listed, _unions)
        moved = conversations.map(_regroup, unions)
        groups = moved.groupby(_first, shuffle="tasks", npartitions=partitions).map(_concatenated)
    else:
        groups = conversations.map(_second)
    joined = groups.map(grouped.joined, pairing).flatten()
    parts = joined.filter(grouped.is_run).groupby(grouped.part_key, shuffle="tasks", npartitions=partitions)
    specs_item = db.Item.from_delayed(delayed(specs))
    tools_item = db.Item.from_delayed(delayed(tools)) if tools is not None else None
    partial = parts.map(_score_part, specs_item, logs, explained, tools_item, pairing).fold(
        _merge, _merge, initial=PartialScore(())
    )
    done, noted = client.compute([partial, joined.filter(grouped.is_note)])
    result: PartialScore = done.result()
    notes: list[grouped.Joined] = noted.result()
    return result, notes


def _partial_of(scored: Scored | None) -> tuple[PartialScore | None, int, int]:
    """What the client needs of a scored shard: the partial score of its runs given as read
    (``None``: a block with a loose call), how many records it held, and how many of those may
    tie conversations together (openings and records without a history: see
    :mod:`toolexpect.pairing.groups`); its held records stay on the cluster."""
    if scored is None:
        return None, 0, 0
    links = sum(1 for record in scored.held if token(record)[1][0] in ("o", "k"))
    return scored.partial, len(scored.held), links


def _held_of(scored: Scored | None) -> list[Held]:
    return list(scored.held) if scored is not None else []


def _listed(pairs: Iterable[Live]) -> list[Live]:
    return list(pairs)


def _unions(lists: Iterable[list[Live]]) -> dict[Own, Own]:
    return grouped.unions(pair for found in lists for pair in found)


def _regroup(conversation: tuple[Own, list[Held]], unions: dict[Own, Own]) -> tuple[Own, list[Held]]:
    mine, records = conversation
    return unions.get(mine, mine), records


def _concatenated(group: tuple[Own, list[tuple[Own, list[Held]]]]) -> list[Held]:
    return [record for _, records in group[1] for record in records]


def _score_part(
    items: object,
    specs: CompiledSpecs,
    logs: int,
    explained: int | None,
    tools: Catalogue | None,
    pairing: PairingOptions | None,
) -> PartialScore:
    return grouped.score_part(specs, items, logs, explained, tools, pairing)  # type: ignore[arg-type]


def _merge(one: PartialScore, other: PartialScore) -> PartialScore:
    return one.merge(other)


def _first(pair: tuple[T, object]) -> T:
    """The first of a pair."""
    return pair[0]


def _second(pair: tuple[object, T]) -> T:
    """The second of a pair."""
    return pair[1]


def _same(shipped: T) -> T:
    """What the client shipped (compiled specs, a catalogue), as the result of a task the
    scheduler can run again."""
    return shipped


def _lap(since: float) -> float:
    return time.perf_counter() - since
