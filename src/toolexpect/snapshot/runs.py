"""Samples to the runs of each case: the stage after pairing, before a snapshot is built.

A sample's id names its case (docs/language.md, Recorded logs): samples that share an id are
repeated runs of one case, in log order, and cases come in the order their first sample was
read. Samples without an id are one case only when no sample has an id (as scoring pairs an
id-less sample with the only case of a one-case spec); that case is named ``default_name``.
An id-less sample among samples with ids could pair with nothing and is reported.
"""

from __future__ import annotations

from collections.abc import Iterable

from toolexpect.calls import RecordedSample
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.snapshot.build import CaseRuns

__all__ = ["group_runs"]


def group_runs(
    samples: Iterable[RecordedSample], default_name: str
) -> tuple[list[CaseRuns], list[Diagnostic]]:
    """The runs of each case in ``samples``, and the samples left out (``S704``)."""
    by_name: dict[str, list[RecordedSample]] = {}
    bare: list[RecordedSample] = []
    for sample in samples:
        if sample.id is None:
            bare.append(sample)
        else:
            by_name.setdefault(sample.id, []).append(sample)
    if not by_name:
        return ([CaseRuns(default_name, tuple(bare))] if bare else []), []
    found = [
        make(
            "S704",
            "a sample without an id among samples with ids pairs with no case; it is left out",
            Span.point(sample.line, 1) if sample.line else None,
            help="give the sample an id, or snapshot it from a log of its own",
            path=sample.path,
        )
        for sample in bare
    ]
    return [CaseRuns(name, tuple(runs)) for name, runs in by_name.items()], found
