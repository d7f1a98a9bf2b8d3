"""``toolexpect score --dask [ADDRESS]``: score the logs on a Dask cluster (:mod:`toolexpect.scale.dask`)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from concurrent.futures import CancelledError
from typing import IO, TYPE_CHECKING

from toolexpect.spelling import COMMAND_LINE

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue
    from toolexpect.model import Spec
    from toolexpect.pairing import PairingOptions
    from toolexpect.scoring.partial import ScoreReport

__all__ = ["refused", "score_on_dask"]


def refused(args: argparse.Namespace) -> str | None:
    """Why ``--dask`` cannot be used with the other options given (``None`` when it can)."""
    if args.jobs > 1:
        return "-j cannot be used with --dask: the cluster's workers do the work"
    if args.dask and ":" not in args.dask:
        return (
            f"--dask takes a scheduler's address (tcp://HOST:8786), not {args.dask!r}; for a local "
            "cluster, write --dask after the spec paths"
        )
    try:
        import distributed  # noqa: F401
        import fsspec  # noqa: F401
    except ImportError:
        return "--dask needs the dask extra: pip install 'toolexpect[dask]'"
    return None


def score_on_dask(
    args: argparse.Namespace,
    logs: Sequence[str],
    specs: Sequence[Spec],
    explained: int | None,
    tools: Catalogue | None,
    pairing: PairingOptions,
    err: IO[str],
) -> ScoreReport | None:
    """The report on ``logs`` (paths, globs, URLs) scored on the cluster at ``--dask``
    (a local one without an address), each call checked against ``tools`` when given (as
    ``--tools`` asks), paired as ``pairing`` says; with ``-v``, how the work was spread, on
    ``err``.
    ``None`` (and a message) when the cluster cannot be reached or gave up on a task."""
    from distributed import KilledWorker

    from toolexpect.lines import visible
    from toolexpect.scale.dask import LostWork, NoCluster, run

    where = args.dask or "a local cluster"
    try:
        report, spread = run(
            specs,
            logs,
            args.dask or None,
            fmt=args.log_format,
            explained=explained,
            tools=tools,
            pairing=pairing,
            spelling=COMMAND_LINE,
        )
    except NoCluster as error:
        check = (
            "what the workers load as they start (Dask's preload and plugin settings, "
            if error.worker
            else "Dask's settings ("
        )
        print(
            f"toolexpect: the local Dask cluster did not start: {visible(str(error))}; check "
            f"{check}DASK_* variables), or give --dask a running scheduler's address",
            file=err,
        )
        return None
    except OSError as error:  # distributed's connection failures and time-outs are OSErrors
        print(f"toolexpect: cannot reach the Dask scheduler at {where}: {error}", file=err)
        return None
    except KilledWorker as error:
        print(f"toolexpect: Dask gave up on a task after its workers died: {error}", file=err)
        return None
    except (LostWork, CancelledError) as error:
        print(f"toolexpect: Dask gave up: {error}; run the command again", file=err)
        return None
    if args.verbose:
        print(
            f"toolexpect: {spread.logs} log{'s' * (spread.logs != 1)} in {spread.partitions} "
            f"partition{'s' * (spread.partitions != 1)} on {spread.workers} "
            f"worker{'s' * (spread.workers != 1)} ({spread.scheduler})"
            + (f"; {spread.held} held records grouped by run key" if spread.held else ""),
            file=err,
        )
        stages = ", ".join(f"{stage} {seconds:.2f} s" for stage, seconds in spread.seconds.items())
        print(f"toolexpect: {stages}", file=err)
    return report
