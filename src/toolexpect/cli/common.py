"""What the commands share: exit codes, loading specs, printing diagnostics, writing files."""

from __future__ import annotations

import argparse
import contextlib
import os
import stat
from collections.abc import Iterator, Sequence
from typing import IO, TYPE_CHECKING

from toolexpect.diagnostics import Diagnostic
from toolexpect.lines import visible
from toolexpect.report import diagnostics as diagnostic_report
from toolexpect.report.style import ESCAPE, Style
from toolexpect.specfiles.stages import SpecFile, load_spec_files

if TYPE_CHECKING:
    pass

__all__ = [
    "EXIT_BELOW",
    "EXIT_CODES",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_USAGE",
    "FAIL_ON",
    "LOG_FORMAT_NAMES",
    "SCORE_FAIL_ON",
    "TOOLS_FORMAT_NAMES",
    "UNREADABLE",
    "add_no_cache_argument",
    "add_pairing_arguments",
    "format_of_output",
    "load_all",
    "load_tools",
    "logs_given_as_specs",
    "no_spec_files",
    "print_diagnostics",
    "replacing",
    "report_log_diagnostics",
    "report_pairing_diagnostics",
    "shown_path",
    "sources_of",
    "write_text",
]


UNREADABLE = {"P105", "P106", "P107"}

FAIL_ON = ("regression", "any-failure")
"""What makes ``diff`` exit 1: a regression, or any failing case."""

SCORE_FAIL_ON = (*FAIL_ON, "mean-only")
"""What makes ``score`` fail: a regression against ``--baseline`` (its default with one), any
failing case (the default without), or only the mean accuracy below ``--fail-under``."""

# Kept here rather than imported, so that building the parser stays cheap; a test checks
# them against toolexpect.logs.LOG_FORMATS and toolexpect.catalogue.FORMATS.
LOG_FORMAT_NAMES = (
    "canonical, openai-chat, openai-responses, openai-batch, anthropic, gemini, langchain, "
    "langsmith, otel, mcp, adk, bfcl"
)
TOOLS_FORMAT_NAMES = "openai, responses, anthropic, mcp, python"

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_BELOW = 3

EXIT_CODES = {
    EXIT_OK: "done, and nothing was found: specs clean, files formatted, every case passed",
    EXIT_FINDINGS: "done, and the command found what it checks for: lint findings, a file "
    "format --check or --diff would change, a failing case (whatever the mean accuracy, unless "
    "--fail-on mean-only) or an unreadable log record, a regression against --baseline (diff: a "
    "regression, or with --fail-on any-failure a case that does not pass), changes snapshot "
    "--update shows for review, a case snapshot could not write or no case at all",
    EXIT_USAGE: "the command could not do its job: a usage error, an unknown setting or one of the "
    "wrong type, a --format that contradicts the -o file's extension, "
    "an invalid spec where one is used (format, compile, score), an unreadable file, no spec "
    "file where one was asked for, no case to score, a report that cannot be written, or a bug",
    EXIT_BELOW: "score --fail-under X: the mean Tool Call Accuracy of the cases is below X, and "
    "nothing that exits 1 happened (1 comes first)",
}
"""The one meaning of each exit code, for every command (docs/cli.md shows this table)."""


def shown_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a message shows it, through the one escape of every text a person reads
    (:func:`toolexpect.lines.visible`): nothing from a file name reaches the terminal raw."""
    return visible(os.fspath(path))


_FORMAT_OF_SUFFIX = {
    ".html": "html",
    ".htm": "html",
    ".json": "json",
    ".xml": "junit",
    ".md": "markdown",
    ".markdown": "markdown",
}
"""The report format a file's extension names (``-o report.html`` writes the html report)."""


def format_of_output(path: str, given: str | None, formats: Sequence[str], command: str) -> str | None:
    """The format of the report ``-o path`` writes: ``given`` (``--format``), else the one the
    extension names (None when it names none); ValueError when ``given`` contradicts the
    extension, or when the command has no report in the format the extension names."""
    suffix = os.path.splitext(path)[1].lower()
    named = _FORMAT_OF_SUFFIX.get(suffix)
    if named is None or named == given:
        return given or named
    shown = shown_path(path)
    if named not in formats:
        fitting = sorted(end for end, fmt in _FORMAT_OF_SUFFIX.items() if fmt in formats)
        raise ValueError(
            f"-o {shown}: {command} writes no {named} report, which the extension {suffix} names "
            f"(its formats: {', '.join(formats)}); end the name with {', '.join(fitting)}, or with "
            "an extension that names no format (written in --format, text by default)"
        )
    if given is None:
        return named
    hint = f", or write -o {given}=FILE to give the {given} report any name" if command == "score" else ""
    raise ValueError(
        f"--format {given} contradicts -o {shown}, whose extension {suffix} names the {named} "
        f"format: drop --format to write {named}{hint}"
    )


def sources_of(files: dict[str, SpecFile]) -> object:
    """The source text of a loaded spec file by path, for diagnostic excerpts."""

    def source(path: str | None) -> str | None:
        found = files.get(path or "")
        return found.text if found else None

    return source


