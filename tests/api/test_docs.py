"""docs/python-api.md shows the code that tests/api/test_readme_example.py runs."""

import runpy
from pathlib import Path

import pytest

from toolexpect import ToolCallAssertionError, given

HERE = Path(__file__).resolve().parent
DOC = HERE.parents[1] / "docs" / "python-api.md"


def test_doc_example_is_the_tested_file() -> None:
    """The first Python block of the doc is, line for line, the example test file."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    assert block == (HERE / "test_readme_example.py").read_text(encoding="utf-8")


def test_doc_example_fails_for_another_city() -> None:
    """The example's agent fails the same assertions for a question it cannot answer."""
    example = runpy.run_path(str(HERE / "test_readme_example.py"))
    with pytest.raises(ToolCallAssertionError, match="get_weather was never called"):
        (
            given()
            .question("What is the weather in Paris?")
            .expected_tool_call(example["get_weather"])
            .with_argument("city", "Paris")
            .when()
            .answer_from(example["agent"])
            .then()
            .assert_tool_call_accuracy(1.0)
        )
