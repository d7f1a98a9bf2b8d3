"""Mutated logs, read and scored: samples, diagnostics or a LogError, never another exception.

The normal run tries a few dozen mutations per test (a few seconds in all); a
longer run by hand takes the ``long`` hypothesis profile (``HYPOTHESIS_PROFILE=long``).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_conversation_layouts import LAYOUTS, STREAMS

from toolexpect.calls import RecordedSample
from toolexpect.logs import LogError, calls_to_json, open_log
from toolexpect.model import Spec
from toolexpect.report.calls import render_calls_json, render_calls_table
from toolexpect.report.score import render
from toolexpect.scoring.partial import score
from toolexpect.specfiles.stages import parse_spec_source

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
SEEDS = [
    FIXTURES / "canonical" / "samples.jsonl",
    FIXTURES / "canonical" / "list_of_samples.json",
    FIXTURES / "canonical" / "call_per_line.jsonl",
    FIXTURES / "openai-chat" / "completion_parallel.json",
    FIXTURES / "openai-chat" / "stream.sse",
    FIXTURES / "anthropic" / "stream.jsonl",
    FIXTURES / "otel",
    FIXTURES / "gemini",
]
SEED_BYTES = [
    path.read_bytes()
    for seed in SEEDS
    for path in (sorted(p for p in seed.iterdir() if p.is_file())[:1] if seed.is_dir() else [seed])
]
_TURNS = [
    [("get_weather", {"city": "Berlin"}, "call_0"), ("search", {}, "call_1")],
    [],
    [("get_weather", {"city": "Berlin"}, "call_2")],
]
# The layouts of the property tests of the readers (test_conversation_layouts), one conversation
# each, as JSON Lines.
SEED_BYTES += [
    "".join(json.dumps(record) + "\n" for record in write(0, _TURNS)).encode("utf-8")
    for write, _ids in (*LAYOUTS.values(), *STREAMS.values())
]
# 100 examples by default; the ``long`` profile (HYPOTHESIS_PROFILE=long) runs fifty times more.
SCALE = max(1, settings.default.max_examples // 100)
EXAMPLES = 40 * SCALE
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
PIECES = [
    *(b"{", b"}", b"[", b"]", b'"', b",", b":", b"\n", b"\\", b" ", b"null", b"9" * 30),
    *(b"NaN", b"-Infinity", b"1e999", b'"arguments"', b'"tool_calls"', b'"name"'),
    *(b"\xff", b"\x00", b"\xe2\x80\xa8"),
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """A seed log with a few bytes deleted, inserted, replaced or repeated."""
    data = bytearray(draw(st.sampled_from(SEED_BYTES)))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["delete", "insert", "replace", "repeat", "cut"]))
        size = draw(st.integers(1, 12))
        if action == "delete":
            del data[at : at + size]
        elif action == "insert":
            data[at:at] = draw(st.sampled_from(PIECES))
        elif action == "replace" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif action == "repeat":
            data[at:at] = data[at : at + size * 8]
        elif action == "cut":
            del data[at:]
    return bytes(data)


def _spec() -> Spec:
    text = 'case "c" {\n  expect get_weather(city="Berlin")\n  forbid delete_user\n}\n'
    spec = parse_spec_source(text, "text", name="c").spec
    assert spec is not None
    return spec


SPEC = _spec()


def _strict(text: str) -> object:
    def refuse(name: str) -> object:
        raise AssertionError(f"{name} in JSON output")

    return json.loads(text, parse_constant=refuse)


@SETTINGS
@given(mutated(), st.booleans())
def test_mutated_logs_read_and_score_or_raise_log_error(data: bytes, lines: bool) -> None:
    """Reading, scoring and rendering a mutated log raises nothing but LogError; JSON stays JSON."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("log.jsonl" if lines else "log.json")
        path.write_bytes(data)
        try:
            samples = list(open_log(path))
        except LogError:
            return
    assert all(isinstance(sample, RecordedSample) for sample in samples)
    report = score([SPEC], samples)
    for case in report.cases:
        value = case.result.mean_score
        assert value is None or 0.0 <= value <= 1.0
    for fmt in ("text", "json", "junit", "github", "markdown"):
        text = render(report, fmt)
        if fmt == "json":
            _strict(text)
    render_calls_table(samples)
    _strict(render_calls_json(calls_to_json(samples)))
