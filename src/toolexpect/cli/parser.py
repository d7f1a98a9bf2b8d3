"""The argument parser of every command (argparse), with exit code 2 for usage errors."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from toolexpect._version import __version__
from toolexpect.cli.common import (
    EXIT_USAGE,
    FAIL_ON,
    LOG_FORMAT_NAMES,
    SCORE_FAIL_ON,
    TOOLS_FORMAT_NAMES,
    add_no_cache_argument,
    add_pairing_arguments,
)
from toolexpect.cli.snapshot import add_snapshot_parser
from toolexpect.report import diagnostics as diagnostic_report
from toolexpect.report.diff import FORMATS as DIFF_FORMATS

__all__ = ["SCORE_FORMATS", "build_parser"]

SCORE_FORMATS = ("text", "json", "junit", "github", "markdown", "html")
"""The report formats of ``score`` (``--format``, ``--output FORMAT=FILE``)."""

_SPEC_PATHS = "spec files or folders (default: specs in [tool.toolexpect], or the current folder)"


class _Parser(argparse.ArgumentParser):
    """argparse with exit code 2 and a hint, for every usage error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\nhint: see '{self.prog} --help'\n")


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The commands: each parses its own arguments with ``parse_known_intermixed_args``, so
    that options may stand between its paths (``lint a.expect --format concise b.expect``),
    as ruff and git take them."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        """Set the command, then parse its arguments into ``namespace``."""
        assert isinstance(values, list)
        name, given = values[0], values[1:]
        command = self.choices.get(name) if isinstance(self.choices, dict) else None
        if command is None:  # an unknown command: argparse's own error
            super().__call__(parser, namespace, values, option_string)
            return
        setattr(namespace, self.dest, name)
        # After "--" every argument is a path; argparse's intermixed parsing drops the "--"
        # before reading the paths, so such a command line is parsed as written.
        parse = command.parse_known_args if "--" in given else command.parse_known_intermixed_args
        parsed, left = parse(given, None)
        for key, value in vars(parsed).items():
            setattr(namespace, key, value)
        if left:
            parser.error(f"unrecognized arguments: {' '.join(left)}")


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``toolexpect`` and its commands."""
    parser = _Parser(
        prog="toolexpect",
        description="Say which tool calls an LLM application must make, and score recorded runs.",
    )
    parser.add_argument("--version", action="version", version=f"toolexpect {__version__}")
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser, action=_Commands
    )
    commands.required = True

    lint = commands.add_parser("lint", help="check spec files and report problems")
    lint.add_argument("paths", nargs="*", metavar="PATH", help=_SPEC_PATHS)
    lint.add_argument(
        "--format",
        choices=diagnostic_report.FORMATS,
        help="output format (default: lint-format in [tool.toolexpect], or full)",
    )
    lint.add_argument(
        "--tools",
        metavar="CATALOG",
        help="check specs against a tool catalogue (default: tools in [tool.toolexpect] of pyproject.toml)",
    )
    lint.add_argument(
        "--tools-format",
        metavar="NAME",
        help=f"catalogue format: auto (the default) or one of {TOOLS_FORMAT_NAMES}",
    )
    lint.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print nothing when there is no finding (else: how many files were checked, on standard error)",
    )
    add_no_cache_argument(lint)

    fmt = commands.add_parser("format", help="rewrite spec files in the canonical layout")
    fmt.add_argument("paths", nargs="*", metavar="PATH", help=_SPEC_PATHS)
    fmt.add_argument("--check", action="store_true", help="exit 1 if a file would change")
    fmt.add_argument("--diff", action="store_true", help="print a diff instead of writing")
    fmt.add_argument(
        "--line-length",
        type=_at_least_one("line length"),
        metavar="N",
        help="wrap statements longer than N characters (default: line-length in [tool.toolexpect], or 100)",
    )
    add_no_cache_argument(fmt)

    compile_ = commands.add_parser("compile", help="print the canonical JSON document of a spec")
    compile_.add_argument("path", metavar="PATH", help="a spec file")
    compile_.add_argument("--no-spans", action="store_true", help="leave out source spans")
    add_no_cache_argument(compile_)

    schema = commands.add_parser("schema", help="print the JSON Schema of the canonical document")
    schema.add_argument(
        "--report", action="store_true", help="print the JSON Schema of the score report instead"
    )

    score = commands.add_parser("score", help="score recorded runs against spec files")
    score.add_argument("specs", nargs="*", metavar="SPEC", help=_SPEC_PATHS)
    score.add_argument(
        "--log",
        action="append",
        metavar="LOG",
        help="a recorded log: a file, - for standard input, a folder or a glob; repeat the flag for "
        "more (default: logs in [tool.toolexpect])",
    )
    score.add_argument(
        "--log-format",
        metavar="NAME",
        help=f"log format: auto (the default) or one of {LOG_FORMAT_NAMES}",
    )
    add_pairing_arguments(score)
    score.add_argument(
        "--format",
        choices=SCORE_FORMATS,
        help="report format on standard output or -o FILE (default: the format -o FILE's extension "
        "names, else score-format in [tool.toolexpect], else text)",
    )
    score.add_argument(
        "-o",
        "--output",
        action="append",
        type=_output,
        metavar="[FORMAT=]FILE",
        help="FILE: write the report to FILE instead of standard output, in --format or else the "
        "format its extension names (.html, .json, .xml for junit, .md); FORMAT=FILE: also write a "
        "report in FORMAT to FILE (repeatable; default: outputs in [tool.toolexpect])",
    )
    for name in ("json", "junit", "markdown", "html"):
        score.add_argument(
            f"--{name}",
            dest="outputs_" + name,
            action="append",
            metavar="FILE",
            help=f"also write the {name} report to FILE (as --output {name}=FILE)",
        )
    score.add_argument(
        "--fail-under",
        type=_fraction,
        metavar="X",
        help="also exit 3 when the mean Tool Call Accuracy of the cases is below X, from 0 to 1 "
        "(default: fail-under in [tool.toolexpect]); a failing case still exits 1 (see --fail-on)",
    )
    score.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="text report: only the cases that did not pass, and no progress display",
    )
    score.add_argument(
        "--baseline",
        metavar="REPORT",
        help="compare with an earlier JSON report (score --format json) and show what changed",
    )
    score.add_argument(
        "--fail-on",
        choices=SCORE_FAIL_ON,
        help="exit 1 on a regression against --baseline (the default with it), on any failing case "
        "(the default without), or mean-only: only --fail-under decides (default: fail-on in "
        "[tool.toolexpect])",
    )
    score.add_argument(
        "--tools", metavar="CATALOG", help="also flag recorded calls that break their tool's schema"
    )
    score.add_argument(
        "--tools-format",
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
    score.add_argument(
        "--dask",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="score on a Dask cluster: the scheduler at ADDRESS, or a local one of a worker per CPU "
        "(logs may be globs and fsspec URLs; pip install 'toolexpect[dask]')",
    )
    score.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="say what became of each log's records, and how the work was spread (with --dask)",
    )
    add_no_cache_argument(score)

    diff = commands.add_parser("diff", help="compare two JSON score reports: which cases changed")
    diff.add_argument("old", metavar="OLD", help="the earlier report (score --format json)")
    diff.add_argument("new", metavar="NEW", help="the later report")
    diff.add_argument(
        "--format",
        choices=DIFF_FORMATS,
        help="output format (default: the one -o FILE's extension names, .json or .md, else text)",
    )
    diff.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the comparison to FILE, in the format its extension names unless --format says",
    )
    diff.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="regression",
        help="exit 1 on a regression (the default) or on any case of NEW that does not pass",
    )

    calls = commands.add_parser("calls", help="print the tool calls found in recorded logs")
    calls.add_argument(
        "logs",
        nargs="*",
        metavar="LOG",
        help="recorded logs: files, - for standard input, folders or globs (default: logs in "
        "[tool.toolexpect])",
    )
    calls.add_argument(
        "--log-format",
        metavar="NAME",
        help=f"log format: auto (the default) or one of {LOG_FORMAT_NAMES}",
    )
    add_pairing_arguments(calls)
    calls.add_argument("--format", choices=("table", "json"), default="table", help="output format")
    calls.add_argument(
        "-v", "--verbose", action="count", default=0, help="say what became of each log's records"
    )
    add_snapshot_parser(commands)
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


def _fraction(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError(f"must be from 0 to 1, not {text}")
    return number


def _output(text: str) -> tuple[str | None, str]:
    """An argparse type: ``FORMAT=FILE`` (a known format before ``=``) or a plain ``FILE``."""
    name, sep, path = text.partition("=")
    if sep and name in SCORE_FORMATS:
        if not path:
            raise argparse.ArgumentTypeError(f"no file after {name}=")
        return name, path
    return None, text
