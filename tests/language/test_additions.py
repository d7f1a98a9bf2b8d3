"""The newer forms of the language (!=, ranges and several conditions on one argument,
require ... >, raw strings) through every stage, and failure messages that quote a spec as
`format` writes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from language_support import run_cli, typed

from toolexpect.calls import ToolCall
from toolexpect.document import without_spans
from toolexpect.language.format import format_document
from toolexpect.language.parse import parse_text
from toolexpect.matching import evaluate, source_call
from toolexpect.model import from_document
from toolexpect.report.explain import explain_run
from toolexpect.specfiles import stages as specfile

SPEC = """\
case "trip" {
    expect book(1 <= nights <= 14, guests != 3, city != "Paris", ref ~ r"^[A-Z]{2}\\d+$")
    expect pay(amount=99.5 +- 0.5, "通貨"="円", meta={"k": [1, 2], ...}, 0 < share? < 1)
    require accuracy > 0.5
    require pass rate > 0.5
}
"""


def _document(text: str) -> dict[str, object]:
    result = parse_text(text, "spec")
    assert result.diagnostics == [], result.diagnostics
    assert result.document is not None
    return result.document


def test_new_forms_format_to_themselves_and_keep_their_meaning() -> None:
    """format writes the new forms as they are written here, and the result means the same."""
    document = _document(SPEC)
    text = format_document(document)
    assert text == SPEC
    assert typed(without_spans(_document(text))) == typed(without_spans(document))


def test_conditions_written_apart_are_formatted_as_one_range() -> None:
    """A lower bound followed by an upper bound of one argument is written as a range; other
    conditions keep their order; a pattern with a backslash is written raw."""
    text = 'expect t(x >= 1, x < 9, y <= 2, y > 0, q ~ "\\\\d", s="a\\\\b")\n'
    formatted = format_document(_document(text))
    assert formatted == 'expect t(1 <= x < 9, y <= 2, y > 0, q ~ r"\\d", s="a\\\\b")\n'
    assert without_spans(_document(formatted)) == without_spans(_document(text))


def test_failure_messages_quote_expectations_as_format_writes_them() -> None:
    """Each expectation of a case appears in failure messages exactly as in format's output,
    non-ASCII names quoted, so that it can be pasted back into a spec."""
    document = _document(SPEC)
    spec = from_document(document)
    formatted_lines = [line.strip() for line in format_document(document).splitlines()]
    for expectation in spec.cases[0].expectations:
        assert f"expect {source_call(expectation)}" in formatted_lines
    result = evaluate(spec.cases[0], [ToolCall("pay", {"amount": 1})])
    messages = [f.message for f in result.failures]
    assert any(m.startswith('pay(amount=99.5 +- 0.5, "通貨"="円", ') for m in messages), messages
    assert not any("amount = 99.5" in m for m in messages)


def test_a_non_ascii_tool_name_is_quoted_in_messages() -> None:
    """A tool name that a bare word cannot spell is quoted, as format writes it."""
    case = from_document(_document('expect "天気"("都市"="東京")\n')).cases[0]
    result = evaluate(case, [ToolCall("天気", {"都市": "大阪"})])
    assert result.failures[-1].message.startswith('"天気"("都市"="東京") not matched')


def test_unreadable_arguments_are_explained_with_their_text() -> None:
    """A call whose arguments were not valid JSON is explained as unreadable, with the text
    as logged, never as each argument missing."""
    case = from_document(_document('expect get_weather(city="Berlin")\n')).cases[0]
    call = ToolCall("get_weather", {}, raw_arguments='{"city": "Berl', valid_json=False)
    result = evaluate(case, [call])
    message = result.failures[-1].message
    assert "could not be read" in message
    assert '"{\\"city\\": \\"Berl"' in message
    assert "missing" not in message
    (arg,) = result.failures[-1].details["closest"][0].args
    assert "could not be read" in arg.message
    text = explain_run(case, result, [call])
    assert "arguments could not be read" in text
    assert "city: expected" not in text


@pytest.mark.parametrize(
    ("passed", "required", "strict", "status"),
    [(1, 0.5, True, "fail"), (2, 0.5, True, "pass"), (1, 0.5, False, "pass")],
)
def test_pass_rate_above_a_threshold(passed: int, required: float, strict: bool, status: str) -> None:
    """require pass rate > r needs more than r of the runs to pass; >= r needs r of them."""
    from toolexpect.matching.accumulate import CaseAccumulator

    op = ">" if strict else ">="
    case = from_document(_document(f"expect a\nrequire pass rate {op} {required}\n")).cases[0]
    folded = CaseAccumulator(case)
    for index in range(2):
        folded.add(evaluate(case, [ToolCall("a", {})] if index < passed else []))
    assert folded.result().status == status


def test_json_and_yaml_forms_build_the_same_model(tmp_path: Path) -> None:
    """The new forms written as JSON and YAML documents build the model the text builds."""
    document = without_spans(_document(SPEC))
    (tmp_path / "trip.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "trip.expect.json").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "trip.expect.yaml").write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    models = []
    for name in ("trip.expect", "trip.expect.json", "trip.expect.yaml"):
        loaded = specfile.load_spec_file(str(tmp_path / name))
        assert loaded.diagnostics == [], (name, loaded.diagnostics)
        models.append(loaded.spec)
    assert models[0] == models[1] == models[2]


def test_a_threshold_op_only_on_thresholds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The schema allows op on accuracy and pass rate only, and there only >= or >."""
    path = tmp_path / "x.expect.yaml"
    path.write_text(
        "cases:\n  - name: x\n    expect: [{tool: t}]\n    require:\n"
        "      - {kind: order, op: '>'}\n      - {kind: accuracy, threshold: 0.5, op: '<'}\n",
        encoding="utf-8",
    )
    code, out, _ = run_cli(capsys, "lint", "--format", "concise", str(path))
    assert code == 1
    assert 'V201 key "op" is not allowed' in out
    assert 'must be one of ">=", ">"' in out


