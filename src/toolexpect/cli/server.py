"""``toolexpect server``: run the language server on standard input and output."""

from __future__ import annotations

import argparse
import os
from typing import IO

from toolexpect.cli.common import EXIT_USAGE

__all__ = ["cmd_server"]


def cmd_server(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect server``: speak the Language Server Protocol over stdio until told to exit;
    exit code 0 after ``shutdown`` then ``exit``, 1 when the session ended without ``shutdown``."""
    try:
        from toolexpect.server.app import serve
    except ImportError as error:
        print(
            f"toolexpect: the language server needs pygls and lsprotocol ({error.msg}); "
            "install them with: pip install 'toolexpect[lsp]'",
            file=err,
        )
        return EXIT_USAGE
    # The server closes the streams it is given when it stops; it gets its own descriptors of
    # stdin and stdout, so that the command line's own streams stay open to the end.
    with os.fdopen(os.dup(0), "rb") as stdin, os.fdopen(os.dup(1), "wb") as stdout:
        return serve(stdin, stdout)  # 0 after shutdown and exit, 1 without shutdown
