"""The pytest plugin: spec cases as test items, and a ``tool_calls`` fixture.

``pytest --toolexpect-specs specs/ --toolexpect-log runs.jsonl`` adds one item per case,
named ``<spec file>::<case>``; a failing case shows the explanation of its failing runs.
Without these options the plugin adds no items and reads nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.recording import Recording, record

__all__ = ["CaseItem", "SpecFileNode", "ToolexpectCaseFailure", "tool_calls"]

_SPECS = "toolexpect_specs"
_LOGS = "toolexpect_log"
_PAIR_BY = "toolexpect_pair_by"
_CASE_FROM = "toolexpect_case_from"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--toolexpect-specs`` and ``--toolexpect-log``."""
    group = parser.getgroup("toolexpect", "score recorded tool calls against .expect specs")
    group.addoption(
        "--toolexpect-specs",
        dest=_SPECS,
        nargs="+",
        action="extend",
        default=[],
        metavar="PATH",
        help="spec files or folders: each case becomes a test item",
    )
    group.addoption(
        "--toolexpect-log",
        dest=_LOGS,
        nargs="+",
        action="extend",
        default=[],
        metavar="LOG",
        help="recorded logs to score the spec cases against (files, folders, globs, -)",
    )
    group.addoption(
        "--toolexpect-pair-by",
        dest=_PAIR_BY,
        choices=("id", "question", "file"),
        default=None,
        help="pair recorded runs with cases by id (the default), question or log file name",
    )
    group.addoption(
        "--toolexpect-case-from",
        dest=_CASE_FROM,
        default=None,
        metavar="PATH",
        help="pair each record with the case named by this field (metadata.case, /metadata/case)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Check that specs and logs come together."""
    specs, logs = config.getoption(_SPECS), config.getoption(_LOGS)
    if bool(specs) != bool(logs):
        raise pytest.UsageError("--toolexpect-specs and --toolexpect-log must be given together")


@pytest.fixture
def tool_calls() -> Iterator[Recording]:
    """A fresh recording per test: ``@toolexpect.tool`` functions record into it."""
    with record() as recording:
        yield recording


class ToolexpectCaseFailure(Exception):
    """A spec case that failed or could not be scored; the message is the explanation."""


_KEPT_SAMPLES = 10_000
"""At most this many recorded runs are kept to show their calls under a failing case."""


class _Scores:
    """The score report of all spec files, computed once, on first use."""

    def __init__(self, config: pytest.Config, specs: list[Any]) -> None:
        self.config = config
        self.specs = specs
        self._outcomes: dict[tuple[str | None, str], Any] | None = None
        self._seen: list[tuple[str | None, tuple[ToolCall, ...]]] = []
        self.error: str | None = None
        self.summary: list[str] = []

    def _keep(self, samples: Iterable[RecordedSample]) -> Iterator[RecordedSample]:
        for sample in samples:
            if len(self._seen) < _KEPT_SAMPLES:
                self._seen.append((sample.id, sample.calls))
            yield sample

    def outcome(self, path: str | None, case: str) -> Any:
        """The ``CaseOutcome`` of one case."""
        if self._outcomes is None:
            self._outcomes = {}
            self._score()
        if self.error is not None:
            raise ToolexpectCaseFailure(self.error)
        return self._outcomes[(path, case)]

    def _score(self) -> None:
        from toolexpect.logs import LogError, open_logs
        from toolexpect.pairing import PairingOptions, pair_runs
        from toolexpect.report.diagnostics import render
        from toolexpect.scoring import score

        try:
            pairing = PairingOptions(
                self.config.getoption(_PAIR_BY) or "id", self.config.getoption(_CASE_FROM)
            )
        except ValueError as error:
            self.error = f"toolexpect: {error}"
            return
        try:
            logs = open_logs(self.config.getoption(_LOGS))
            paired = pair_runs(self.specs, logs, pairing)
            report = score(self.specs, self._keep(paired))
        except LogError as error:
            self.error = "cannot read the recorded log:\n" + render([error.diagnostic], "full")
            return
        self._outcomes = {(o.file, o.case.name): o for o in report.cases}
        findings = [d for log in logs for d in log.diagnostics]
        if findings:
            self.summary.append(render(findings, "concise"))
        if paired.diagnostics:
            self.summary.append(render(paired.diagnostics, "full"))
        for unused in report.unused:
            name = "samples without an id" if unused.id is None else f'samples with id "{unused.id}"'
            self.summary.append(f"{unused.count} unused {name} ({unused.reason})")

    def runs(self, case: str) -> list[tuple[ToolCall, ...]]:
        """The calls of the kept runs of a case, in the order they were scored."""
        only = sum(len(spec.cases) for spec in self.specs) == 1
        return [calls for sid, calls in self._seen if sid == case or (only and sid is None)]


class SpecFileNode(pytest.File):
    """A spec file given with ``--toolexpect-specs``: one item per case."""

    def collect(self) -> Iterator[CaseItem]:
        """The file's cases; an invalid spec is a collection error showing its diagnostics."""
        from toolexpect.api import SpecError
        from toolexpect.specfile import load_spec_file

        loaded = load_spec_file(self.path)
        if not loaded.ok or loaded.spec is None:
            raise SpecError(loaded.diagnostics, loaded.text)
        scores: _Scores = self.config.stash[_SCORES_KEY]
        scores.specs.append(loaded.spec)
        for case in loaded.spec.cases:
            yield CaseItem.from_parent(self, name=case.name, case=case, spec_path=loaded.spec.path)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        """The rendered diagnostics of an invalid spec."""
        return str(excinfo.value)


class CaseItem(pytest.Item):
    """One case of a spec file, scored against the recorded logs."""

    def __init__(self, *, case: Any, spec_path: str | None, **kwargs: Any) -> None:
        """A case and the file it comes from."""
        super().__init__(**kwargs)
        self.case = case
        self.spec_path = spec_path

    def runtest(self) -> None:
        """Fail unless the case passed over its recorded runs."""
        from toolexpect.report.explain import explain_case

        scores: _Scores = self.config.stash[_SCORES_KEY]
        outcome = scores.outcome(self.spec_path, self.case.name)
        if outcome.result.status != "pass":
            shown = self.path
            if shown.is_relative_to(self.config.rootpath):
                shown = shown.relative_to(self.config.rootpath)
            runs = scores.runs(self.case.name)
            text = explain_case(self.case, outcome.result, path=str(shown), runs=runs)
            raise ToolexpectCaseFailure(text)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:  # type: ignore[override]
        """The explanation, without toolexpect's own frames."""
        if isinstance(excinfo.value, ToolexpectCaseFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the case is written."""
        line = self.case.span.line - 1 if self.case.span else None
        return self.path, line, f"case {self.case.name}"


_SCORES_KEY = pytest.StashKey[_Scores]()


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """List log findings and samples that no case claimed."""
    scores = config.stash.get(_SCORES_KEY, None)
    if scores is None or not scores.summary:
        return
    terminalreporter.section("toolexpect")
    for line in scores.summary:
        terminalreporter.write_line(line)


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Append one item per spec case when ``--toolexpect-specs`` is given."""
    paths: Sequence[str] = config.getoption(_SPECS)
    if not paths:
        return
    from toolexpect.specfile import find_spec_files

    config.stash[_SCORES_KEY] = _Scores(config, [])
    for found in find_spec_files(paths):
        node = SpecFileNode.from_parent(session, path=Path(found).resolve())
        items.extend(session.genitems(node))