def test_scoring_an_empty_spec_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A spec without cases is L310, and score refuses it with exit code 2, never "0 passed"."""
    spec = tmp_path / "empty.expect"
    spec.write_text("# to do\n", encoding="utf-8")
    log = tmp_path / "run.jsonl"
    log.write_text('{"id": "x", "tool_calls": []}\n', encoding="utf-8")
    code, out, err = run_cli(capsys, "score", str(spec), "--log", str(log))
    assert code == 2
    assert "L310" in err
    assert "0 passed" not in out


def test_expectations_made_in_python_are_explained_whatever_they_hold() -> None:
    """An expectation from the Python API with a value no spec can hold (NaN, an infinity, a
    literal "$partial" key) is still quoted, as reports show such values."""
    from toolexpect import ToolCallAccuracyEvaluator
    from toolexpect.api import Sample

    expected = ToolCall("t", {"x": float("nan"), "y": {"$partial": 1}, "z": [float("-inf")]})
    evaluation = ToolCallAccuracyEvaluator().evaluate(Sample([expected], [ToolCall("t", {"x": 1})]))
    assert 't(x=NaN, y={"$partial": 1}, z=[-Infinity]): not matched' in evaluation.explanation


def test_recorded_calls_are_shown_as_a_spec_would_expect_them() -> None:
    """A recorded call in an explanation is written by the same writer: names quoted where a
    bare word cannot spell them, an object with a "$partial" key kept literal."""
    from toolexpect.report.explain import render_call

    shown = render_call(ToolCall("天気", {"都市": "東京", "m": {"$partial": {"a": 1}}}))
    assert shown == '"天気"("都市"="東京", m={"$partial": {"a": 1}})'
    assert without_spans(_document(f"expect {shown}\n"))["cases"][0]["expect"][0]["args"][1] == {
        "name": "m",
        "op": "eq",
        "value": {"$literal": {"$partial": {"a": 1}}},
    }
    assert render_call(ToolCall("t", {})) == "t()"


def test_a_missing_argument_of_a_range_is_reported_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both conditions of ``1 <= d <= 9`` fail when ``d`` is absent: the message says so once."""
    spec = tmp_path / "range.expect"
    spec.write_text('case "c" {\n    expect t(1 <= d <= 9)\n}\n', encoding="utf-8")
    log = tmp_path / "run.jsonl"
    log.write_text('{"id": "c", "tool_calls": [{"name": "t", "arguments": {"e": 1}}]}\n', encoding="utf-8")
    code, out, _ = run_cli(capsys, "score", str(spec), "--log", str(log))
    assert code == 1
    assert out.count("d: missing") == 1, out
    case = from_document(_document("expect t(1 <= d <= 9)\n")).cases[0]
    message = evaluate(case, [ToolCall("t", {"e": 1})]).failures[-1].message
    assert message.endswith("closest call #1: d: missing"), message
