"""The command line: ``toolexpect lint | format | score | diff | calls | snapshot | compile | schema``
and ``toolexpect server``.

``main(argv)`` returns the exit code; nothing outside this package prints or exits. The
parser is in ``parser.py``, the commands on specs in ``specs.py``, those on recorded runs in
``scoring.py``, the language server's in ``server.py``, what they share in ``common.py``.
Exit codes (one meaning each, for every command; see ``common.EXIT_CODES`` and docs/cli.md):
0 done and all is well, 1 the command found what it checks for (lint findings, a file
``format --check`` would change, a failing case, a regression), 2 the command could not do
its job (a usage error, an invalid spec where one is used, unreadable input, a bug), 3 the
mean accuracy is below ``score --fail-under``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from toolexpect.caching import NO_CACHE_VARIABLE
from toolexpect.cli.common import EXIT_OK, EXIT_USAGE, LOG_FORMAT_NAMES, TOOLS_FORMAT_NAMES
from toolexpect.cli.defaults import apply_settings
from toolexpect.cli.parser import build_parser
from toolexpect.cli.scoring import cmd_calls, cmd_diff, cmd_score
from toolexpect.cli.server import cmd_server
from toolexpect.cli.snapshot import cmd_snapshot
from toolexpect.cli.specs import cmd_compile, cmd_format, cmd_lint, cmd_schema
from toolexpect.report.style import fit_stream
from toolexpect.settings import SettingsError, find_settings

__all__ = ["LOG_FORMAT_NAMES", "TOOLS_FORMAT_NAMES", "main"]


_COMMANDS = {
    "score": cmd_score,
    "diff": cmd_diff,
    "calls": cmd_calls,
    "snapshot": cmd_snapshot,
    "lint": cmd_lint,
    "format": cmd_format,
    "compile": cmd_compile,
    "schema": cmd_schema,
    "server": cmd_server,
}

_OWN_SETTINGS = frozenset({"server"})
"""Commands that read ``[tool.toolexpect]`` themselves: the language server reads each
document's nearest settings as it analyses it, and a problem with them is told to the editor
(the defaults apply) rather than stopping the server."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    out, err = sys.stdout, sys.stderr
    fit_stream(out)
    fit_stream(err)
    try:
        if args.command not in _OWN_SETTINGS:
            apply_settings(args, find_settings(Path.cwd()))
    except SettingsError as error:
        for line in str(error).splitlines():
            print(f"toolexpect: {line}", file=err)
        return EXIT_USAGE
    except ValueError as error:
        print(f"toolexpect {args.command}: error: {error}", file=err)
        return EXIT_USAGE
    # --no-cache turns caching off as TOOLEXPECT_NO_CACHE=1 does, for this command and any
    # process it starts, and only for it: the variable is as it was once the command ends.
    earlier = os.environ.get(NO_CACHE_VARIABLE)
    if getattr(args, "no_cache", False):
        os.environ[NO_CACHE_VARIABLE] = "1"
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
    finally:
        if earlier is None:
            os.environ.pop(NO_CACHE_VARIABLE, None)
        else:
            os.environ[NO_CACHE_VARIABLE] = earlier
    return code


def _silence(stream: IO[str]) -> None:
    """Point ``stream``'s descriptor at the null device, so that what it still holds is not
    written again (and fails again) when the interpreter exits."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
