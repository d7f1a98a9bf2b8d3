"""One open document through the pipeline, as ``toolexpect lint`` and ``format`` see it.

The text goes through :func:`toolexpect.specfiles.stages.parse_spec_source` (parse, validate, lint), or
is refused as ``lint`` refuses a file over :data:`toolexpect.specfiles.stages.MAX_SPEC_BYTES`, and,
when ``tools`` is set under ``[tool.toolexpect]`` in the nearest ``pyproject.toml`` above the
document, through :func:`toolexpect.toolcheck.check_spec_file` with that catalogue. The
settings are read by :func:`toolexpect.settings.find_settings`, as the command line reads them,
starting from the document's folder rather than the current one.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from toolexpect.catalogue import Catalogue, CatalogueError, load_catalogue
from toolexpect.diagnostics import Diagnostic
from toolexpect.language.format import LINE_LENGTH
from toolexpect.settings import SettingsError, find_settings
from toolexpect.specfiles.stages import (
    MAX_SPEC_BYTES,
    SpecFile,
    kind_of,
    parse_spec_source,
    stem_of,
    too_large,
)
from toolexpect.toolcheck import check_spec_file

__all__ = ["Analysis", "Catalogues", "Setup", "analyse", "setup_for"]


@dataclass(frozen=True, slots=True)
class Setup:
    """What ``[tool.toolexpect]`` says for one document: its catalogue (or why it cannot be
    read), the line length, and why the settings themselves could not be used, if they could not."""

    catalogue: Catalogue | CatalogueError | None
    line_length: int
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the pipeline made of one version of a document, and the settings that applied."""

    loaded: SpecFile
    diagnostics: tuple[Diagnostic, ...]
    catalogue: Catalogue | None
    line_length: int
    problem: str | None = None
    """Why the document's ``[tool.toolexpect]`` could not be used (its defaults were)."""


_Stamp = tuple[int, int] | None


class Catalogues:
    """Tool catalogues read for open documents, each kept while its file is unchanged.

    One object per server, shared by the threads that analyse documents.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[tuple[str, str], tuple[_Stamp, Catalogue | CatalogueError]] = {}

    def get(
        self, path: str, fmt: str = "auto", origin: str = "the path given to --tools"
    ) -> Catalogue | CatalogueError:
        """The catalogue at ``path`` (read as ``lint --tools`` reads it; ``origin`` says where
        the path was given), or why it cannot be read."""
        stamp = _stamp(path)
        with self._lock:
            kept = self._kept.get((path, fmt))
        if kept is not None and stamp is not None and kept[0] == stamp:
            return kept[1]
        result: Catalogue | CatalogueError
        try:
            result = load_catalogue(path, fmt, origin=origin)
        except CatalogueError as error:
            result = error
        with self._lock:
            self._kept[(path, fmt)] = (stamp, result)
        return result


def _stamp(path: str) -> _Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def setup_for(path: str | None, catalogues: Catalogues) -> Setup:
    """The settings of the nearest ``pyproject.toml`` above the document at ``path`` (``None``:
    not a file; the current folder's), with the catalogue they name."""
    try:
        settings = find_settings(Path(path).parent if path else Path.cwd())
        tools = settings.path_of("tools")
        fmt = settings.text("tools-format") or "auto"
        width = settings.whole_number("line-length") or LINE_LENGTH
    except SettingsError as error:
        return Setup(None, LINE_LENGTH, str(error))
    origin = f"tools in [tool.toolexpect] of {settings.path}"
    return Setup(catalogues.get(tools, fmt, origin) if tools is not None else None, width)


def analyse(text: str, path: str | None, catalogues: Catalogues) -> Analysis:
    """Run ``text``, the content of the document at ``path`` (``None``: not a file), through
    lint and, when one is configured, the catalogue checks."""
    kind = kind_of(path or "spec.expect")
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_SPEC_BYTES:  # refused as lint refuses the file, before any parsing
        loaded = SpecFile(path, kind, text, diagnostics=[too_large(size)])
    else:
        loaded = parse_spec_source(text, kind, name=stem_of(path or "spec.expect"), path=path)
    diagnostics: list[Diagnostic] = list(loaded.diagnostics)
    catalogue: Catalogue | None = None
    setup = setup_for(path, catalogues)
    if isinstance(setup.catalogue, CatalogueError):
        # Its place is in the catalogue, not in this document: shown at the top.
        diagnostics.insert(0, replace(setup.catalogue.diagnostic, span=None))
    elif setup.catalogue is not None:
        catalogue = setup.catalogue
        diagnostics = check_spec_file(loaded, catalogue)
    return Analysis(loaded, tuple(diagnostics), catalogue, setup.line_length, setup.problem)
