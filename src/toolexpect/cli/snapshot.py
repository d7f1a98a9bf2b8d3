"""The command that writes specs from recorded runs: ``toolexpect snapshot``."""

from __future__ import annotations

import argparse
import difflib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from toolexpect.cli.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    LOG_FORMAT_NAMES,
    add_no_cache_argument,
    add_pairing_arguments,
    load_all,
    print_diagnostics,
    report_log_diagnostics,
    report_pairing_diagnostics,
    write_text,
)
from toolexpect.diagnostics import Diagnostic, Severity
from toolexpect.lines import split_lines_keepends, visible
from toolexpect.spelling import COMMAND_LINE

if TYPE_CHECKING:
    from toolexpect.calls import RecordedSample
    from toolexpect.snapshot import Snapshot, SnapshotCase
    from toolexpect.snapshot.files import FileChange

__all__ = ["add_snapshot_parser", "cmd_snapshot"]


def _names(text: str) -> list[str]:
    """An argparse type: argument names separated by commas."""
    return [name.strip() for name in text.split(",") if name.strip()]


def add_snapshot_parser(commands: Any) -> None:
    """Add ``snapshot`` and its options to the parser's commands."""
    snap = commands.add_parser("snapshot", help="write specs from recorded runs")
    snap.add_argument(
        "logs", nargs="+", metavar="LOG", help="recorded logs of good runs (files, folders, globs, -)"
    )
    add_pairing_arguments(snap)
    snap.add_argument(
        "--log-format",
        default="auto",
        metavar="NAME",
        help=f"log format: auto (the default) or one of {LOG_FORMAT_NAMES}",
    )
    snap.add_argument(
        "--out",
        metavar="PATH",
        help="write to PATH: a NAME.expect file holds every case, any other path is a folder "
        "with one file per case (default: print the spec)",
    )
    snap.add_argument(
        "--force", action="store_true", help="overwrite specs that exist (with --update: write the changes)"
    )
    snap.add_argument(
        "--update",
        action="store_true",
        help="rewrite only the cases the new runs fail, add new ones; show the diff, write with --force",
    )
    names = {"type": _names, "action": "append", "metavar": "NAMES"}
    snap.add_argument("--only", **names, help="write only these arguments (comma-separated)")
    snap.add_argument("--ignore-args", **names, default=[], help="leave these arguments out")
    snap.add_argument("--any-args", **names, default=[], help="write these arguments as NAME=any")
    snap.add_argument("--then", action="store_true", help="write each case's calls as one ordered chain")
    snap.add_argument(
        "--counts",
        action="store_true",
        help="bound how often each tool is called: 'require between MIN and MAX calls of TOOL' "
        "from the runs (exactly N, at most MAX when a run made none)",
    )
    snap.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="TOOL",
        help="write the calls of TOOL as 'allow TOOL' instead of expectations (repeatable)",
    )
    snap.add_argument(
        "--require",
        choices=("no-unexpected",),
        action="append",
        default=[],
        help="no-unexpected: close each case with 'require no unexpected calls'",
    )
    snap.add_argument(
        "--differing",
        choices=("in", "any"),
        default="in",
        help="an argument whose value differs between repeated runs: "
        "'in [...]' of the values (the default) or '=any'",
    )
    snap.add_argument(
        "--name", metavar="NAME", help="the case of samples without an id (default: the first log's name)"
    )
    snap.add_argument("--line-length", type=int, metavar="N", help="wrap statements longer than N characters")
    add_no_cache_argument(snap)


def _flat(groups: Sequence[Sequence[str]] | None) -> frozenset[str]:
    return frozenset(name for group in groups or () for name in group)


def _stem(path: str) -> str:
    name = Path(path).name
    for suffix in (".jsonl", ".json", ".sse", ".ndjson"):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return name


