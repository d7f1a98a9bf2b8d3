"""What the commands share: exit codes, loading specs, printing diagnostics, writing files."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from toolexpect.diagnostics import Diagnostic
from toolexpect.report import diagnostics as diagnostic_report
from toolexpect.report.style import Style
from toolexpect.specfile import SpecFile, find_spec_files, load_spec_file

if TYPE_CHECKING:
    from toolexpect.pairing import PairingOptions

__all__ = [
    "EXIT_FINDINGS",
    "EXIT_OK",
    "EXIT_USAGE",
    "FAIL_ON",
    "LOG_FORMAT_NAMES",
    "TOOLS_FORMAT_NAMES",
    "UNREADABLE",
    "configured_line_length",
    "configured_pairing",
    "configured_tools",
    "load_all",
    "load_tools",
    "print_diagnostics",
    "replacing",
    "report_log_diagnostics",
    "report_pairing_diagnostics",
    "sources_of",
    "write_text",
]


UNREADABLE = {"P105", "P106", "P107"}

FAIL_ON = ("regression", "any-failure")
"""What makes ``score --baseline`` and ``diff`` exit 1: a regression, or any failing case."""

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


def load_all(paths: Sequence[str]) -> tuple[dict[str, SpecFile], list[str]]:
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
        path = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _NEW_FILE_MODE), path
        except FileExistsError:
            continue


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """A UTF-8 text stream whose content replaces ``path`` when the ``with`` block ends.

    Any exception in the block or while writing (``OSError`` for a full disk) leaves
    ``path`` as it was and propagates.
    """
    target = os.path.realpath(path)
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(target, "w", encoding="utf-8", newline="") as stream:
            yield stream
        return
    handle, temporary = _temporary_beside(os.path.dirname(target), os.path.basename(target))
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
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


def _setting(start: Path, key: str) -> tuple[Path, object] | None:
    """The folder of the nearest pyproject.toml above ``start`` and its ``[tool.toolexpect]``
    value of ``key`` (``None`` when there is no such file, it cannot be read, or lacks the key)."""
    import tomllib

    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError):
                return None
            value = data.get("tool", {}).get("toolexpect", {}).get(key)
            return (folder, value) if value is not None else None
    return None


def configured_tools(start: Path) -> str | None:
    """The ``tools`` setting of ``[tool.toolexpect]``, relative to its pyproject.toml."""
    found = _setting(start, "tools")
    if found is None:
        return None
    folder, value = found
    if not isinstance(value, str) or not value:
        return None
    return str(folder / value) if not Path(value).is_absolute() else value


def configured_line_length(start: Path) -> int | None:
    """The ``line-length`` setting of ``[tool.toolexpect]`` (a positive integer), if any."""
    found = _setting(start, "line-length")
    value = found[1] if found is not None else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def configured_pairing(start: Path, pair_by: str | None, case_from: str | None) -> PairingOptions | str:
    """The pairing options: ``--pair-by`` and ``--case-from`` if given, else ``pair-by`` and
    ``case-from`` of ``[tool.toolexpect]``; the text of the problem (a ``str``) when invalid."""
    from toolexpect.pairing import PairingOptions

    settings: dict[str, object] = {}
    for key in ("pair-by", "case-from"):
        found = _setting(start, key)
        if found is not None:
            settings[key] = found[1]
    if pair_by is not None:
        settings["pair-by"] = pair_by
    if case_from is not None:
        settings["case-from"] = case_from
    try:
        return PairingOptions.of(settings)
    except ValueError as error:
        return str(error)


def load_tools(path: str | None, fmt: str, err: IO[str]) -> tuple[object | None, bool]:
    """The catalogue at ``path`` (None when not asked for); False when it cannot be read."""
    if not path:
        return None, True
    from toolexpect.catalogue import CatalogueError, load_catalogue

    try:
        return load_catalogue(path, fmt), True
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
