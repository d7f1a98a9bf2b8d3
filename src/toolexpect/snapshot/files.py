"""Where a snapshot goes: one spec file, or one file per case in a folder; and ``--update``.

``--out NAME.expect`` writes every case into that one file; any other ``--out`` is a folder
that gets one file per case, named after the case (characters other than letters, digits,
``-``, ``_`` and ``.`` become ``_``; ``-2``, ``-3``, ... when two names meet). The plans here
only say what each file would hold; the command line shows them and writes them.

An update reads the specs already at ``--out`` and scores each snapshot case's new runs
against the case of the same name there. Only a case those runs fail is rewritten, in place
(the text of its ``case`` block is replaced; the rest of its file is kept byte for byte); a
case no spec there holds is added (at the end of the one file, or in a file of its own); every
other case, and everything else in the files, stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from toolexpect.diagnostics import Diagnostic, Severity, make
from toolexpect.language.format import LINE_LENGTH, line_ending
from toolexpect.lines import split_lines_keepends
from toolexpect.matching import aggregate, evaluate
from toolexpect.snapshot.take import Snapshot, SnapshotCase, spec_text
from toolexpect.specfiles.stages import SpecFile, parse_spec_source

__all__ = ["FileChange", "Plan", "case_file_name", "one_file", "plan_update", "plan_write"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file a snapshot writes: its path, its text now (``None``: a new file), its new text."""

    path: str
    old: str | None
    new: str


