"""The commands on spec files: ``lint``, ``format``, ``compile``, ``schema``."""

from __future__ import annotations

import argparse
import difflib
import json
from dataclasses import replace
from typing import IO, TYPE_CHECKING

from toolexpect.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    UNREADABLE,
    load_all,
    load_tools,
    no_spec_files,
    print_diagnostics,
    shown_path,
    write_text,
)
from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.document import without_spans
from toolexpect.lines import split_lines_keepends
from toolexpect.specfiles.stages import SpecFile, load_spec_file

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue

__all__ = ["checked_against", "cmd_compile", "cmd_format", "cmd_lint", "cmd_schema"]


def cmd_lint(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect lint``: check spec files and report what is wrong."""
    files, empty = load_all(args.paths)
    catalogue, readable = load_tools(args.tools, args.tools_format, err, args.tools_origin)
    if not readable:
        return EXIT_USAGE
    if catalogue is not None:
        for loaded in files.values():
            loaded.diagnostics = checked_against(loaded, catalogue)  # type: ignore[arg-type]
    diagnostics = [d for f in files.values() for d in f.diagnostics]
    print_diagnostics(diagnostics, files, args.format, out)
    for folder in empty:
        print(f"toolexpect: {no_spec_files(folder)}", file=err)
    if any(d.code in UNREADABLE for d in diagnostics):
        return EXIT_USAGE
    errors = sum(d.severity is Severity.ERROR for d in diagnostics)
    warnings = sum(d.severity is Severity.WARNING for d in diagnostics)
    notes = len(diagnostics) - errors - warnings
    if diagnostics and args.format == "full":
        also = f" ({notes} note{'s' * (notes != 1)})" if notes else ""
        print(
            f"\nFound {errors} error{'s' * (errors != 1)} and {warnings} "
            f"warning{'s' * (warnings != 1)} in {len(files)} file{'s' * (len(files) != 1)}{also}.",
            file=out,
        )
    if errors or warnings:
        return EXIT_FINDINGS
    if empty:
        return EXIT_USAGE
    if not args.quiet and not diagnostics:
        print(f"{len(files)} file{'s' * (len(files) != 1)}, no findings", file=err)
    return EXIT_OK


def checked_against(loaded: SpecFile, catalogue: Catalogue) -> list[Diagnostic]:
    """What ``lint --tools`` reports for ``loaded``: its diagnostics and what ``catalogue`` finds
    in it (:func:`toolexpect.toolcheck.check_spec_file`), read from the spec cache when the same
    spec was checked with the same catalogue before."""
    from toolexpect.specfiles import cache

    key = cache.catalogue_key(loaded.cache_key, catalogue) if loaded.cache_key is not None else None
    entry = cache.read(key) if key is not None else None
    if isinstance(entry, cache.Checked):
        return [
            d.with_path(loaded.path) if placed and loaded.path is not None else d
            for d, placed in zip(entry.diagnostics, entry.placed, strict=True)
        ]
    from toolexpect.toolcheck import check_spec_file

    found = check_spec_file(loaded, catalogue)
    if key is not None:
        placed = tuple(loaded.path is not None and d.path == loaded.path for d in found)
        unplaced = tuple(replace(d, path=None) if p else d for d, p in zip(found, placed, strict=True))
        cache.write(key, cache.Checked(unplaced, placed))
    return found


def cmd_format(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect format``: rewrite spec files in the canonical layout."""
    from toolexpect.language.format import LINE_LENGTH

    width = args.line_length or LINE_LENGTH
    files, empty = load_all(args.paths)
    status = EXIT_OK
    changed: list[str] = []
    for path, loaded in files.items():
        formatted = loaded.formatted(width)
        if formatted is None:
            print_diagnostics(loaded.diagnostics, files, "full", err)
            status = EXIT_USAGE
            continue
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
            problem = write_text(path, formatted)
            if problem is not None:
                changed.pop()
                print(
                    f"toolexpect: cannot write {shown_path(path)}: {problem}; the file is unchanged", file=err
                )
                status = EXIT_USAGE
    for folder in empty:
        print(f"toolexpect: {no_spec_files(folder)}", file=err)
        status = EXIT_USAGE
    if args.check or args.diff:
        for path in changed:
            print(f"would reformat {shown_path(path)}", file=err)
        if changed and status == EXIT_OK:
            return EXIT_FINDINGS
    else:
        for path in changed:
            print(f"reformatted {shown_path(path)}", file=err)
    return status


def cmd_compile(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect compile``: print a spec's canonical JSON document."""
    loaded = load_spec_file(args.path)
    files = {str(args.path): loaded}
    if loaded.document is None or not loaded.ok:
        print_diagnostics(loaded.diagnostics, files, "full", err)
        return EXIT_USAGE
    document = without_spans(loaded.document) if args.no_spans else loaded.document
    # Written as it is encoded: the text of a large document is never held whole.
    out.writelines(json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(document))
    out.write("\n")
    return EXIT_OK


def cmd_schema(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect schema``: print the JSON Schema of the spec (or report) document."""
    from toolexpect.schema import report_schema_text, schema_text

    out.write(report_schema_text() if args.report else schema_text())
    return EXIT_OK
