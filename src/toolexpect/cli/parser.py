"""The argument parser of every command (argparse), with exit code 2 for usage errors."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from toolexpect import __version__
from toolexpect.cli.common import EXIT_USAGE, FAIL_ON, LOG_FORMAT_NAMES, TOOLS_FORMAT_NAMES
from toolexpect.report import diagnostics as diagnostic_report
from toolexpect.report.diff import FORMATS as DIFF_FORMATS

__all__ = ["build_parser"]


class _Parser(argparse.ArgumentParser):
    """argparse with exit code 2 and a hint, for every usage error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\nhint: see '{self.prog} --help'\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``toolexpect`` and its commands."""
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
        type=_at_least_one("line length"),
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
        type=_at_least_one("number of jobs"),
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

    commands.add_parser("server", help="run the language server for editors over stdio (toolexpect[lsp])")
    return parser


def _at_least_one(what: str) -> Callable[[str], int]:
    """An argparse type: a whole number of at least 1, the usage error naming ``what``."""

    def convert(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {what}: {text!r}") from None
        if number < 1:
            raise argparse.ArgumentTypeError(f"the {what} must be at least 1, not {number}")
        return number

    return convert


def _score_formats() -> tuple[str, ...]:
    return ("text", "json", "junit", "github", "markdown", "html")


