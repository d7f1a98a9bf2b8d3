"""The command line: ``toolexpect lint | format | score | diff | calls | compile | schema``.

``main(argv)`` returns the exit code; nothing below this module prints or exits.
Exit codes: 0 clean, 1 findings or failing cases, 2 usage error, unreadable input or a bug.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, TypeVar

from toolexpect import __version__
from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.document import without_spans
from toolexpect.lines import split_lines_keepends
from toolexpect.report import diagnostics as diagnostic_report
from toolexpect.report.diff import FORMATS as DIFF_FORMATS
from toolexpect.report.style import Style, wants_colour
from toolexpect.specfile import SpecFile, find_spec_files, load_spec_file

if TYPE_CHECKING:
    from toolexpect.calls import RecordedSample
    from toolexpect.report.compare import Comparison
    from toolexpect.scoring import ScoreReport

__all__ = ["main"]

T = TypeVar("T")

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2

_UNREADABLE = {"P105", "P106", "P107"}

FAIL_ON = ("regression", "any-failure")
"""What makes ``score --baseline`` and ``diff`` exit 1: a regression, or any failing case."""

# Kept here rather than imported, so that building the parser stays cheap; a test checks
# them against toolexpect.logs.LOG_FORMATS and toolexpect.catalogue.FORMATS.
LOG_FORMAT_NAMES = (
    "canonical, openai-chat, openai-responses, openai-batch, anthropic, gemini, langchain, "
    "langsmith, otel, mcp, adk, bfcl"
)
TOOLS_FORMAT_NAMES = "openai, responses, anthropic, mcp, python"


class _Parser(argparse.ArgumentParser):
    """argparse with exit code 2 and a hint, for every usage error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\nhint: see '{self.prog} --help'\n")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="toolexpect",
        description="Say which tool calls an LLM application must make, and score recorded runs.",
    )
    parser.add_argument("--version", action="version", version=f"toolexpect {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    lint = commands.add_parser("lint", help="check spec files and report problems")
    lint.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="spec files or folders (default: .)"
    )
    lint.add_argument("--format", choices=diagnostic_report.FORMATS, default="full", help="output format")
    lint.add_argument(
        "--tools",
        metavar="CATALOG",
        help="check specs against a tool catalogue (default: tools in [tool.toolexpect] of pyproject.toml)",
    )
    lint.add_argument(
        "--tools-format",
        default="auto",
        metavar="NAME",
        help=f"catalogue format: auto (the default) or one of {TOOLS_FORMAT_NAMES}",
    )

    fmt = commands.add_parser("format", help="rewrite spec files in the canonical layout")
    fmt.add_argument(
        "paths", nargs="*", default=["."], metavar="PATH", help="spec files or folders (default: .)"
    )
    fmt.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    fmt.add_argument("--diff", action="store_true", help="print a diff instead of writing")
    fmt.add_argument(
        "--line-length",
        type=int,
        metavar="N",
        help="wrap statements longer than N characters (default: line-length in [tool.toolexpect], or 100)",
    )

    compile_ = commands.add_parser("compile", help="print the canonical JSON document of a spec")
    compile_.add_argument("path", metavar="PATH", help="a spec file")
    compile_.add_argument("--no-spans", action="store_true", help="leave out source spans")

    schema = commands.add_parser("schema", help="print the JSON Schema of the canonical document")
    schema.add_argument(
        "--report", action="store_true", help="print the JSON Schema of the score report instead"
    )

    score = commands.add_parser("score", help="score recorded runs against spec files")
    score.add_argument(
        "specs", nargs="*", default=["."], metavar="SPEC", help="spec files or folders (default: .)"
    )
    score.add_argument(
        "--log", action="append", required=True, metavar="LOG", help="a recorded log (repeatable)"
    )
    score.add_argument(
        "--log-format",
        default="auto",
        metavar="NAME",
        help=f"log format: auto (the default) or one of {LOG_FORMAT_NAMES}",
    )
    score.add_argument("--format", choices=_score_formats(), default="text", help="report format")
    score.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE")
    score.add_argument("--html", metavar="FILE", help="also write the HTML report to FILE")
    score.add_argument(
        "--baseline",
        metavar="REPORT",
        help="compare with an earlier JSON report (score --format json) and show what changed",
    )
    score.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        help="exit 1 on a regression against --baseline (the default with it) or on any failing case",
    )
    score.add_argument(
        "--tools", metavar="CATALOG", help="also flag recorded calls that break their tool's schema"
    )
    score.add_argument(
        "--tools-format",
        default="auto",
        metavar="NAME",
        help=f"catalogue format: auto (the default) or one of {TOOLS_FORMAT_NAMES}",
    )
    score.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="processes that score one canonical JSON Lines log (default: 1)",
    )

    diff = commands.add_parser("diff", help="compare two JSON score reports: which cases changed")
    diff.add_argument("old", metavar="OLD", help="the earlier report (score --format json)")
    diff.add_argument("new", metavar="NEW", help="the later report")
    diff.add_argument("--format", choices=DIFF_FORMATS, default="text", help="output format")
    diff.add_argument("-o", "--output", metavar="FILE", help="write the comparison to FILE")
    diff.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="regression",
        help="exit 1 on a regression (the default) or on any case of NEW that does not pass",
    )

    calls = commands.add_parser("calls", help="print the tool calls found in recorded logs")
    calls.add_argument("logs", nargs="+", metavar="LOG", help="recorded logs")
    calls.add_argument(
        "--log-format",
        default="auto",
        metavar="NAME",
        help=f"log format: auto (the default) or one of {LOG_FORMAT_NAMES}",
    )
    calls.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    return parser


