"""What the command line leaves out, taken from ``[tool.toolexpect]``, then the built-in defaults.

The parser leaves every option that has a setting as ``None``; :func:`apply_settings` fills it
in, so that the commands see complete arguments and never read ``pyproject.toml`` themselves.
A value given on the command line always wins; ``--output``/``--junit``/... replace ``outputs``.
"""

from __future__ import annotations

import argparse

from toolexpect.settings import Settings, SettingsError

__all__ = ["apply_settings"]

_LINT_FORMATS = ("full", "concise", "github", "json")


def apply_settings(args: argparse.Namespace, settings: Settings) -> None:
    """Fill ``args`` of any command from ``settings`` and the defaults; SettingsError when a
    setting is of the wrong type, ValueError for a usage error the parser cannot see."""
    command = args.command
    if command in ("lint", "format"):
        args.paths = args.paths or settings.paths("specs") or ["."]
    if command in ("lint", "score"):
        args.tools_origin = "the path given to --tools"
        if not args.tools:
            args.tools = settings.path_of("tools")
            args.tools_origin = f"tools in [tool.toolexpect] of {settings.path}"
        args.tools_format = args.tools_format or settings.text("tools-format") or "auto"
    if command == "lint":
        args.format = args.format or settings.choice("lint-format", _LINT_FORMATS) or "full"
    if command in ("format", "snapshot") and args.line_length is None:
        args.line_length = settings.whole_number("line-length")
    if command in ("score", "calls"):
        args.log_format = args.log_format or settings.text("log-format") or "auto"
    if command in ("score", "calls", "snapshot"):
        args.pair_by = args.pair_by or settings.choice("pair-by", ("id", "question", "file")) or "id"
        if args.case_from is None:
            args.case_from = settings.text("case-from")
    if command == "calls":
        args.logs = args.logs or settings.paths("logs")
        if not args.logs:
            raise ValueError("give at least one LOG (or logs in [tool.toolexpect] of pyproject.toml)")
    if command == "score":
        _score(args, settings)
    if command == "diff":
        from toolexpect.cli.common import format_of_output
        from toolexpect.report.diff import FORMATS as DIFF_FORMATS

        named = (
            None if args.output is None else format_of_output(args.output, args.format, DIFF_FORMATS, "diff")
        )
        args.format = args.format or named or "text"


def _score(args: argparse.Namespace, settings: Settings) -> None:
    from toolexpect.cli.common import SCORE_FAIL_ON, format_of_output
    from toolexpect.cli.parser import SCORE_FORMATS

    args.specs = args.specs or settings.paths("specs") or ["."]
    args.log = args.log or settings.paths("logs")
    if not args.log:
        raise ValueError("give at least one --log LOG (or logs in [tool.toolexpect] of pyproject.toml)")
    given_format = args.format
    default_format = settings.choice("score-format", SCORE_FORMATS) or "text"
    if args.fail_under is None:
        args.fail_under = settings.fraction("fail-under")
    if args.fail_on is None:
        args.fail_on = settings.choice("fail-on", SCORE_FAIL_ON)
    given: list[tuple[str | None, str]] = list(args.output or ())
    for name in ("json", "junit", "markdown", "html"):
        given.extend((name, path) for path in getattr(args, "outputs_" + name) or ())
    if not given:
        for written in settings.strings("outputs") or ():
            name, sep, path = written.partition("=")
            if not sep or name not in SCORE_FORMATS or not path:
                raise SettingsError(
                    f"{settings.path}: [tool.toolexpect] outputs: {written!r} is not FORMAT=FILE "
                    f"(FORMAT one of {', '.join(SCORE_FORMATS)})"
                )
            given.append((name, settings.relative(path)))
    plain = [path for name, path in given if name is None]
    if len(plain) > 1:
        raise ValueError(
            "-o FILE (the report in --format) was given more than once; write more reports "
            "with -o FORMAT=FILE"
        )
    args.output = plain[0] if plain else None
    named = (
        None if args.output is None else format_of_output(args.output, given_format, SCORE_FORMATS, "score")
    )
    args.format = given_format or named or default_format
    args.outputs = [(name, path) for name, path in given if name is not None]
