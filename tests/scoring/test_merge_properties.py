"""The seam every engine uses: partial scores of any partitions merge associatively and
commutatively, and the merged score finishes into the report of one process."""

from __future__ import annotations

import collections
import itertools
import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from scoring_support import SPEC, random_line

from toolexpect.api import parse_spec
from toolexpect.calls import RecordedSample
from toolexpect.logs import samples_from_value
from toolexpect.model import Spec
from toolexpect.report.score import FORMATS, MAX_RUNS_SHOWN, render
from toolexpect.schema import report_schema_text
from toolexpect.scoring.partial import MAX_UNUSED_IDS, CompiledSpecs, PartialScore, score, score_partition


def _samples(count: int, seed: int) -> list[RecordedSample]:
    rng = random.Random(seed)
    lines = [random_line(rng, ("a", "b", "c", "nobody", "else")) for _ in range(count)]
    return samples_from_value("\n".join(lines), "canonical")


SPECS: list[Spec] = [parse_spec(SPEC, "merge")]
COMPILED = CompiledSpecs.of(SPECS)
SAMPLES = _samples(60, 5)


def _partials(cuts: list[int], explained: int | None) -> list[PartialScore]:
    """The partial scores of SAMPLES cut at ``cuts``, each placed at its number."""
    bounds = [0, *sorted(set(cuts)), len(SAMPLES)]
    return [
        score_partition(COMPILED, SAMPLES[start:stop], at=(number,), explained=explained)
        for number, (start, stop) in enumerate(itertools.pairwise(bounds))
    ]


def _merged(partials: list[PartialScore], order: list[int], split: list[int]) -> PartialScore:
    """``partials`` taken in ``order`` and merged as a tree whose shape ``split`` draws."""
    items = [partials[number] for number in order]

    def tree(low: int, high: int, depth: int) -> PartialScore:
        if high - low == 1:
            return items[low]
        middle = low + 1 + split[depth % len(split)] % (high - low - 1) if split else (low + high) // 2
        return tree(low, middle, depth + 1).merge(tree(middle, high, depth + 1))

    return tree(0, len(items), 0) if items else COMPILED.empty()


@settings(max_examples=30, deadline=None)
@given(
    cuts=st.lists(st.integers(0, len(SAMPLES)), max_size=12),
    seed=st.integers(0, 2**16),
    split=st.lists(st.integers(0, 100), max_size=8),
    explained=st.sampled_from([None, MAX_RUNS_SHOWN]),
)
def test_any_order_and_grouping_of_merges_finishes_as_one_process(
    cuts: list[int], seed: int, split: list[int], explained: int | None
) -> None:
    """Partitions merged in a shuffled order and any tree shape finish into the report of scoring
    all samples at once: the same report when every run is kept whole, and the same rendering
    in the formats that explain only a few failing runs when only those are kept whole."""
    partials = _partials(cuts, explained)
    order = list(range(len(partials)))
    random.Random(seed).shuffle(order)
    report = COMPILED.finish(_merged(partials, order, split))
    single = score(SPECS, SAMPLES, explained=explained)
    if explained is None:
        assert report == single
        assert render(report, "json") == render(single, "json")
    else:
        for fmt in FORMATS:
            if fmt != "json":
                assert render(report, fmt) == render(single, fmt)


@settings(max_examples=30, deadline=None)
@given(cuts=st.lists(st.integers(0, len(SAMPLES)), min_size=2, max_size=8), data=st.data())
def test_merge_is_associative_and_commutative(cuts: list[int], data: st.DataObject) -> None:
    """(a + b) + c is a + (b + c), and a + b is b + a, as partial scores and as reports."""
    partials = _partials(cuts, None)
    a, b, c = (data.draw(st.sampled_from(partials)) for _ in range(3))
    if len({p.parts[0].at for p in (a, b, c)}) < 3:
        return
    assert a.merge(b) == b.merge(a)
    assert a.merge(b).merge(c) == a.merge(b.merge(c))
    assert COMPILED.finish(a.merge(b)) == COMPILED.finish(b.merge(a))
    assert COMPILED.finish(c.merge(a).merge(b)) == COMPILED.finish(a.merge(b.merge(c)))