def _jobs(text: str) -> int:
    """A number of processes: a whole number of at least 1."""
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number of jobs: {text!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"the number of jobs must be at least 1, not {jobs}")
    return jobs


def _score_formats() -> tuple[str, ...]:
    return ("text", "json", "junit", "github", "markdown", "html")


def _sources(files: dict[str, SpecFile]) -> object:
    def source(path: str | None) -> str | None:
        found = files.get(path or "")
        return found.text if found else None

    return source


def _print_diagnostics(
    diagnostics: Sequence[Diagnostic],
    files: dict[str, SpecFile],
    fmt: str,
    stream: IO[str],
) -> None:
    if not diagnostics and fmt != "json":
        return
    text = diagnostic_report.render(
        diagnostics,
        fmt,
        sources=_sources(files),  # type: ignore[arg-type]
        style=Style(wants_colour(stream)),
    )
    print(text, file=stream)


def _load_all(paths: Sequence[str]) -> tuple[dict[str, SpecFile], list[str]]:
    """Every spec file under ``paths``, loaded, and the folders given that hold none."""
    files: dict[str, SpecFile] = {}
    missing: list[str] = []
    for given in paths:
        found = list(find_spec_files([given]))
        if not found and Path(given).is_dir():
            missing.append(given)
        for path in found:
            files.setdefault(str(path), load_spec_file(path))
    return files, missing


