"""The command line: ``toolexpect lint | format | score | calls | compile | schema``.

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
from toolexpect.report.style import Style, wants_colour
from toolexpect.specfile import SpecFile, find_spec_files, load_spec_file

if TYPE_CHECKING:
    from toolexpect.calls import RecordedSample
    from toolexpect.logs import LogReader
    from toolexpect.model import Spec
    from toolexpect.scoring import ScoreReport

__all__ = ["main"]

T = TypeVar("T")

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2

_UNREADABLE = {"P105", "P106", "P107"}

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

    compile_ = commands.add_parser("compile", help="print the canonical JSON document of a spec")
    compile_.add_argument("path", metavar="PATH", help="a spec file")
    compile_.add_argument("--no-spans", action="store_true", help="leave out source spans")

    commands.add_parser("schema", help="print the JSON Schema of the canonical document")

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
        type=int,
        default=0,
        metavar="N",
        help="processes for one large canonical log: 1 or 2 (default: 2 when a second CPU is free)",
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


def _score_formats() -> tuple[str, ...]:
    return ("text", "json", "junit", "github", "markdown")


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


def _cmd_format(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    from toolexpect.language.format import format_document

    files, empty = _load_all(args.paths)
    status = EXIT_OK
    changed: list[str] = []
    for path, loaded in files.items():
        if loaded.document is None or not loaded.ok:
            _print_diagnostics(loaded.diagnostics, files, "full", err)
            status = EXIT_USAGE
            continue
        formatted = format_document(loaded.document, loaded.comments)
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
    from toolexpect.schema import schema_text

    out.write(schema_text())
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
    catalogue, readable = _load_tools(args.tools, args.tools_format, err)
    if not readable:
        return EXIT_USAGE
    try:
        readers = [open_log(path, args.log_format) for path in args.log]
        samples: Iterator[RecordedSample] = chain.from_iterable(readers)
        findings: list[object] = []
        cut = None
        if catalogue is None and len(readers) == 1:
            from toolexpect.logs.split import score_split, splittable

            jobs = args.jobs if args.jobs > 0 else _default_jobs()
            cut = splittable(readers[0].path, readers[0].format, jobs)
        if cut is not None:
            only = readers[0]
            at = cut
            report = _without_gc(lambda: score_split(specs, only.path, at, only.diagnostics))
        elif catalogue is not None:
            samples = _checked(samples, catalogue, findings)
            report = _without_gc(lambda: score(specs, samples))
        else:
            report = _without_gc(lambda: _score_logs(specs, readers))
    except LogError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return EXIT_USAGE
    if findings:
        from dataclasses import replace

        report = replace(report, call_findings=tuple(findings))  # type: ignore[arg-type]
    log_diagnostics = [d for r in readers for d in r.diagnostics]
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
    try:
        _without_gc(lambda: stream.writelines(score_report.render_chunks(final, args.format, style=style)))
    finally:
        if handle is not None:
            handle.close()
    return EXIT_OK if report.ok else EXIT_FINDINGS


def _default_jobs() -> int:
    """Processes for one large log when ``--jobs`` is not given: 2 when this process may use
    2 CPUs and one of them is free now, else 1.

    "Free" counts the tasks running or waiting for a CPU at this moment (``/proc/loadavg``,
    this process included); where that is not there, the 1-minute load average stands in
    (at most CPUs - 0.5). On a machine already busy, the second process only competes for
    a CPU: the split then took 1.4-1.7x the time of one process on the benchmark. A moment's
    count, not the 1-minute average, so that work that just ended (a build step, a
    benchmark's own decoding) does not keep the split off.
    """
    import os

    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    if cpus < 2:
        return 1
    running = _running_tasks()
    if running is not None:
        return 2 if running - 1 <= cpus - 2 else 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        return 2
    return 2 if load <= cpus - 0.5 else 1


def _running_tasks() -> int | None:
    """Tasks running or ready to run now (this one included), or ``None`` when unknown."""
    try:
        with open("/proc/loadavg", encoding="ascii") as handle:
            fields = handle.read().split()
        return int(fields[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return None


def _score_logs(specs: Sequence[Spec], readers: Sequence[LogReader]) -> ScoreReport:
    """Score the samples of ``readers`` in order; canonical samples are offered to the scorer
    as decoded, so that passing runs are scored without building call objects."""
    from toolexpect.scoring import Scorer

    scorer = Scorer(specs)
    take = scorer.taker()
    for reader in readers:
        scorer.feed(reader.read(take))
    return scorer.report()


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
