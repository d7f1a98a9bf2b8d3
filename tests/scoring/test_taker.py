"""Samples scored as decoded (``Scorer.taker``) give the report scoring read samples gives."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from toolexpect.language.parse import parse_text
from toolexpect.logs import canonical, open_log
from toolexpect.logs._base import Context
from toolexpect.model import Spec, from_document
from toolexpect.scoring import Scorer, score

SPEC = """
case "a" {
    expect f(x=1, y="s")
    expect f(x=2, y="s")
    expect g
    require accuracy >= 0.5
}
case "b" {
    expect f(x="s", y=[1, 2])
    forbid h
}
case "c" {
    expect g(z ~ "^o")
    require no unexpected calls
}
case "d" {
    expect f(x=1) then g(z="ok")
    expect k(y={"a": 1, ...})
    expect f(y=[1, 2])
}
"""


def _spec(text: str = SPEC) -> Spec:
    parsed = parse_text(text, "s")
    assert parsed.document is not None, parsed.diagnostics
    return from_document(parsed.document, path="s.expect")


def _call(rng: random.Random) -> Any:
    name = rng.choice("fghk")
    args = {
        "x": rng.choice([1, 2, 1.0, "s", True]),
        "y": rng.choice(["s", [1, 2], [1.0, 2], {"a": 1}]),
        "z": "ok",
    }
    roll = rng.random()
    if roll < 0.02:
        return {"name": name, "arguments": args, "id": rng.choice(["c1", "c2"])}
    if roll < 0.03:
        return {"name": name, "arguments": json.dumps(args)}
    if roll < 0.035:
        return {"name": "", "arguments": {}}
    return {"name": name, "arguments": args}


REPLAY = [
    {"name": "f", "arguments": {"x": 1, "y": "s"}},
    {"name": "f", "arguments": {"x": 2, "y": "s", "z": "ok"}},
    {"name": "g", "arguments": {}},
]


def _lines(count: int, seed: int) -> tuple[list[str], int]:
    """Log lines, and how many of them replay case "a" exactly (as plain calls)."""
    rng = random.Random(seed)
    lines = []
    replays = 0
    for _ in range(count):
        if rng.random() < 0.3:
            calls = rng.sample(REPLAY, len(REPLAY))
            lines.append(json.dumps({"id": "a", "tool_calls": calls}))
            replays += 1
            continue
        record: dict[str, Any] = {"tool_calls": [_call(rng) for _ in range(rng.randrange(6))]}
        roll = rng.random()
        if roll < 0.9:
            record["id"] = rng.choice("abcd")
        elif roll < 0.93:
            record["id"] = "nobody"
        elif roll < 0.95:
            record["id"] = 5
        lines.append(json.dumps(record))
        if rng.random() < 0.02:
            lines.append(
                rng.choice(["not json", '{"name": "g", "arguments": {}}', '{"id": "a", "tool_calls": "x"}'])
            )
    return lines, replays


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_taken_and_read_samples_give_the_read_report(tmp_path: Path, seed: int) -> None:
    """Runs, their order, unused samples, failures and diagnostics: all as scoring read samples."""
    log = tmp_path / "log.jsonl"
    lines, replays = _lines(400, seed)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    specs = [_spec()]
    reader = open_log(log)
    expected = score(specs, reader)
    expected_diagnostics = list(reader.diagnostics)
    scorer = Scorer(specs)
    taken: list[str | None] = []
    take = scorer.taker()

    def counting(sample_id: str | None, calls: list[Any]) -> bool:
        done = take(sample_id, calls)
        if done:
            taken.append(sample_id)
        return done

    scorer.feed(reader.read(counting))
    assert scorer.report() == expected
    assert reader.diagnostics == expected_diagnostics
    assert replays > 50
    assert taken.count("a") >= replays  # passing runs of plain calls never became objects


def test_one_case_takes_samples_without_an_id(tmp_path: Path) -> None:
    """A spec of one case pairs id-less samples with it, taken or not."""
    spec = _spec('case "solo" {\n    expect f(x=1)\n}\n')
    log = tmp_path / "log.jsonl"
    records = [{"tool_calls": [{"name": "f", "arguments": {"x": x}}]} for x in (1, 2, 1, 1)]
    log.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    scorer = Scorer([spec])
    scorer.feed(open_log(log).read(scorer.taker()))
    report = scorer.report()
    assert report == score([spec], open_log(log))
    assert [r.status for r in report.cases[0].runs] == ["pass", "fail", "pass", "pass"]


def test_the_reader_offers_sample_records_in_order() -> None:
    """``take`` sees each sample record's id and calls; declined ones are read as usual."""
    records: list[tuple[int | None, Any]] = [
        (1, {"id": "a", "tool_calls": [{"name": "f", "arguments": {}}]}),
        (2, {"name": "loose", "arguments": {}}),
        (3, {"id": "b", "calls": []}),
        (4, {"id": 5, "tool_calls": []}),
        (5, {"id": "c", "tool_calls": "nope"}),
        (6, {"tool_calls": [{"name": "g", "arguments": {}}]}),
    ]
    offered: list[tuple[str | None, list[Any]]] = []

    def take(sample_id: str | None, calls: list[Any]) -> bool:
        offered.append((sample_id, calls))
        return sample_id == "b"

    ctx = Context("log")
    samples = list(canonical.read(records, ctx, take))
    assert offered == [
        ("a", [{"name": "f", "arguments": {}}]),
        ("b", []),
        (None, [{"name": "g", "arguments": {}}]),
    ]
    plain_ctx = Context("log")
    everything = list(canonical.read(records, plain_ctx))
    assert samples == [s for s in everything if s.id != "b"]
    assert [d.message for d in ctx.diagnostics] == [d.message for d in plain_ctx.diagnostics]