def _write_atomic(path: str, text: str) -> str | None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, renamed over it.

    A failure (a full disk, no permission) leaves the file as it was; the reason is returned.
    An existing file keeps its permission bits.
    """
    import os
    import tempfile

    target = Path(path)
    try:
        mode = target.stat().st_mode & 0o7777 if target.exists() else None
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as error:
        return error.strerror or str(error)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return error.strerror or str(error)
    return None


def _configured_tools(start: Path) -> str | None:
    """The ``tools`` setting of ``[tool.toolexpect]`` in the nearest pyproject.toml."""
    import tomllib

    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError):
                return None
            value = data.get("tool", {}).get("toolexpect", {}).get("tools")
            if isinstance(value, str) and value:
                return str(folder / value) if not Path(value).is_absolute() else value
            return None
    return None


def _load_tools(path: str | None, fmt: str, err: IO[str]) -> tuple[object | None, bool]:
    """The catalogue at ``path`` (None when not asked for); False when it cannot be read."""
    if not path:
        return None, True
    from toolexpect.catalogue import CatalogueError, load_catalogue

    try:
        return load_catalogue(path, fmt), True
    except CatalogueError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return None, False


def _cmd_lint(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    files, empty = _load_all(args.paths)
    catalogue, readable = _load_tools(args.tools or _configured_tools(Path.cwd()), args.tools_format, err)
    if not readable:
        return EXIT_USAGE
    if catalogue is not None:
        from toolexpect.toolcheck import check_spec

        for loaded in files.values():
            if loaded.spec is not None:
                loaded.diagnostics.extend(check_spec(loaded.spec, catalogue))  # type: ignore[arg-type]
                loaded.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    diagnostics = [d for f in files.values() for d in f.diagnostics]
    _print_diagnostics(diagnostics, files, args.format, out)
    for folder in empty:
        print(f"toolexpect: no spec files (*.expect, *.expect.json, *.expect.yaml) in {folder}", file=err)
    if any(d.code in _UNREADABLE for d in diagnostics):
        return EXIT_USAGE
    if diagnostics:
        if args.format == "full":
            errors = sum(d.severity is Severity.ERROR for d in diagnostics)
            warnings = len(diagnostics) - errors
            print(
                f"\nFound {errors} error{'s' * (errors != 1)} and {warnings} "
                f"warning{'s' * (warnings != 1)} in {len(files)} file{'s' * (len(files) != 1)}.",
                file=out,
            )
        return EXIT_FINDINGS
    if empty:
        return EXIT_USAGE
    return EXIT_OK


def _configured_line_length(start: Path) -> int | None:
    """The ``line-length`` setting of ``[tool.toolexpect]`` in the nearest pyproject.toml."""
    import tomllib

    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError):
                return None
            value = data.get("tool", {}).get("toolexpect", {}).get("line-length")
            return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
    return None


def _cmd_format(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from toolexpect.language.format import LINE_LENGTH, format_document, line_ending

    width = args.line_length or _configured_line_length(Path.cwd()) or LINE_LENGTH
    files, empty = _load_all(args.paths)
    status = EXIT_OK
    changed: list[str] = []
    for path, loaded in files.items():
        if loaded.document is None or not loaded.formattable:
            _print_diagnostics(loaded.diagnostics, files, "full", err)
            status = EXIT_USAGE
            continue
        text = loaded.text or ""
        as_text = loaded.kind == "text"  # JSON or YAML is printed as text: LF, no BOM, no blank lines
        formatted = format_document(
            loaded.document,
            loaded.comments,
            newline=line_ending(text) if as_text else "\n",
            bom=as_text and text.startswith("\ufeff"),
            blank_lines=as_text,
            line_length=width,
        )
        if loaded.kind != "text":
            if args.check or args.diff:
                continue
            out.write(formatted)
            continue
        if formatted == loaded.text:
            continue
        changed.append(path)
        if args.diff:
            out.writelines(
                difflib.unified_diff(
                    split_lines_keepends(loaded.text or ""),
                    split_lines_keepends(formatted),
                    fromfile=path,
                    tofile=path,
                )
            )
        if not args.check and not args.diff:
            problem = _write_atomic(path, formatted)
            if problem is not None:
                changed.pop()
                print(f"toolexpect: cannot write {path}: {problem}; the file is unchanged", file=err)
                status = EXIT_USAGE
    for folder in empty:
        print(f"toolexpect: no spec files in {folder}", file=err)
        status = EXIT_USAGE
    if args.check or args.diff:
        for path in changed:
            print(f"would reformat {path}", file=err)
        if changed and status == EXIT_OK:
            return EXIT_FINDINGS
    elif changed:
        print(f"reformatted {len(changed)} file{'s' * (len(changed) != 1)}", file=err)
    return status


def _cmd_compile(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    loaded = load_spec_file(args.path)
    files = {str(args.path): loaded}
    if loaded.document is None or not loaded.ok:
        _print_diagnostics(loaded.diagnostics, files, "full", err)
        return EXIT_USAGE
    document = without_spans(loaded.document) if args.no_spans else loaded.document
    # Written as it is encoded: the text of a large document is never held whole.
    out.writelines(json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(document))
    out.write("\n")
    return EXIT_OK


def _cmd_schema(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from toolexpect.schema import report_schema_text, schema_text

    out.write(report_schema_text() if args.report else schema_text())
    return EXIT_OK


def _report_log_diagnostics(diagnostics: Sequence[Diagnostic], err: IO[str]) -> None:
    if diagnostics:
        print(diagnostic_report.render(diagnostics, "concise"), file=err)


def _without_gc(work: Callable[[], T]) -> T:
    """Run ``work`` with the cyclic garbage collector paused.

    Scoring builds many small objects without cycles (calls, results); reference counting frees
    them, and pausing the collector saves it from rescanning them all again and again. At the
    end every object, those made by ``work`` included, goes to the oldest generation
    (``freeze`` then ``unfreeze``): otherwise the first collection after ``work`` would scan
    all of them as young objects (about 0.4 s after scoring 100,000 runs).
    """
    import gc

    enabled = gc.isenabled()
    gc.freeze()
    gc.disable()
    try:
        return work()
    finally:
        gc.freeze()
        gc.unfreeze()
        if enabled:
            gc.enable()


def _cmd_score(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from itertools import chain

    from toolexpect.logs import LogError, open_log
    from toolexpect.report import score as score_report
    from toolexpect.scoring import score

    files, empty = _load_all(args.specs)
    bad = [d for f in files.values() for d in f.diagnostics if d.severity is Severity.ERROR]
    if bad or empty:
        _print_diagnostics(bad, files, "full", err)
        for folder in empty:
            print(f"toolexpect: no spec files in {folder}", file=err)
        print("toolexpect: fix the spec errors above before scoring", file=err)
        return EXIT_USAGE
    specs = [f.spec for f in files.values() if f.spec is not None]
    baseline, readable = _load_baseline(args, err)
    if not readable:
        return EXIT_USAGE
    catalogue, readable = _load_tools(args.tools, args.tools_format, err)
    if not readable:
        return EXIT_USAGE
    try:
        readers = [open_log(path, args.log_format) for path in args.log]
        samples: Iterator[RecordedSample] = chain.from_iterable(readers)
        findings: list[object] = []
        if catalogue is None and len(readers) == 1 and args.jobs > 1:
            from toolexpect.jobs import score_log

            report, log_diagnostics = _without_gc(lambda: score_log(specs, readers[0], args.jobs))
        else:
            if catalogue is not None:
                samples = _checked(samples, catalogue, findings)
            report = _without_gc(lambda: score(specs, samples))
            log_diagnostics = [d for r in readers for d in r.diagnostics]
    except LogError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return EXIT_USAGE
    if findings:
        from dataclasses import replace

        report = replace(report, call_findings=tuple(findings))  # type: ignore[arg-type]
    _report_log_diagnostics(log_diagnostics, err)
    if log_diagnostics:
        from dataclasses import replace as replace_report

        report = replace_report(report, log_diagnostics=tuple(log_diagnostics))
    stream = out
    handle = None
    if args.output:
        try:
            handle = open(args.output, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as error:
            print(f"toolexpect: cannot write {args.output}: {error.strerror}", file=err)
            return EXIT_USAGE
        stream = handle
    style = Style(wants_colour(stream))
    final = report
    extras = _ScoreExtras(args, files, baseline, report)
    try:
        if extras.replaces_report:
            stream.write(extras.instead_of_report(style))
        else:
            chunks = score_report.render_chunks
            _without_gc(lambda: stream.writelines(chunks(final, args.format, style=style)))
            stream.write(extras.after_report(style, err))
    finally:
        if handle is not None:
            handle.close()
    if args.html and not extras.write_html(err):
        return EXIT_USAGE
    return extras.exit_code()


def _write_output(path: str, text: str, err: IO[str]) -> bool:
    """Write a report to ``path`` as ``-o`` does; False (and a message) when it cannot be."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        print(f"toolexpect: cannot write {path}: {error.strerror or error}", file=err)
        return False
    return True


