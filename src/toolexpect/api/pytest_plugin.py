"""The pytest plugin: spec cases as test items, and a ``tool_calls`` fixture.

``pytest --toolexpect-specs specs/ --toolexpect-log runs.jsonl`` adds one item per case,
named ``<spec file>::<case>``; a failing case shows the explanation of its failing runs.
Each flag takes one value (repeat it for more), so test paths after it stay test paths.
Without the flags, the ini options ``toolexpect_specs`` and ``toolexpect_logs`` are used,
then ``specs`` and ``logs`` of ``[tool.toolexpect]`` in ``pyproject.toml``; with neither
specs nor logs the plugin adds no items and reads nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from toolexpect.api.recording import Recording, record
from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.errors import ToolexpectError
from toolexpect.spelling import PYTEST

__all__ = ["CaseItem", "SpecFileNode", "ToolexpectCaseFailure", "tool_calls"]

_SPECS = "toolexpect_specs"
_LOGS = "toolexpect_log"
_PAIR_BY = "toolexpect_pair_by"
_CASE_FROM = "toolexpect_case_from"
_INI_SPECS = "toolexpect_specs"
_INI_LOGS = "toolexpect_logs"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--toolexpect-specs`` and ``--toolexpect-log`` (one value each, repeatable) and
    the ini options ``toolexpect_specs`` and ``toolexpect_logs``."""
    group = parser.getgroup("toolexpect", "score recorded tool calls against .expect specs")
    group.addoption(
        "--toolexpect-specs",
        dest=_SPECS,
        action="append",
        default=[],
        metavar="PATH",
        help="a spec file or folder: each case becomes a test item (repeat the flag for more)",
    )
    group.addoption(
        "--toolexpect-log",
        dest=_LOGS,
        action="append",
        default=[],
        metavar="LOG",
        help="a recorded log to score the spec cases against: a file, a folder, a glob or - "
        "(repeat the flag for more)",
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
    parser.addini(_INI_SPECS, "spec files or folders whose cases become test items", type="paths", default=[])
    parser.addini(_INI_LOGS, "recorded logs to score the spec cases against", type="paths", default=[])


class _Sources:
    """The specs and logs to use, and where they were given."""

    def __init__(self, config: pytest.Config) -> None:
        specs = [str(p) for p in config.getoption(_SPECS)] or [str(p) for p in config.getini(_INI_SPECS)]
        logs = [str(p) for p in config.getoption(_LOGS)] or [str(p) for p in config.getini(_INI_LOGS)]
        asked = bool(specs or logs)
        from toolexpect.pairing import PairingOptions
        from toolexpect.settings import SettingsError, find_settings

        try:
            settings = find_settings(config.invocation_params.dir)
            specs = specs or _absolute(settings, "specs")
            logs = logs or _absolute(settings, "logs")
            self.log_format = settings.text("log-format") or "auto"
            pair_by = config.getoption(_PAIR_BY) or settings.choice("pair-by", ("id", "question", "file"))
            case_from = config.getoption(_CASE_FROM)
            if case_from is None:
                case_from = settings.text("case-from")
            self.pairing = PairingOptions.of({"pair-by": pair_by or "id", "case-from": case_from})
        except (SettingsError, ValueError) as error:
            raise pytest.UsageError(str(error)) from None
        if asked and bool(specs) != bool(logs):
            raise pytest.UsageError(
                "--toolexpect-specs and --toolexpect-log must be given together "
                "(or toolexpect_specs and toolexpect_logs in the ini file, or specs and logs "
                "in [tool.toolexpect] of pyproject.toml)"
            )
        self.specs = specs if logs else []
        self.logs = logs if specs else []


def _absolute(settings: Any, key: str) -> list[str]:
    """A path setting as absolute paths (pytest may run from another folder than pyproject.toml's)."""
    return [str(Path(p).resolve()) for p in settings.paths(key) or ()]


_SOURCES_KEY = pytest.StashKey["_Sources"]()


def pytest_configure(config: pytest.Config) -> None:
    """Check the plugin's ini options, find the specs and logs, and check that they come together."""
    _check_ini_options(config)
    config.stash[_SOURCES_KEY] = _Sources(config)


_INI_OPTIONS = (_INI_SPECS, _INI_LOGS)


def _ini_keys(path: Path) -> list[str]:
    """The option names of pytest's section in the ini file at ``path`` (``[tool.pytest]`` and
    its ``ini_options`` in a ``pyproject.toml``, ``[pytest]`` or ``[tool:pytest]`` otherwise)."""
    import configparser
    import tomllib

    if path.suffix == ".toml":
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get("pytest", {})
        options = table.get("ini_options", {}) if isinstance(table, dict) else {}
        return [*table, *options] if isinstance(options, dict) else list(table)
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(path, encoding="utf-8")
    section = next((name for name in ("pytest", "tool:pytest") if parser.has_section(name)), None)
    return list(parser[section]) if section is not None else []


def _check_ini_options(config: pytest.Config) -> None:
    """A ``toolexpect*`` ini option that is not one of the plugin's (``toolexpect_spec``) is a
    usage error naming it and the closest option, rather than a setting ignored in silence."""
    import configparser
    import difflib

    path = config.inipath
    if path is None:
        return
    try:
        keys = _ini_keys(path)
    except (OSError, ValueError, configparser.Error):  # pytest reports a file it cannot read itself
        return
    problems = []
    for key in keys:
        if not key.lower().startswith("toolexpect") or key in _INI_OPTIONS:
            continue
        close = difflib.get_close_matches(key.lower().replace("-", "_"), _INI_OPTIONS, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else f"its options are {', '.join(_INI_OPTIONS)}"
        shown = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in repr(key))
        problems.append(f"{path}: {shown} is not an ini option of the toolexpect plugin; {hint}")
    if problems:
        raise pytest.UsageError("\n".join(problems))


@pytest.fixture
def tool_calls() -> Iterator[Recording]:
    """A fresh recording per test: ``@toolexpect.tool`` functions record into it."""
    with record() as recording:
        yield recording


class ToolexpectCaseFailure(ToolexpectError):
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
        from toolexpect.pairing.advice import PAIRING_CODES
        from toolexpect.report.diagnostics import render
        from toolexpect.scale.partition import score_read
        from toolexpect.scoring.inputs import distinct_logs, repeated_case_names
        from toolexpect.scoring.partial import CompiledSpecs

        try:
            sources = self.config.stash[_SOURCES_KEY]
            paths, repeated = distinct_logs(sources.logs)
            names = [(self._shown(spec.path), [c.name for c in spec.cases]) for spec in self.specs]
            self.summary.extend(f"warning: {w}" for w in [*repeated_case_names(names), *repeated])
            logs = open_logs(paths, sources.log_format)
            compiled = CompiledSpecs.of(self.specs)
            partial = score_read(compiled, logs, at=(0,), pairing=sources.pairing, through=self._keep)
            report = compiled.finish(partial, spelling=PYTEST)
        except LogError as error:
            self.error = "cannot read the recorded log:\n" + render([error.diagnostic], "full")
            return
        self._outcomes = {(o.file, o.case.name): o for o in report.cases}
        findings = [d for d in report.log_diagnostics if d.code not in PAIRING_CODES]
        if findings:
            self.summary.append(render(findings, "concise"))
        pairing = [d for d in report.log_diagnostics if d.code in PAIRING_CODES]
        if pairing:
            self.summary.append(render(pairing, "full"))
        for unused in report.unused:
            name = "samples without an id" if unused.id is None else f'samples with id "{unused.id}"'
            count = "" if unused.count is None else f"{unused.count} "
            self.summary.append(f"{count}unused {name} ({unused.reason})")
        if report.unused_capped:
            self.summary.append(f"{report.unused_runs} unused samples in all, of more ids than listed")

    def _shown(self, path: str | None) -> str:
        """A spec file's path as pytest shows it: relative to the root folder when inside it."""
        found, root = Path(path or ""), self.config.rootpath
        return str(found.relative_to(root) if found.is_relative_to(root) else found)

    def runs(self, case: str) -> list[tuple[ToolCall, ...]]:
        """The calls of the kept runs of a case, in the order they were scored."""
        only = sum(len(spec.cases) for spec in self.specs) == 1
        return [calls for sid, calls in self._seen if sid == case or (only and sid is None)]


class SpecFileNode(pytest.File):
    """A spec file given with ``--toolexpect-specs``: one item per case."""

    def collect(self) -> Iterator[CaseItem]:
        """The file's cases; an invalid spec is a collection error showing its diagnostics."""
        from toolexpect.api import SpecError
        from toolexpect.specfiles.stages import load_spec_file

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
    """Append one item per spec case when there are specs and logs."""
    paths = config.stash[_SOURCES_KEY].specs
    if not paths:
        return
    from toolexpect.specfiles.stages import find_spec_files

    config.stash[_SCORES_KEY] = _Scores(config, [])
    for found in find_spec_files(paths):
        node = SpecFileNode.from_parent(session, path=Path(found).resolve())
        items.extend(session.genitems(node))