def print_diagnostics(
    diagnostics: Sequence[Diagnostic],
    files: dict[str, SpecFile],
    fmt: str,
    stream: IO[str],
) -> None:
    """Render ``diagnostics`` in ``fmt`` to ``stream`` (nothing for none, except as JSON)."""
    if not diagnostics and fmt != "json":
        return
    text = diagnostic_report.render(
        diagnostics,
        fmt,
        sources=sources_of(files),  # type: ignore[arg-type]
        style=Style.of(stream),
    )
    print(text, file=stream)


def no_spec_files(folder: str) -> str:
    """The message for a folder given that holds no spec file, naming the endings looked for."""
    from toolexpect.specfiles.stages import SPEC_SUFFIXES

    return f"no spec files ({', '.join('*' + s for s in SPEC_SUFFIXES)}) in {shown_path(folder)}"


def load_all(paths: Sequence[str]) -> tuple[dict[str, SpecFile], list[str]]:
    """Every spec file under ``paths``, loaded, and the folders given that hold none."""
    return load_spec_files(paths)


def logs_given_as_specs(paths: list[str], failed: set[str | None]) -> list[str]:
    """The spec paths that failed to load and are named like logs (``b.jsonl`` read as a spec
    in ``score --log a.jsonl b.jsonl``)."""
    from toolexpect.logs.paths import LOG_SUFFIXES
    from toolexpect.specfiles.stages import SPEC_SUFFIXES

    endings = tuple(suffix + packed for suffix in LOG_SUFFIXES for packed in ("", ".gz", ".zst"))
    return [
        path
        for path in paths
        if path in failed and path.lower().endswith(endings) and not path.lower().endswith(SPEC_SUFFIXES)
    ]


# Every file the command line writes (format, score -o, --html, diff -o) goes through
# replacing, so that a failure never leaves it half written: text goes to a temporary file
# in the target's folder, renamed over the target once everything is written. On a full
# disk, without permission, or when rendering fails, the target keeps its old content and
# the temporary file is removed. A new file gets the permissions a plain open() gives under
# the umask; an existing file keeps its mode. A target that exists and is not a regular
# file (/dev/null, a FIFO, a terminal) has no content to lose and is written directly. A
# symbolic link is followed: the file it points to is replaced and the link stays.
_NEW_FILE_MODE = 0o666  # what open() asks for; the umask takes its share


def _temporary_beside(folder: str, name: str) -> tuple[int, str]:
    """A new file next to the target, opened for writing, and its path."""
    while True:
        path = os.path.join(folder, f".{name}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE), path
        except FileExistsError:
            continue


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """A UTF-8 text stream whose content replaces ``path`` when the ``with`` block ends (a
    lone surrogate, which UTF-8 cannot hold, written as a ``\\udXXX`` escape).

    Any exception in the block or while writing (``OSError`` for a full disk) leaves
    ``path`` as it was and propagates.
    """
    target = os.path.realpath(path)
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "w", encoding="utf-8", errors=ESCAPE, newline="") as stream:
            yield stream
        return
    handle, temporary = _temporary_beside(os.path.dirname(target), os.path.basename(target))
    try:
        with os.fdopen(handle, "w", encoding="utf-8", errors=ESCAPE, newline="") as stream:
            yield stream
        if mode is not None:
            os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_text(path: str | os.PathLike[str], text: str) -> str | None:
    """Replace ``path``'s content with ``text`` (see :func:`replacing`); the reason it failed, or None."""
    try:
        with replacing(path) as stream:
            stream.write(text)
    except OSError as error:
        return error.strerror or str(error)
    return None


def load_tools(
    path: str | None, fmt: str, err: IO[str], origin: str = "the path given to --tools"
) -> tuple[object | None, bool]:
    """The catalogue at ``path`` (None when not asked for), given as ``origin`` says; False
    when it cannot be read."""
    if not path:
        return None, True
    from toolexpect.catalogue import CatalogueError, load_catalogue

    try:
        return load_catalogue(path, fmt, origin=origin), True
    except CatalogueError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return None, False


def report_log_diagnostics(diagnostics: Sequence[Diagnostic], err: IO[str]) -> None:
    """Print what reading the logs found, one concise line each, on standard error."""
    if diagnostics:
        print(diagnostic_report.render(diagnostics, "concise"), file=err)


def report_pairing_diagnostics(diagnostics: Sequence[Diagnostic], err: IO[str]) -> None:
    """Print what pairing runs with cases found, with its help line, on standard error."""
    if diagnostics:
        print(diagnostic_report.render(diagnostics, "full", style=Style.of(err)), file=err)


def add_pairing_arguments(command: argparse.ArgumentParser) -> None:
    """``--pair-by`` and ``--case-from``: how recorded runs pair with cases (docs/logs.md)."""
    command.add_argument(
        "--pair-by",
        choices=("id", "question", "file"),
        metavar="{id,question,file}",
        help="pair runs with cases by their id (the default), the cases' question, or the log "
        "file's name (default: pair-by in [tool.toolexpect])",
    )
    command.add_argument(
        "--case-from",
        metavar="PATH",
        help="pair each record with the case named by this field (metadata.case or "
        "/metadata/case; default: case-from in [tool.toolexpect])",
    )


def add_no_cache_argument(command: argparse.ArgumentParser) -> None:
    """``--no-cache``: on every command that reads spec files (docs/cli.md, "The cache")."""
    command.add_argument(
        "--no-cache",
        action="store_true",
        help="parse every spec file afresh, reading and writing no cache (as TOOLEXPECT_NO_CACHE=1)",
    )