def _load_baseline(args: argparse.Namespace, err: IO[str]) -> tuple[dict[str, object] | None, bool]:
    """The report given with ``--baseline`` (None without one); False when it is refused."""
    if args.fail_on == "regression" and not args.baseline:
        print("toolexpect: --fail-on regression needs --baseline REPORT to compare with", file=err)
        return None, False
    if not args.baseline:
        return None, True
    from toolexpect.report.load import ReportError, load_report

    try:
        return load_report(args.baseline), True
    except ReportError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return None, False


class _ScoreExtras:
    """What ``--baseline``, ``--format html`` and ``--html`` add to a score report.

    With a baseline, ``text`` and ``markdown`` reports are followed by the comparison,
    ``github`` annotates only what changed, and the comparison of a ``json`` or ``junit``
    report goes to standard error, so that standard output stays that document.
    """

    def __init__(
        self,
        args: argparse.Namespace,
        files: dict[str, SpecFile],
        baseline: dict[str, object] | None,
        report: ScoreReport,
    ) -> None:
        self.args = args
        self.files = files
        self.report = report
        self.comparison: Comparison | None = None
        self.document: dict[str, object] | None = None
        if baseline is not None or args.format == "html" or args.html:
            from toolexpect.report.score import to_json

            self.document = to_json(report)
        if baseline is not None and self.document is not None:
            from toolexpect.report.compare import compare

            self.comparison = compare(baseline, self.document)

    @property
    def replaces_report(self) -> bool:
        """True when the output is not the score report's own rendering."""
        return self.args.format == "html" or (self.comparison is not None and self.args.format == "github")

    def _diff(self, fmt: str, style: Style) -> str:
        from toolexpect.report import diff as diff_report

        assert self.comparison is not None
        new_name = self.args.output or "this run"
        return diff_report.render(
            self.comparison, fmt, style=style, old_name=self.args.baseline, new_name=new_name
        )

    def html(self) -> str:
        """The HTML report, with the comparison when there is a baseline."""
        from toolexpect.report.html import render_html

        assert self.document is not None
        sources = {path: loaded.text for path, loaded in self.files.items() if loaded.text is not None}
        return render_html(self.document, sources=sources, comparison=self.comparison)

    def instead_of_report(self, style: Style) -> str:
        """The output when it replaces the report: the HTML page or the comparison's annotations."""
        if self.args.format == "html":
            return self.html()
        return self._diff("github", style)

    def after_report(self, style: Style, err: IO[str]) -> str:
        """What follows the report on its stream (the comparison goes to ``err`` for data formats)."""
        if self.comparison is None:
            return ""
        if self.args.format in ("text", "markdown"):
            return "\n" + self._diff(self.args.format, style)
        err.write(self._diff("text", Style(wants_colour(err))))
        return ""

    def write_html(self, err: IO[str]) -> bool:
        """Write the HTML report to ``--html FILE``; False (and a message) when it cannot be."""
        return _write_output(self.args.html, self.html(), err)

    def exit_code(self) -> int:
        """1 on a regression (``--fail-on regression``, the default with a baseline), else on
        any failing case or unreadable log record."""
        fail_on = self.args.fail_on or ("regression" if self.comparison is not None else "any-failure")
        if fail_on == "regression" and self.comparison is not None:
            return EXIT_FINDINGS if self.comparison.regressed else EXIT_OK
        return EXIT_OK if self.report.ok else EXIT_FINDINGS


