"""A progress display on standard error while ``score`` reads its logs, drawn with ``rich``.

It is drawn only when standard error is a terminal (and not with ``score -q``), and erased
when scoring ends, so that nothing of it is left in a terminal's scrollback or ever reaches a
file or a pipe. Without the ``progress`` extra (``rich`` not installed) nothing is drawn.
The display shows, per log, the line reached, the samples read and the time taken.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolexpect.calls import RecordedSample

__all__ = ["Track", "progress", "wanted"]

Track = Callable[[Iterable["RecordedSample"], str], Iterator["RecordedSample"]]
"""Pass a log's samples through, counting them on the display under the log's name."""

_EVERY = 256
"""Samples between two updates of the display (an update takes a lock)."""


def _untracked(samples: Iterable[RecordedSample], name: str) -> Iterator[RecordedSample]:
    return iter(samples)


def wanted(stream: IO[str], quiet: bool) -> bool:
    """True when the display should be drawn on ``stream``: a terminal, and not ``-q``."""
    if quiet:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


@contextlib.contextmanager
def progress(stream: IO[str], enabled: bool) -> Iterator[Track]:
    """A :data:`Track` function drawing on ``stream`` while the block runs (one that draws
    nothing when not ``enabled`` or when rich is not installed)."""
    if not enabled:
        yield _untracked
        return
    try:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    except ImportError:
        yield _untracked
        return
    console = Console(file=stream, stderr=True)
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TextColumn("line {task.fields[line]:,}"),
        TextColumn("{task.completed:,} samples"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as display:

        def track(samples: Iterable[RecordedSample], name: str) -> Iterator[RecordedSample]:
            task = display.add_task(f"scoring {name}", total=None, line=0)
            count = 0
            line: Any = 0
            for sample in samples:
                count += 1
                line = sample.line or line
                if count % _EVERY == 0:
                    display.update(task, completed=count, line=line)
                yield sample
            display.update(task, completed=count, line=line)

        yield track
