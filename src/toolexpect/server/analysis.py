"""One open document through the pipeline, as ``toolexpect lint`` and ``format`` see it.

The text goes through :func:`toolexpect.specfile.parse_spec_source` (parse, validate, lint) and,
when ``tools`` is set under ``[tool.toolexpect]`` in the nearest ``pyproject.toml`` above the
document, through :func:`toolexpect.toolcheck.check_spec_file` with that catalogue. The settings
are read with the command line's own readers (:mod:`toolexpect.cli.common`), starting from the
document's folder rather than the current one.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from toolexpect.catalogue import Catalogue, CatalogueError, load_catalogue
from toolexpect.cli.common import configured_line_length, configured_tools
from toolexpect.diagnostics import Diagnostic
from toolexpect.language.format import LINE_LENGTH
from toolexpect.specfile import SpecFile, kind_of, parse_spec_source, stem_of
from toolexpect.toolcheck import check_spec_file

__all__ = ["Analysis", "Catalogues", "analyse", "catalogue_for"]


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the pipeline made of one version of a document, and the settings that applied."""

    loaded: SpecFile
    diagnostics: tuple[Diagnostic, ...]
    catalogue: Catalogue | None
    line_length: int


_Stamp = tuple[int, int] | None


class Catalogues:
    """Tool catalogues read for open documents, each kept while its file is unchanged.

    One object per server, shared by the threads that analyse documents.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[str, tuple[_Stamp, Catalogue | CatalogueError]] = {}

    def get(self, path: str) -> Catalogue | CatalogueError:
        """The catalogue at ``path`` (read as ``lint --tools`` reads it), or why it cannot be read."""
        stamp = _stamp(path)
        with self._lock:
            kept = self._kept.get(path)
        if kept is not None and stamp is not None and kept[0] == stamp:
            return kept[1]
        result: Catalogue | CatalogueError
        try:
            result = load_catalogue(path)
        except CatalogueError as error:
            result = error
        with self._lock:
            self._kept[path] = (stamp, result)
        return result


def _stamp(path: str) -> _Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def catalogue_for(path: str | None, catalogues: Catalogues) -> Catalogue | CatalogueError | None:
    """The catalogue that ``tools`` of ``[tool.toolexpect]`` names for the document at ``path``
    (the nearest pyproject.toml above it), why it cannot be read, or ``None`` without one."""
    tools = configured_tools(Path(path).parent if path else Path.cwd())
    return catalogues.get(tools) if tools is not None else None


def analyse(text: str, path: str | None, catalogues: Catalogues) -> Analysis:
    """Run ``text``, the content of the document at ``path`` (``None``: not a file), through
    lint and, when one is configured, the catalogue checks."""
    loaded = parse_spec_source(
        text, kind_of(path or "spec.expect"), name=stem_of(path or "spec.expect"), path=path
    )
    diagnostics: list[Diagnostic] = list(loaded.diagnostics)
    catalogue: Catalogue | None = None
    found = catalogue_for(path, catalogues)
    if isinstance(found, CatalogueError):
        # Its place is in the catalogue, not in this document: shown at the top.
        diagnostics.insert(0, replace(found.diagnostic, span=None))
    elif found is not None:
        catalogue = found
        diagnostics = check_spec_file(loaded, catalogue)
    width = configured_line_length(Path(path).parent if path else Path.cwd()) or LINE_LENGTH
    return Analysis(loaded, tuple(diagnostics), catalogue, width)
