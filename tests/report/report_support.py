"""Two runs of one small agent, scored into JSON reports with the command line."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from toolexpect.cli import main

SPEC = """\
case "steady" {
    expect get_weather(city="Berlin")
}

case "breaks" {
    expect get_weather(city="Rome")
}

case "heals" {
    expect get_weather(city="Oslo")
}

case "drifts" {
    expect get_weather(city="Rome")
    expect get_time(zone="CET")
    require accuracy >= 0.5
}

case "flaky" {
    expect get_weather(city="Lima")
    require pass rate >= 0.5
}
"""
"""``weather.expect``: five cases, ``flaky`` scored from several runs."""

BREAKS_LINE = 5
"""The line of case ``breaks`` in :data:`SPEC`."""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    """One recorded call."""
    return {"name": tool, "arguments": arguments}


def record(case: str, *calls: dict[str, Any]) -> str:
    """One line of a canonical log."""
    return json.dumps({"id": case, "tool_calls": list(calls)})


BEFORE = [
    record("steady", call("get_weather", city="Berlin")),
    record("breaks", call("get_weather", city="Rome")),
    record("heals", call("get_weather", city="Osl")),
    record("drifts", call("get_weather", city="Rome"), call("get_time", zone="CET")),
    *[record("flaky", call("get_weather", city="Lima"))] * 4,
]
"""The first run: ``heals`` fails, the rest pass (``flaky`` 4 of 4 runs)."""

AFTER = [
    record("steady", call("get_weather", city="Berlin")),
    record("breaks", call("get_weather", city="<script>window.pwned=1</script>")),
    record("heals", call("get_weather", city="Oslo")),
    record("drifts", call("get_weather", city="Rome"), call("get_time", zone="UTC")),
    *[record("flaky", call("get_weather", city="Lima"))] * 3,
    record("flaky", call("get_weather", city="Lima"), call("send_sms", to="+1 | <b>")),
    record("flaky", call("get_weather", city="Lim")),
]
"""The second run: ``breaks`` newly fails (with a ``<script>`` in its argument), ``heals``
newly passes, ``drifts`` scores 0.5 instead of 1, ``flaky`` passes 4 of 5 runs."""


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``toolexpect ARGV``: the exit code, standard output and standard error."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write_log(folder: Path, name: str, lines: Sequence[str]) -> Path:
    """A canonical JSON Lines log in ``folder``."""
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def score_to(
    capsys: pytest.CaptureFixture[str], folder: Path, lines: Sequence[str], name: str, spec: str = SPEC
) -> Path:
    """Score ``lines`` against ``spec`` (as ``weather.expect`` in ``folder``) into ``name``.json."""
    (folder / "weather.expect").write_text(spec, encoding="utf-8")
    log = write_log(folder, f"{name}.jsonl", lines)
    report = folder / f"{name}.json"
    spec_file = str(folder / "weather.expect")
    code, _, err = run_cli(capsys, "score", spec_file, "--log", str(log), "--format=json", f"-o{report}")
    assert code in (0, 1), err
    return report
