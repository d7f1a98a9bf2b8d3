"""The cyclic garbage collector paused while many results are built: the one pause of the
command line's scoring and of the Python API's samples.

Compiling expectations, pairing calls and scoring runs make many objects without cycles, which
reference counting frees; with the collector running, its collections scan them again and
again (one sample of 100,000 calls took 2.5x as long as with it paused, its cost growing faster
than the sample). The collector is paused only where it was running, and runs again after.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused(*, settle: bool = False) -> Iterator[None]:
    """Pause the cyclic garbage collector for the ``with`` block, if it runs.

    With ``settle``, every object alive at the end, those made in the block included, goes to
    the oldest generation (``freeze`` then ``unfreeze``), so the first collection after it does
    not scan them all as young objects (about 0.4 s after scoring 100,000 runs). A long-lived
    caller such as a loop over many small samples leaves it off: objects moved there would wait
    for a full collection.
    """
    enabled = gc.isenabled()
    if settle:
        gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if settle:
            gc.freeze()
            gc.unfreeze()
        if enabled:
            gc.enable()