def _checked(
    samples: Iterator[RecordedSample], catalogue: object, found: list[object]
) -> Iterator[RecordedSample]:
    """Pass samples through, collecting the calls that break their tool's schema."""
    from toolexpect.scoring import SampleFinding
    from toolexpect.toolcheck import check_calls

    for sample in samples:
        for finding in check_calls(sample.calls, catalogue):  # type: ignore[arg-type]
            found.append(SampleFinding(sample.id, sample.path, sample.line, finding))
        yield sample


def _cmd_diff(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from toolexpect.report import diff as diff_report
    from toolexpect.report.compare import compare
    from toolexpect.report.load import ReportError, load_report

    try:
        old, new = load_report(args.old), load_report(args.new)
    except ReportError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return EXIT_USAGE
    comparison = compare(old, new)
    colour = wants_colour(out) and not args.output
    text = diff_report.render(
        comparison, args.format, style=Style(colour), old_name=args.old, new_name=args.new
    )
    if args.output:
        if not _write_output(args.output, text, err):
            return EXIT_USAGE
    else:
        out.write(text)
    if args.fail_on == "any-failure":
        return EXIT_FINDINGS if comparison.new_failures else EXIT_OK
    return EXIT_FINDINGS if comparison.regressed else EXIT_OK


def _cmd_calls(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from toolexpect.logs import LogError, calls_to_json, open_log
    from toolexpect.report.calls import render_calls_table

    samples: list[RecordedSample] = []
    diagnostics: list[Diagnostic] = []
    try:
        for path in args.logs:
            reader = open_log(path, args.log_format)
            samples.extend(reader)
            diagnostics.extend(reader.diagnostics)
    except LogError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return EXIT_USAGE
    _report_log_diagnostics(diagnostics, err)
    if args.format == "json":
        print(json.dumps(calls_to_json(samples), indent=2, ensure_ascii=False), file=out)
    else:
        out.write(render_calls_table(samples))
    return EXIT_OK


_COMMANDS = {
    "score": _cmd_score,
    "diff": _cmd_diff,
    "calls": _cmd_calls,
    "lint": _cmd_lint,
    "format": _cmd_format,
    "compile": _cmd_compile,
    "schema": _cmd_schema,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    out, err = sys.stdout, sys.stderr
    try:
        code = _COMMANDS[args.command](args, out, err)
        out.flush()
    except BrokenPipeError:
        _silence(out)
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except OSError as error:  # standard output on a full disk, a closed descriptor, ...
        if error.filename is not None:
            raise
        _silence(out)
        print(f"toolexpect: cannot write the output: {error.strerror or error}", file=err)
        return EXIT_USAGE
    return code


def _silence(stream: IO[str]) -> None:
    """Point ``stream``'s descriptor at the null device, so that what it still holds is not
    written again (and fails again) when the interpreter exits."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
