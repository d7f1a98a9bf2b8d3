"""The pytest plugin's pairing hints name the plugin's own options, and pytest takes them as written."""

import re
import shlex
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

PAIRING = Path(__file__).resolve().parents[1] / "fixtures" / "pairing"
SPEC = (PAIRING / "weather.expect").read_text(encoding="utf-8")
"""Three cases, each stating the question its runs ask."""

ONE_CASE = """
case "berlin tomorrow" {
    expect get_weather(city="Berlin")
    expect send_summary(city="Berlin")
}
"""

_SUGGESTED = re.compile(r"use (--toolexpect-[a-z-]+ \S+)")


def _suggested(output: str) -> list[str]:
    """The options the toolexpect section's help lines tell the user to use, as pytest arguments."""
    [option] = _SUGGESTED.findall(output)
    return shlex.split(option.rstrip(":"))


@pytest.mark.parametrize(
    ("spec", "log", "given", "hint", "outcome"),
    [
        (SPEC, "conversations.jsonl", [], "--toolexpect-pair-by question", {"passed": 3}),
        (
            SPEC.replace("question", "# question"),
            "conversations.jsonl",
            ["--toolexpect-pair-by", "file"],
            "--toolexpect-case-from metadata.case",
            {"passed": 3},
        ),
        (ONE_CASE, "by_file/berlin-tomorrow.jsonl", [], "--toolexpect-pair-by file", {"passed": 1}),
    ],
    ids=["R420 by question", "R420 by a field", "R423 by file"],
)
def test_the_hint_names_an_option_pytest_accepts_and_it_pairs_the_runs(
    pytester: pytest.Pytester,
    spec: str,
    log: str,
    given: list[str],
    hint: str,
    outcome: dict[str, int],
) -> None:
    """The pairing hint says --toolexpect-pair-by / --toolexpect-case-from (never the command
    line's --pair-by), and passing the option exactly as the hint writes it pairs the runs."""
    pytester.makefile(".expect", weather=spec)
    sources = ["-p", "no:cacheprovider", "--toolexpect-specs", "weather.expect"]
    sources += ["--toolexpect-log", str(PAIRING / log)]
    first = pytester.runpytest(*sources, *given)
    output = first.stdout.str()
    assert f"use {hint}" in output
    assert not re.search(r"(?<![a-z-])--(pair-by|case-from)\b", output), output
    again = pytester.runpytest(*sources, *_suggested(output))
    again.assert_outcomes(**outcome)
    assert "toolexpect-pair-by" not in again.stdout.str()


def test_the_option_in_use_and_the_other_options_are_spelled_for_pytest(pytester: pytest.Pytester) -> None:
    """R420 names the pairing in use and R421 the alternatives as the plugin's options."""
    asked = SPEC.replace("How cold is it in Oslo today?", "Will it rain in Lisbon this weekend?")
    pytester.makefile(".expect", weather=asked)
    log = str(PAIRING / "conversations.jsonl")
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "--toolexpect-specs", "weather.expect", "--toolexpect-log", log,
        "--toolexpect-pair-by", "question",
    )  # fmt: skip
    output = result.stdout.str()
    assert "help: give each case its own question, or pair with --toolexpect-pair-by id or " in output
    assert "--toolexpect-case-from PATH" in output
    assert "pairing with --toolexpect-pair-by question" in output
