"""Score logs on a Dask cluster (``toolexpect score --dask [ADDRESS]``, ``pip install toolexpect[dask]``).

The specs are compiled once here and shipped as one task that holds them (pickled as their
cases): each worker fetches its result once, and if every worker holding it dies, the scheduler
runs that task again (scattered data would be lost for good). Each log is surveyed on a worker
(:func:`toolexpect.scale.shards.survey_log`: its format and size, and for a canonical JSON Lines log
its blocks, cut without reading it), each shard is read and scored on a worker
(:func:`toolexpect.scale.shards.score_shard`, the one scorer), and the partial scores are merged here
as they arrive, in whatever order: the merge is associative and commutative. Once every shard
is in, each block's lines are numbered as in its log (:func:`toolexpect.scale.shards.numbered`), so
the report is the one a single process gives. Logs
holding records of runs across logs (:mod:`toolexpect.scale.linked`) are then read again, one task
each, and the records they link are paired together by one task. A task
whose worker dies is run again (Dask's own retries); a log that cannot be read is reported with
its path, and the rest is scored. See docs/scale.md.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

from toolexpect.errors import ToolexpectError
from toolexpect.scale.linked import Links, without_held
from toolexpect.scale.shards import (
    BLOCKSIZE,
    Shard,
    list_logs,
    numbered,
    relink_shard,
    score_set_aside,
    score_shard,
    survey_log,
    unreadable,
)
from toolexpect.scoring.partial import CompiledSpecs, PartialScore, ScoreReport, SpecsLike, specs_of
from toolexpect.spelling import PYTHON, Spelling

T = TypeVar("T")

if TYPE_CHECKING:
    from distributed import Client, Future, LocalCluster

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
    """How the work was spread: logs, partitions, workers, seconds per stage, and how many logs
    were read again because runs span them (``linked``)."""

    logs: int
    partitions: int
    workers: int
    scheduler: str
    seconds: dict[str, float] = field(default_factory=dict)
    linked: int = 0


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
    shard_of = {future.key: shard for future, shard in zip(futures, shards, strict=True)}
    arriving = as_completed(futures, with_results=True)
    del futures  # each result leaves the cluster's memory once merged (see release below)
    whole: dict[int, Shard] = {}
    links = Links()
    for future, partial in arriving:
        if future.status != "finished":
            raise LostWork(f"the cluster lost the scoring of {shard_of[future.key].log}: {partial!r}")
        future.release()
        started = time.perf_counter()
        if partial is None:  # a block with a loose call: its log is scored whole below
            shard = shard_of[future.key]
            whole[shard.at[0]] = Shard(shard.log, (shard.at[0], -1), shard.fmt)
        else:
            total = total.merge(links.add(partial))
        merging += time.perf_counter() - started
    if whole:
        total = PartialScore(tuple(part for part in total.parts if part.at[0] not in whole))
        for partial in client.gather(
            _scored(client, shipped, list(whole.values()), (explained, checked, pairing))
        ):
            total = total.merge(partial)
    total = numbered(total)  # every block of every log is in
    seconds["read and score"] = _lap(clock) - merging
    seconds["merge"] = merging
    cross = links.cross()
    if cross:  # runs across logs: each linked log read again, and its linked records paired together
        clock = time.perf_counter()
        total = without_held(total, set(cross))
        by_log = {shard.at[0]: shard for shard in shards}
        again = [by_log[log] for log in cross]
        count = len(again)
        relinked = client.map(
            relink_shard,
            [shipped] * count,
            again,
            list(cross.values()),
            [explained] * count,
            [checked] * count,
            [pairing] * count,
            retries=RETRIES,
        )
        aside = client.submit(
            score_set_aside, shipped, relinked, again, explained, checked, pairing, retries=RETRIES
        )
        for partial in client.gather(client.map(_first, relinked)):
            total = total.merge(partial)
        total = total.merge(aside.result())
        seconds["logs read again"] = _lap(clock)
    clock = time.perf_counter()
    report = compiled.finish(total, spelling=spelling)
    seconds["finish"] = _lap(clock)
    info = client.scheduler_info()
    workers = len(info.get("workers", {}))
    return report, Spread(len(logs), len(shards), workers, str(info.get("address")), seconds, len(cross))


def _scored(
    client: Client,
    specs: Future[CompiledSpecs],
    shards: list[Shard],
    how: tuple[int | None, Future[Catalogue] | None, PairingOptions | None],
) -> list[Future[PartialScore | None]]:
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


def _first(pair: tuple[T, object]) -> T:
    """The first of a pair (a partial score, without the records set aside beside it)."""
    return pair[0]


def _same(shipped: T) -> T:
    """What the client shipped (compiled specs, a catalogue), as the result of a task the
    scheduler can run again."""
    return shipped


def _lap(since: float) -> float:
    return time.perf_counter() - since
