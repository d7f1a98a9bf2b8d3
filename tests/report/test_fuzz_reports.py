"""Reports of runs whose tool names, arguments and ids are any text: every format valid in its
own right and safe on a terminal and a CI runner, whatever a logged model wrote.

The normal run tries some dozens of examples per test (a few seconds in all); a longer run by
hand takes the ``long`` hypothesis profile (``HYPOTHESIS_PROFILE=long``).
"""

from __future__ import annotations

from typing import Any

from hostile_support import HOSTILE, check_github, check_html, check_json, check_junit, check_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolexpect.baseline.compare import compare
from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.report import diff as diff_report
from toolexpect.report.calls import render_calls_json, render_calls_table, sample_json
from toolexpect.report.explain import explain_case, explain_run
from toolexpect.report.html import render_html
from toolexpect.report.score import render, to_json
from toolexpect.report.style import Style
from toolexpect.scoring.partial import score
from toolexpect.specfiles.stages import parse_spec_source

SCALE = max(1, settings.default.max_examples // 100)
SETTINGS = settings(max_examples=30 * SCALE, deadline=None, suppress_health_check=list(HealthCheck))

SPEC = parse_spec_source(
    'case "a" {\n    expect get_weather(city="Berlin")\n}\n\n'
    'case "b" {\n    expect get_weather(city ~ "^B")\n    require accuracy >= 0.5\n    forbid delete\n}\n',
    path="w.expect",
).spec

# Any text: every code point, lone surrogates included, and the pieces hostile input is made of.
_ANY = st.text(st.characters(codec=None, categories=None), max_size=30)
TEXT = st.one_of(_ANY, st.sampled_from(HOSTILE), st.sampled_from(["get_weather", "city", "Berlin", "a", "b"]))
VALUE: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)
CALL = st.builds(
    ToolCall,
    name=TEXT.filter(bool),
    arguments=st.dictionaries(TEXT, VALUE, max_size=3),
    id=st.none() | TEXT,
    kind=st.sampled_from(["function", "mcp_call"]) | TEXT,
)
SAMPLE = st.builds(
    RecordedSample,
    id=st.sampled_from(["a", "b"]) | TEXT,
    calls=st.lists(CALL, max_size=3).map(tuple),
    path=st.none() | TEXT,
    line=st.none() | st.integers(1, 10),
)
SAMPLES = st.lists(SAMPLE, max_size=6)

assert SPEC is not None


@SETTINGS
@given(samples=SAMPLES, width=st.none() | st.integers(1, 300), quiet=st.booleans(), verbose=st.booleans())
def test_every_score_format_holds_for_any_text(
    samples: list[RecordedSample], width: int | None, quiet: bool, verbose: bool
) -> None:
    """Text and Markdown hold no raw control character and no workflow command, JUnit and
    JSON parse, HTML closes every element, and ``github`` is one annotation a line."""
    report = score([SPEC], samples)
    for style in (Style(False), Style(True), Style(False, ascii_marks=True)):
        check_text(_unstyled(render(report, "text", style=style, quiet=quiet, verbose=verbose, width=width)))
    check_text(render(report, "markdown"))
    check_json(render(report, "json"))
    check_junit(render(report, "junit").encode("utf-8"))
    check_github(render(report, "github"))
    check_html(render_html(to_json(report)))


@SETTINGS
@given(samples=SAMPLES)
def test_explanations_hold_for_any_text(samples: list[RecordedSample]) -> None:
    """What ``assert_*`` helpers and the pytest plugin say of a failing run: no raw control
    character, no workflow command, whatever the calls hold."""
    report = score([SPEC], samples)
    for outcome in report.cases:
        check_text(explain_case(outcome.case, outcome.result, path="w.expect"))
    for sample in samples:
        for outcome in score(
            [SPEC], [RecordedSample("a", sample.calls), RecordedSample("b", sample.calls)]
        ).cases:
            run = outcome.result.first_run
            if run is not None:
                check_text(explain_run(outcome.case, run, sample.calls, path="w.expect"))


@SETTINGS
@given(before=SAMPLES, after=SAMPLES)
def test_every_diff_format_holds_for_any_text(
    before: list[RecordedSample], after: list[RecordedSample]
) -> None:
    """A comparison of two such reports, in every format of ``diff`` and as an HTML page."""
    old, new = to_json(score([SPEC], before)), to_json(score([SPEC], after))
    comparison = compare(old, new)
    check_text(diff_report.render(comparison, "text", old_name="old\n::error::x", new_name="new"))
    check_text(diff_report.render(comparison, "markdown"))
    check_json(diff_report.render(comparison, "json"))
    check_github(diff_report.render(comparison, "github"))
    check_html(render_html(new, comparison=comparison))


@SETTINGS
@given(samples=SAMPLES)
def test_the_calls_table_and_json_hold_for_any_text(samples: list[RecordedSample]) -> None:
    """``calls``: the table shows every name, argument and id safely; the JSON parses."""
    check_text(render_calls_table(samples))
    check_json(render_calls_json({"logs": [], "samples": [sample_json(s) for s in samples]}))


def _unstyled(text: str) -> str:
    """``text`` without the report's own colour codes (the only escapes it may write)."""
    import re

    return re.sub("\x1b\\[[0-9;]*m", "", text)
