"""Specs from recorded runs: ``toolexpect snapshot``.

* :mod:`~toolexpect.snapshot.runs`: samples (after pairing) to the runs of each case;
* :mod:`~toolexpect.snapshot.values`: which recorded values and names a spec can hold;
* :mod:`~toolexpect.snapshot.build`: the runs of a case to its canonical document;
* :mod:`~toolexpect.snapshot.take`: documents checked through the spec pipeline, and text;
* :mod:`~toolexpect.snapshot.files`: where the text goes (one file, one file per case) and
  ``--update``, which rewrites only the cases the new runs fail.
"""

from __future__ import annotations

from toolexpect.snapshot.build import CaseRuns, Options
from toolexpect.snapshot.runs import group_runs
from toolexpect.snapshot.take import Snapshot, SnapshotCase, spec_text, take_snapshot

__all__ = [
    "CaseRuns",
    "Options",
    "Snapshot",
    "SnapshotCase",
    "group_runs",
    "spec_text",
    "take_snapshot",
]