def test_the_collector_resumes_without_a_scan_of_the_scored_objects() -> None:
    """Objects made while scoring leave the young generation: no 0.4 s scan right after."""
    import gc

    from toolexpect.cli import _without_gc

    was = gc.isenabled()
    gc.enable()
    try:
        kept = _without_gc(lambda: [[i] for i in range(50_000)])
        assert gc.isenabled()
        assert gc.get_count()[0] < 1000
        assert len(kept) == 50_000
    finally:
        if not was:
            gc.disable()


def test_a_part_merged_gives_the_report_of_one_scorer(tmp_path: Path) -> None:
    """Passing runs travel as a few integers, the others whole; merged, the report is the same."""
    lines, _ = _lines(600, 9)
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    first.write_text("\n".join(lines[:300]) + "\n", encoding="utf-8")
    second.write_text("\n".join(lines[300:]) + "\n", encoding="utf-8")
    specs = [_spec()]
    whole = Scorer(specs)
    whole.feed(open_log(first))
    whole.feed(open_log(second))
    head, tail = Scorer(specs), Scorer(specs)
    head.feed(open_log(first).read(head.taker()))
    tail.feed(open_log(second).read(tail.taker()))
    part = tail.part()
    kinds = b"".join(k for k, _, _ in part[0])
    assert kinds.count(b"p") > 50
    assert kinds.count(b"f") > 50
    head.merge(part)
    merged, expected = head.report(), whole.report()
    assert merged.cases == expected.cases
    for ours, theirs in zip(merged.cases, expected.cases, strict=True):
        assert [r.pairs for r in ours.runs] == [r.pairs for r in theirs.runs]


@pytest.mark.parametrize("seed", [4, 5])
def test_a_run_that_fails_from_the_dicts_is_paired_once(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The taker's pairing of a failing run of plain calls is reused for its call objects:
    no second pairing, and the report scoring read samples gives."""
    from toolexpect.matching import CompiledCase

    log = tmp_path / "log.jsonl"
    lines, _ = _lines(400, seed)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    specs = [_spec()]
    expected = score(specs, open_log(log))
    paired: list[int] = []
    reused: list[int] = []
    pair = CompiledCase._pair
    finish = CompiledCase.evaluate_paired

    def counting_pair(self: CompiledCase, calls: Any) -> Any:
        paired.append(len(calls))
        return pair(self, calls)

    def counting_finish(self: CompiledCase, calls: Any, found: Any, **kw: Any) -> Any:
        reused.append(len(calls))
        return finish(self, calls, found, **kw)

    monkeypatch.setattr(CompiledCase, "_pair", counting_pair)
    monkeypatch.setattr(CompiledCase, "evaluate_paired", counting_finish)
    scorer = Scorer(specs)
    scorer.feed(open_log(log).read(scorer.taker()))
    assert scorer.report() == expected
    failing = sum(r.status == "fail" for o in expected.cases for r in o.runs)
    assert failing > 50
    # evaluate pairs, then finishes; a run the taker paired is only finished.
    assert len(reused) - len(paired) > failing // 3


def test_a_held_pairing_is_used_only_for_the_calls_it_was_made_of() -> None:
    """A sample that is not the reading of the held call dicts is paired anew."""
    from toolexpect.calls import ToolCall
    from toolexpect.matching import same_calls

    raw = [{"name": "f", "arguments": {"x": 1}}, {"name": "g", "arguments": {}}]
    read = [ToolCall(c["name"], c["arguments"]) for c in raw]
    assert same_calls(raw, read)
    assert not same_calls(raw, read[:1])
    assert not same_calls(raw, [ToolCall("f", {"x": 1}), read[1]])  # equal, not the same dict
    assert not same_calls(raw, [ToolCall("h", raw[0]["arguments"]), read[1]])
    specs = [_spec('case "solo" {\n    expect f(x=2)\n}\n')]
    scorer = Scorer(specs)
    take = scorer.taker()
    assert not take("solo", raw)  # fails: its pairing is held
    from toolexpect.calls import RecordedSample

    other = (ToolCall("f", {"x": 2}),)
    scorer.feed([RecordedSample("solo", other)])
    assert scorer.report() == score(specs, [RecordedSample("solo", other)])