def cmd_snapshot(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect snapshot``: write specs that the recorded runs pass."""
    from toolexpect.language.format import LINE_LENGTH
    from toolexpect.logs import LogError, open_logs
    from toolexpect.pairing import PairingOptions, pair_runs
    from toolexpect.report import diagnostics as diagnostic_report
    from toolexpect.snapshot import Options, group_runs, spec_text, take_snapshot

    usage = _usage_problem(args)
    if usage:
        print(f"toolexpect snapshot: {usage}", file=err)
        return EXIT_USAGE
    width = args.line_length or LINE_LENGTH
    try:
        pairing = PairingOptions(args.pair_by, args.case_from)
    except ValueError as error:
        print(f"toolexpect snapshot: {error}", file=err)
        return EXIT_USAGE
    try:
        readers = open_logs(args.logs, args.log_format)
        # Without specs, pairing names the runs: by id, by the field, by the file or by question.
        paired = pair_runs([], readers, pairing, spelling=COMMAND_LINE)
        samples: list[RecordedSample] = list(paired)
    except LogError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return EXIT_USAGE
    log_diagnostics: list[Diagnostic] = [d for reader in readers for d in reader.diagnostics]
    report_log_diagnostics(log_diagnostics, err)
    report_pairing_diagnostics(paired.diagnostics, err)
    paired_by = pairing.setting
    groups, left_out = group_runs(
        samples, args.name or _stem(args.logs[0]), paired=paired_by, spelling=COMMAND_LINE
    )
    options = Options(
        only=_flat(args.only) if args.only else None,
        ignore=_flat(args.ignore_args),
        any_args=_flat(args.any_args),
        then=args.then,
        no_unexpected="no-unexpected" in args.require,
        differing=args.differing,
        counts=args.counts,
        allow=frozenset(args.allow),
    )
    snapshot = take_snapshot(groups, options, paired=paired_by, spelling=COMMAND_LINE)
    found = [*left_out, *snapshot.diagnostics]
    plain = [d for d in found if d.code not in _NAMING]
    if plain:
        print(diagnostic_report.render(plain, "concise"), file=err)
    report_pairing_diagnostics([d for d in found if d.code in _NAMING], err)
    faulty = any(d.severity is Severity.ERROR for d in found)
    if not snapshot.cases:
        print("toolexpect snapshot: no case to write", file=err)
        return EXIT_FINDINGS
    if not args.out:
        text = spec_text(snapshot.cases, line_length=width)
        out.write(text)
        large = _too_large(text)
        if large is not None:
            print(f"toolexpect snapshot: {large}", file=err)
            for hint in _fitting(snapshot.cases, width, "--out a folder"):
                print(f"toolexpect snapshot: {hint}", file=err)
            return EXIT_FINDINGS
        return EXIT_FINDINGS if faulty else EXIT_OK
    code = _update(args, snapshot, width, out, err) if args.update else _write(args, snapshot, width, err)
    return EXIT_FINDINGS if faulty and code == EXIT_OK else code


_NAMING = frozenset({"S703", "S708"})
"""The findings that say which pairing would name the cases: shown whole, with their help line."""


def _usage_problem(args: argparse.Namespace) -> str | None:
    if args.update and not args.out:
        return "--update needs --out, the specs to update"
    if args.out and args.out.lower().endswith((".json", ".yaml", ".yml")):
        return "snapshot writes text specs: give --out a NAME.expect file or a folder"
    if args.line_length is not None and args.line_length < 1:
        return f"the line length must be at least 1, not {args.line_length}"
    return None


def _write(args: argparse.Namespace, snapshot: Snapshot, width: int, err: IO[str]) -> int:
    """Write every case afresh; refuse to replace a file without ``--force``."""
    from toolexpect.snapshot.files import plan_write

    plan = plan_write(snapshot, args.out, line_length=width)
    there = [change.path for change in plan.changes if change.old is not None or os.path.exists(change.path)]
    if there and not args.force:
        for path in there:
            print(f"toolexpect snapshot: {path} exists", file=err)
        print(
            "toolexpect snapshot: nothing written; pass --force to overwrite, "
            "or --update to rewrite only the cases the new runs fail",
            file=err,
        )
        return EXIT_USAGE
    if not _apply(plan.changes, snapshot.cases, width, err):
        return EXIT_USAGE
    count = len(snapshot.cases)
    print(f"wrote {count} case{'s' * (count != 1)} to {args.out}", file=err)
    return EXIT_OK


def _update(args: argparse.Namespace, snapshot: Snapshot, width: int, out: IO[str], err: IO[str]) -> int:
    """Show what an update changes; write it with ``--force``."""
    from toolexpect.report import diagnostics as diagnostic_report
    from toolexpect.snapshot.files import one_file, plan_update
    from toolexpect.specfiles.stages import load_spec_file

    if one_file(args.out):
        files = {args.out: load_spec_file(args.out)} if os.path.exists(args.out) else {}
    else:
        files = load_all([args.out])[0] if os.path.isdir(args.out) else {}
    bad = [d for loaded in files.values() for d in loaded.diagnostics if d.severity is Severity.ERROR]
    if bad:
        print_diagnostics(bad, files, "full", err)
        print("toolexpect snapshot: fix the spec errors above before updating", file=err)
        return EXIT_USAGE
    plan = plan_update(snapshot, args.out, files, line_length=width)
    if plan.diagnostics:
        print(diagnostic_report.render(list(plan.diagnostics), "concise"), file=err)
    changed = [change for change in plan.changes if change.new != change.old]
    for change in changed:
        out.writelines(
            difflib.unified_diff(
                split_lines_keepends(change.old or ""),
                split_lines_keepends(change.new),
                fromfile=change.path if change.old is not None else "/dev/null",
                tofile=change.path,
            )
        )
    summary = ", ".join(
        f"{len(names)} {what}"
        for names, what in ((plan.rewritten, "rewritten"), (plan.added, "added"), (plan.kept, "kept"))
    )
    print(f"cases: {summary}", file=err)
    if any(d.code == "S705" for d in plan.diagnostics):
        return EXIT_FINDINGS
    if not changed:
        if plan.diagnostics:  # a failing case that could not be rewritten
            return EXIT_FINDINGS
        print("toolexpect snapshot: the specs are up to date", file=err)
        return EXIT_OK
    if not args.force:
        print("toolexpect snapshot: nothing written; review the diff, then write it with --force", file=err)
        return EXIT_FINDINGS
    return EXIT_OK if _apply(changed, snapshot.cases, width, err) else EXIT_USAGE


def _too_large(text: str) -> str | None:
    """Why a spec of ``text`` would not be read back (``None`` when it would)."""
    from toolexpect.specfiles.stages import MAX_SPEC_BYTES

    size = len(text.encode("utf-8", "surrogateescape"))
    if size <= MAX_SPEC_BYTES:
        return None
    return f"it would be {size:,} bytes, more than toolexpect reads from a spec ({MAX_SPEC_BYTES:,})"


def _fitting(cases: Sequence[SnapshotCase], width: int, folder: str) -> list[str]:
    """What makes a spec of ``cases`` that is too large fit: for each case too large on its own,
    the options that write it smaller (naming the arguments whose differing values it lists,
    the largest first, as many as it takes); else, every case fitting alone, one file per case
    (``folder``)."""
    from toolexpect.snapshot import spec_text
    from toolexpect.snapshot.take import listed_arguments
    from toolexpect.specfiles.stages import MAX_SPEC_BYTES

    alone = [(case, spec_text([case], line_length=width)) for case in cases]
    large = [(case, text) for case, text in alone if _too_large(text) is not None]
    if not large:
        return [f"each case fits in a file of its own: give {folder} for one file per case"]
    hints = []
    for case, text in large[:_SHOWN]:
        excess = len(text.encode("utf-8", "surrogateescape")) - MAX_SPEC_BYTES
        named, saved = [], 0
        for listed in listed_arguments(case):
            if saved >= excess:
                break
            named.append(listed)
            saved += listed.size + 2 * listed.values
        if not named or saved < excess:
            hints.append(
                f"case {case.name!r} is too large on its own: leave arguments out with "
                "--ignore-args NAMES or --only NAMES, or snapshot fewer runs at a time"
            )
            continue
        lists = ", ".join(
            f"the {item.values:,} values its runs gave {visible(item.name)} of {visible(item.tool)}"
            for item in named
        )
        names = ",".join(dict.fromkeys(visible(item.name) for item in named))
        hints.append(
            f"case {case.name!r} is too large on its own: it lists {lists}; write differing "
            f"values =any with --differing any, {'this argument' if len(named) == 1 else 'these'} "
            f"with --any-args {names}, or leave {'it' if len(named) == 1 else 'them'} out with "
            f"--ignore-args {names}"
        )
    if len(large) > _SHOWN:
        hints.append(f"and {len(large) - _SHOWN:,} more cases are too large on their own")
    return hints


_SHOWN = 3


def _apply(changes: Sequence[FileChange], cases: Sequence[SnapshotCase], width: int, err: IO[str]) -> bool:
    """Write each change's file (through a temporary file); False after the first that fails.
    Nothing is written when a spec would be larger than toolexpect reads: what would make
    ``cases`` fit is said instead."""
    large = [(change.path, _too_large(change.new)) for change in changes]
    for path, problem in large:
        if problem is not None:
            print(f"toolexpect snapshot: cannot write {path}: {problem}", file=err)
    if any(problem for _, problem in large):
        for hint in _fitting(cases, width, "--out a folder"):
            print(f"toolexpect snapshot: {hint}", file=err)
        print("toolexpect snapshot: nothing written", file=err)
        return False
    for change in changes:
        folder = os.path.dirname(change.path)
        try:
            if folder:
                os.makedirs(folder, exist_ok=True)
        except OSError as error:
            print(f"toolexpect snapshot: cannot make {folder}: {error.strerror or error}", file=err)
            return False
        problem = write_text(change.path, change.new)
        if problem is not None:
            print(f"toolexpect snapshot: cannot write {change.path}: {problem}; it is unchanged", file=err)
            return False
    return True