def test_a_partition_merged_twice_is_refused() -> None:
    """The same partition scored twice is an error, never counted twice."""
    partial = score_partition(COMPILED, SAMPLES[:10], at=(3,))
    with pytest.raises(ValueError, match="partition at"):
        partial.merge(partial)


def test_the_empty_partial_score_is_neutral() -> None:
    """Merging the empty partial score changes nothing, on either side."""
    partial = score_partition(COMPILED, SAMPLES, at=(0,))
    assert COMPILED.empty().merge(partial) == partial == partial.merge(COMPILED.empty())


def test_compiled_specs_and_partial_scores_travel_by_pickle() -> None:
    """Compiled specs pickle as their cases and compile again; a pickled partial score finishes
    into the same report (what a cluster sends between processes)."""
    compiled = pickle.loads(pickle.dumps(COMPILED))
    partial = pickle.loads(pickle.dumps(score_partition(compiled, SAMPLES, at=(0,))))
    assert compiled.finish(partial) == score(SPECS, SAMPLES)


def _unclaimed(count: int, seed: int) -> list[RecordedSample]:
    """Samples of ``count`` distinct ids no case has, some repeated, between claimed ones."""
    rng = random.Random(seed)
    lines = []
    for number in range(count):
        for _ in range(rng.choice((1, 1, 2))):
            lines.append(f'{{"id": "conversation-{number}", "tool_calls": []}}')
        if number % 100 == 0:
            lines.append(json.dumps({**json.loads(random_line(rng, ("a", "b"))), "id": "a"}))
    rng.shuffle(lines)
    return samples_from_value("\n".join(lines), "canonical")


@settings(max_examples=10, deadline=None)
@given(cuts=st.lists(st.integers(0, 2_000), max_size=6), seed=st.integers(0, 2**16))
def test_unclaimed_ids_beyond_the_cap_are_listed_first_and_counted_in_all(cuts: list[int], seed: int) -> None:
    """More distinct unclaimed ids than MAX_UNUSED_IDS: the report lists the first ids of the
    input (where each was first read, no count), gives the exact number of unclaimed samples, and
    is the same however the input was partitioned."""
    samples = _unclaimed(MAX_UNUSED_IDS + 300, seed)
    bounds = [0, *sorted({min(cut, len(samples)) for cut in cuts}), len(samples)]
    partial = COMPILED.empty()
    for number, (start, stop) in enumerate(itertools.pairwise(bounds)):
        partial = partial.merge(score_partition(COMPILED, samples[start:stop], at=(number,), explained=5))
    report = COMPILED.finish(partial)
    single = score(SPECS, samples, explained=5)
    assert report == single
    unclaimed = [s for s in samples if s.id not in ("a", "b")]
    first_ids = list(dict.fromkeys(s.id for s in unclaimed))[:MAX_UNUSED_IDS]
    assert [u.id for u in report.unused] == first_ids
    assert {u.count for u in report.unused} == {None}
    first_lines = {s.id: s.line for s in reversed(unclaimed)}
    assert all(u.line == first_lines[u.id] for u in report.unused)
    assert (report.unused_runs, report.unused_capped) == (len(unclaimed), True)
    assert f"{len(unclaimed):,} runs in all" in render(report, "text")
    document = json.loads(render(report, "json"))
    assert document["summary"]["unused_runs"] == len(unclaimed)
    Draft202012Validator(json.loads(report_schema_text())).validate(document)


def test_unclaimed_ids_within_the_cap_are_each_counted() -> None:
    """Up to MAX_UNUSED_IDS distinct unclaimed ids, each is listed with its exact count, and the
    JSON summary says nothing more."""
    samples = _unclaimed(MAX_UNUSED_IDS, 3)
    partial = COMPILED.empty()
    for number, start in enumerate(range(0, len(samples), 97)):
        partial = partial.merge(score_partition(COMPILED, samples[start : start + 97], at=(number,)))
    report = COMPILED.finish(partial)
    counts = collections.Counter(s.id for s in samples if s.id not in ("a", "b"))
    assert {u.id: u.count for u in report.unused} == counts
    assert not report.unused_capped and report.unused_runs == sum(counts.values())
    assert "unused_runs" not in json.loads(render(report, "json"))["summary"]