@dataclass(frozen=True, slots=True)
class Plan:
    """What a snapshot would write, and what an update decided for each case by name."""

    changes: tuple[FileChange, ...]
    added: tuple[str, ...] = ()
    rewritten: tuple[str, ...] = ()
    kept: tuple[str, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


def one_file(out: str) -> bool:
    """True when ``--out`` names one spec file (``*.expect``) rather than a folder."""
    return out.lower().endswith(".expect")


def case_file_name(name: str, taken: set[str]) -> str:
    """A file name for the case ``name`` that is not in ``taken`` (compared without case)."""
    stem = _UNSAFE.sub("_", name).strip("._")[:80] or "case"
    candidate, number = stem, 1
    while f"{candidate}.expect".lower() in taken:
        number += 1
        candidate = f"{stem}-{number}"
    taken.add(f"{candidate}.expect".lower())
    return f"{candidate}.expect"


def plan_write(
    snapshot: Snapshot, out: str, *, taken: set[str] | None = None, line_length: int = LINE_LENGTH
) -> Plan:
    """Every case written afresh at ``out`` (what is there now is read for the diff)."""
    cases = snapshot.cases
    names = tuple(case.name for case in cases)
    if one_file(out):
        return Plan((_change(out, spec_text(cases, line_length=line_length)),), added=names)
    used = set() if taken is None else taken
    changes = tuple(
        _change(str(Path(out) / case_file_name(case.name, used)), spec_text([case], line_length=line_length))
        for case in cases
    )
    return Plan(changes, added=names)


def _change(path: str, new: str) -> FileChange:
    try:
        with open(path, encoding="utf-8", newline="") as stream:
            old: str | None = stream.read()
    except (OSError, UnicodeDecodeError):
        old = None
    return FileChange(path, old, new)


def _offset(lines: list[str], line: int, column: int) -> int:
    """The character offset of a 1-based (line, column) in the text cut into ``lines`` (the
    parser does not count a byte order mark in the columns of the first line)."""
    bom = line == 1 and bool(lines) and lines[0].startswith("\ufeff")
    return sum(len(text) for text in lines[: line - 1]) + column - 1 + bom


def _fails(case: SnapshotCase, loaded: SpecFile, name: str) -> bool | None:
    """True when the new runs fail the case ``name`` of ``loaded`` (``None``: no model)."""
    spec = loaded.spec
    if spec is None:
        return None
    for written in spec.cases:
        if written.name == name:
            verdict = aggregate(written, [evaluate(written, run.calls) for run in case.runs.runs])
            return verdict.status != "pass"
    return None


def plan_update(
    snapshot: Snapshot, out: str, existing: Mapping[str, SpecFile], *, line_length: int = LINE_LENGTH
) -> Plan:
    """Rewrite the cases whose new runs fail the spec at ``out``, add the cases it lacks."""
    holders: dict[str, list[tuple[str, dict[str, object]]]] = {}
    for path, loaded in existing.items():
        for node in (loaded.document or {}).get("cases", []):
            holders.setdefault(node["name"], []).append((path, node))
    edits: dict[str, list[tuple[int, int, SnapshotCase]]] = {}
    added: list[SnapshotCase] = []
    rewritten: list[str] = []
    kept: list[str] = []
    found: list[Diagnostic] = []
    for case in snapshot.cases:
        held = holders.get(case.name)
        if not held:
            added.append(case)
            continue
        for path, node in held:
            loaded = existing[path]
            if not _fails(case, loaded, case.name):
                kept.append(case.name)
                continue
            span = node.get("span")
            if loaded.kind != "text" or node.get("implicit") or not isinstance(span, dict):
                where = "a JSON or YAML spec" if loaded.kind != "text" else "no case block"
                found.append(
                    make(
                        "S706",
                        f"case {case.name!r} fails the new runs but is written in {where}; "
                        "it is not rewritten",
                        help=f'write it as a block, case "{case.name}" {{ ... }}, in a .expect file, '
                        "and update again",
                        path=path,
                    )
                )
                kept.append(case.name)
                continue
            lines = split_lines_keepends(loaded.text or "")
            start = _offset(lines, span["line"], span["column"])
            end = _offset(lines, span["end_line"], span["end_column"])
            edits.setdefault(path, []).append((start, end, case))
            rewritten.append(case.name)
    changes = [_spliced(path, existing[path].text or "", spots, line_length) for path, spots in edits.items()]
    if added:
        if one_file(out):
            spliced = next((c for c in changes if c.path == out), None)
            changes = [c for c in changes if c.path != out]
            old = existing[out].text if out in existing else None
            current = spliced.new if spliced is not None else old
            changes.append(FileChange(out, old, _appended(current, added, line_length)))
        else:
            folder = Path(out)
            taken = {entry.name.lower() for entry in folder.iterdir()} if folder.is_dir() else set()
            fresh = plan_write(Snapshot(tuple(added), ()), out, taken=taken, line_length=line_length)
            changes.extend(fresh.changes)
    for change in changes:
        checked = parse_spec_source(change.new, "text", path=change.path)
        if any(d.severity is Severity.ERROR for d in checked.diagnostics):
            problems = "; ".join(f"{d.code} {d.message}" for d in checked.diagnostics)
            found.append(
                make(
                    "S705",
                    f"{change.path} is not updated: the updated text does not read back cleanly ({problems})",
                    help="this is a fault of toolexpect snapshot; please report it with the log",
                    path=change.path,
                )
            )
    if any(d.code == "S705" for d in found):
        return Plan((), diagnostics=tuple(found))
    return Plan(
        tuple(changes),
        added=tuple(c.name for c in added),
        rewritten=tuple(rewritten),
        kept=tuple(kept),
        diagnostics=tuple(found),
    )


def _spliced(path: str, text: str, spots: list[tuple[int, int, SnapshotCase]], width: int) -> FileChange:
    """``text`` with each spot's ``case`` block replaced by the snapshot of that case."""
    newline = line_ending(text)
    new = text
    for start, end, case in sorted(spots, key=lambda spot: spot[0], reverse=True):
        block = spec_text([case], newline=newline, line_length=width).rstrip("\r\n")
        new = new[:start] + block + new[end:]
    return FileChange(path, text, new)


def _appended(text: str | None, cases: list[SnapshotCase], width: int) -> str:
    """``text`` (``None``: no file yet) with ``cases`` written after what it holds."""
    if text is None or not text.strip():
        return spec_text(cases, line_length=width)
    newline = line_ending(text)
    return text.rstrip("\r\n") + newline + newline + spec_text(cases, newline=newline, line_length=width)
