"""A progress display on standard error while ``score`` reads its logs, drawn with ``rich``.

It is drawn only when standard error is a terminal (and not with ``score -q``), and erased
when scoring ends, so that nothing of it is left in a terminal's scrollback or ever reaches a
file or a pipe. Without the ``progress`` extra (``rich`` not installed) nothing is drawn.
The display shows, per log, the line reached, the samples read and the time taken (with
``-j``, only the work and the time: other processes read the log).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolexpect.calls import RecordedSample

__all__ = ["Display", "progress", "wanted"]

_EVERY = 256
"""Samples between two updates of the display (an update takes a lock)."""


class Display:
    """What ``score`` shows while it works; this one draws nothing (see :func:`progress`)."""

    def samples(self, samples: Iterable[RecordedSample], name: str) -> Iterator[RecordedSample]:
        """Pass a log's samples through, counting them under the log's name."""
        return iter(samples)

    def busy(self, name: str) -> None:
        """Show that work named ``name`` goes on, without counts (``-j``: other processes read)."""


class _Drawn(Display):
    """A display drawn with rich's ``Progress``."""

    def __init__(self, display: Any) -> None:
        self.display = display

    def samples(self, samples: Iterable[RecordedSample], name: str) -> Iterator[RecordedSample]:
        display = self.display
        task = display.add_task(f"scoring {name}", total=None, counts="")
        count = 0
        line: Any = 0
        for sample in samples:
            count += 1
            line = sample.line or line
            if count % _EVERY == 0:
                display.update(task, counts=f"line {line:,}, {count:,} samples")
            yield sample
        display.update(task, counts=f"line {line:,}, {count:,} samples")

    def busy(self, name: str) -> None:
        self.display.add_task(name, total=None, counts="")


def wanted(stream: IO[str], quiet: bool) -> bool:
    """True when the display should be drawn on ``stream``: a terminal, and not ``-q``."""
    if quiet:
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


@contextlib.contextmanager
def progress(stream: IO[str], enabled: bool) -> Iterator[Display]:
    """A :class:`Display` drawing on ``stream`` while the block runs (one that draws nothing
    when not ``enabled`` or when rich is not installed)."""
    if not enabled:
        yield Display()
        return
    try:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
    except ImportError:
        yield Display()
        return
    console = Console(file=stream, stderr=True)
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        TextColumn("{task.fields[counts]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as display:
        yield _Drawn(display)
