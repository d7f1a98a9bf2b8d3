"""Samples to the runs of each case: the stage after pairing, before a snapshot is built.

A sample's id names its case (docs/language.md, Recorded logs): samples that share an id are
repeated runs of one case, in log order, and cases come in the order their first sample was
read. Samples without an id are one case only when no sample has an id (as scoring pairs an
id-less sample with the only case of a one-case spec); that case is named ``default_name``.
An id-less sample among samples with ids could pair with nothing and is reported.
Pairing (``toolexpect.pairing``, run without specs) has named the samples already: by id, by
field, by file, or by question (``--pair-by question``). A case states a question when its runs
that carry one all carry the same. A run whose request failed (``RecordedSample.error``) never
happened: it is left out, with a note (``S707``), so that a case is written from the runs that
did happen (and not at all when none did). Cases named after ids a provider made up
(``chatcmpl-…``: :func:`~toolexpect.pairing.facts.generated`) pair with no run recorded later,
which has ids of its own: ``S708`` says which pairing would name them (their question, a field,
their file).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from toolexpect.calls import RecordedSample
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.matching.wording import render_value
from toolexpect.pairing.advice import naming_help
from toolexpect.pairing.facts import generated, question_count
from toolexpect.snapshot.build import CaseRuns
from toolexpect.spelling import BY_ID, PYTHON, Setting, Spelling

__all__ = ["group_runs"]


def _question(sample: RecordedSample) -> str | None:
    return sample.facts.question if sample.facts is not None else None


def _case(name: str, runs: list[RecordedSample]) -> CaseRuns:
    questions = {q for q in map(_question, runs) if q is not None}
    return CaseRuns(name, tuple(runs), questions.pop() if len(questions) == 1 else None)


def group_runs(
    samples: Iterable[RecordedSample],
    default_name: str,
    *,
    paired: Setting = BY_ID,
    spelling: Spelling = PYTHON,
) -> tuple[list[CaseRuns], list[Diagnostic]]:
    """The runs of each case in ``samples``, and the samples left out (``S704``; ``S707`` for
    a request that failed) or cases named after made-up ids (``S708``, when pairing by id:
    ``paired``, which another pairing would name, spelled as ``spelling`` says)."""
    by_name: dict[str, list[RecordedSample]] = {}
    bare: list[RecordedSample] = []
    failed: list[Diagnostic] = []
    for sample in samples:
        if sample.error is not None:
            failed.append(_failed(sample))
            continue
        name = sample.id
        if name is None:
            bare.append(sample)
        else:
            by_name.setdefault(name, []).append(sample)
    if not by_name:
        return ([_case(default_name, bare)] if bare else []), failed
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
    if paired == BY_ID and len(by_name) > 1:
        made_up = {name: runs for name, runs in by_name.items() if generated(name)}
        if made_up:
            found.append(_made_up(made_up, paired, spelling))
    return [_case(name, runs) for name, runs in by_name.items()], [*failed, *found]


_SHOWN = 3


def _made_up(cases: dict[str, list[RecordedSample]], paired: Setting, spelling: Spelling) -> Diagnostic:
    """``S708``: cases named after ids a provider made up, and the pairing that would name them."""
    runs = [sample for samples in cases.values() for sample in samples]
    names = list(cases)
    shown = ", ".join(json.dumps(name, ensure_ascii=False) for name in names[:_SHOWN])
    more = f" and {len(names) - _SHOWN:,} more" if len(names) > _SHOWN else ""
    first = runs[0]
    return make(
        "S708",
        f"{len(names):,} case{'s are' if len(names) != 1 else ' is'} named after ids a provider "
        f"made up ({shown}{more}): runs recorded later have ids of their own and pair with "
        f"{'none of them' if len(names) != 1 else 'no such case'}",
        Span.point(first.line, 1) if first.line else None,
        help=naming_help(len(runs), question_count(runs), paired, spelling),
        path=first.path,
    )


def _failed(sample: RecordedSample) -> Diagnostic:
    """The note on a run whose request failed, left out of the snapshot (``S707``)."""
    name = f"of case {json.dumps(sample.id, ensure_ascii=False)} " if sample.id is not None else ""
    return make(
        "S707",
        f"the request of this run {name}failed ({render_value(sample.error, 200)}); "
        "the run never happened and is left out",
        Span.point(sample.line, 1) if sample.line else None,
        help="run the request again and snapshot its result; a case whose every request "
        "failed is not written",
        path=sample.path,
    )
