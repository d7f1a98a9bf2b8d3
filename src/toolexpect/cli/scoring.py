"""The commands on recorded runs: ``score``, ``diff``, ``calls``."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, TypeVar, cast

from toolexpect.cli.common import (
    EXIT_BELOW,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    load_all,
    load_tools,
    logs_given_as_specs,
    no_spec_files,
    print_diagnostics,
    replacing,
    report_log_diagnostics,
    report_pairing_diagnostics,
    shown_path,
    write_text,
)
from toolexpect.diagnostics import Severity
from toolexpect.report import diagnostics as diagnostic_report
from toolexpect.report.style import Style
from toolexpect.scoring.inputs import distinct_logs, repeated_case_names
from toolexpect.specfiles.stages import SpecFile
from toolexpect.spelling import COMMAND_LINE

if TYPE_CHECKING:
    from toolexpect.baseline.compare import Comparison
    from toolexpect.calls import LogRecords
    from toolexpect.catalogue import Catalogue
    from toolexpect.logs import LogReader
    from toolexpect.pairing import PairingOptions
    from toolexpect.scoring.partial import ScoreReport


__all__ = ["cmd_calls", "cmd_diff", "cmd_score"]

T = TypeVar("T")


def _without_gc(work: Callable[[], T]) -> T:
    """Run ``work`` with the cyclic garbage collector paused, the objects it leaves settled in
    the oldest generation (:func:`~toolexpect.matching.collector.collector_paused`)."""
    from toolexpect.matching.collector import collector_paused

    with collector_paused(settle=True):
        return work()


def cmd_score(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect score``: score recorded runs against specs and write the reports."""
    from toolexpect.cli.progress import progress, wanted
    from toolexpect.logs import LogError, open_logs
    from toolexpect.pairing.advice import PAIRING_CODES
    from toolexpect.report import score as score_report

    pairing = _pairing(args, err)
    if pairing is None:
        return EXIT_USAGE
    files, empty = load_all(args.specs)
    bad = [d for f in files.values() for d in f.diagnostics if d.severity is Severity.ERROR]
    if bad or empty:
        print_diagnostics(bad, files, "full", err)
        for folder in empty:
            print(f"toolexpect: {no_spec_files(folder)}", file=err)
        for path in logs_given_as_specs(args.specs, {d.path for d in bad}):
            print(
                f"toolexpect: {path} looks like a log, not a spec: give --log once per log "
                "(--log a.jsonl --log b.jsonl)",
                file=err,
            )
        if bad:
            print("toolexpect: fix the spec errors above before scoring", file=err)
        return EXIT_USAGE
    specs = [f.spec for f in files.values() if f.spec is not None]
    if not any(spec.cases for spec in specs):
        print(f"toolexpect: no case to score in {', '.join(args.specs)}", file=err)
        return EXIT_USAGE
    log_paths, repeated = distinct_logs(args.log)
    names = [(path, [c.name for c in f.spec.cases]) for path, f in files.items() if f.spec is not None]
    for warning in [*repeated_case_names(names), *repeated]:
        print(f"toolexpect: warning: {warning}", file=err)
    baseline, readable = _load_baseline(args, err)
    if not readable:
        return EXIT_USAGE
    catalogue, readable = load_tools(args.tools, args.tools_format, err, args.tools_origin)
    if not readable:
        return EXIT_USAGE
    formats = {args.format, *(fmt for fmt, _ in args.outputs)}
    # Only the JSON report (also under html and --baseline) lists every failing run.
    every_run = bool(formats & {"json", "html"}) or args.baseline
    explained = None if every_run else score_report.MAX_RUNS_SHOWN
    if args.dask is not None:
        from toolexpect.cli.cluster import refused, score_on_dask

        problem = refused(args)
        if problem is not None:
            print(f"toolexpect: {problem}", file=err)
            return EXIT_USAGE
    try:
        with progress(err, wanted(err, args.quiet)) as display:
            readers = [] if args.dask is not None else open_logs(log_paths, args.log_format)
            plain = pairing == type(pairing)() and bool(readers) and readers[0].format == "canonical"
            tools = cast("Catalogue | None", catalogue)
            if args.dask is not None:
                from toolexpect.cli.cluster import score_on_dask

                display.busy("scoring on a Dask cluster")
                found = _without_gc(
                    lambda: score_on_dask(args, log_paths, specs, explained, tools, pairing, err)
                )
                if found is None:
                    return EXIT_USAGE
                report = found
            elif catalogue is None and len(readers) == 1 and args.jobs > 1 and plain:
                from toolexpect.scale.processes import score_log

                display.busy(f"scoring {log_paths[0]} with up to {args.jobs} processes")
                jobs = args.jobs

                def told(why: str) -> None:
                    if not args.quiet:
                        print(f"toolexpect: note: -j {jobs} scores in one process here: {why}", file=err)

                report = _without_gc(
                    lambda: score_log(
                        specs, readers[0], jobs, explained=explained, spelling=COMMAND_LINE, told=told
                    )
                )
            else:
                from toolexpect.scale.partition import score_read
                from toolexpect.scoring.partial import CompiledSpecs

                if args.jobs > 1 and not args.quiet:
                    why = _one_process(len(readers), catalogue is not None, pairing, readers)
                    print(f"toolexpect: note: -j {args.jobs} scores in one process here: {why}", file=err)
                compiled = CompiledSpecs.of(specs)
                shown = ", ".join(log_paths)
                partial = _without_gc(
                    lambda: score_read(
                        compiled,
                        readers,
                        at=(0,),
                        explained=explained,
                        tools=tools,
                        pairing=pairing,
                        through=lambda runs: display.samples(runs, shown),
                    )
                )
                report = compiled.finish(partial, spelling=COMMAND_LINE)
    except LogError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return EXIT_USAGE
    report_log_diagnostics([d for d in report.log_diagnostics if d.code not in PAIRING_CODES], err)
    report_pairing_diagnostics([d for d in report.log_diagnostics if d.code in PAIRING_CODES], err)
    if args.verbose:
        _say_records(report.log_records, err)
    extras = _ScoreExtras(args, files, baseline, report, "html" in formats)
    if not args.output:
        _write_report(report, extras, args.format, out, err)
    elif not _write_file(report, extras, args.format, args.output, err, err):
        return EXIT_USAGE
    for fmt, path in args.outputs:
        if not _write_file(report, extras, fmt, path, None, err):
            return EXIT_USAGE
    if args.output:  # the report is not on the terminal: its summary line is, on standard error
        from toolexpect.report.summary import summary_line

        written = [args.output, *(path for _, path in args.outputs)]
        shown = ", ".join(shown_path(path) for path in written)
        print(f"{summary_line(report)}; report{'s' * (len(written) > 1)} written to {shown}", file=err)
    if report.unreadable_partitions:  # on a cluster: the rest was scored, and is reported
        print("toolexpect: a log could not be read (see above); the report covers the rest", file=err)
        return EXIT_USAGE
    return extras.exit_code(err)


def _pairing(args: argparse.Namespace, err: IO[str]) -> PairingOptions | None:
    """The pairing options (``--pair-by``, ``--case-from``, else ``[tool.toolexpect]``); None,
    and a message, when they are invalid."""
    from toolexpect.pairing import PairingOptions

    try:
        return PairingOptions(args.pair_by, args.case_from)
    except ValueError as error:
        print(f"toolexpect: {error}", file=err)
        return None


def _write_file(
    report: ScoreReport, extras: _ScoreExtras, fmt: str, path: str, aside: IO[str] | None, err: IO[str]
) -> bool:
    """Write the report in ``fmt`` to ``path`` (see ``replacing``); False, and a message, on failure."""
    try:
        with replacing(path) as handle:
            _write_report(report, extras, fmt, handle, aside)
    except OSError as error:
        problem = error.strerror or str(error)
        print(f"toolexpect: cannot write {shown_path(path)}: {problem}; the file is unchanged", file=err)
        return False
    return True


def _write_report(
    report: ScoreReport, extras: _ScoreExtras, fmt: str, stream: IO[str], err: IO[str] | None
) -> None:
    """Render the score report in ``fmt`` (and what ``--baseline`` adds) to ``stream``; the
    comparison that does not fit a data format goes to ``err`` (left out when None)."""
    from toolexpect.report import score as score_report

    style = Style.of(stream)
    if extras.replaces_report(fmt):
        stream.write(extras.instead_of_report(fmt, style))
    else:
        chunks = score_report.render_chunks
        quiet, verbose, width = extras.args.quiet, extras.args.verbose, _text_width(stream)
        _without_gc(
            lambda: stream.writelines(
                chunks(report, fmt, style=style, quiet=quiet, verbose=verbose, width=width)
            )
        )
        stream.write(extras.after_report(fmt, style, err))


def _text_width(stream: IO[str]) -> int | None:
    """The width the text report fits on ``stream``: its terminal's when it is one, else
    ``COLUMNS`` when set, else None (the report's own default)."""
    import os

    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        try:
            return os.get_terminal_size(stream.fileno()).columns
        except (OSError, ValueError, AttributeError):
            pass
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else None


def write_output(path: str, text: str, err: IO[str]) -> bool:
    """Write a report to ``path`` as ``-o`` does; False (and a message) when it cannot be."""
    problem = write_text(path, text)
    if problem is not None:
        print(f"toolexpect: cannot write {shown_path(path)}: {problem}; the file is unchanged", file=err)
        return False
    return True


def _load_baseline(args: argparse.Namespace, err: IO[str]) -> tuple[dict[str, object] | None, bool]:
    """The report given with ``--baseline`` (None without one); False when it is refused."""
    if args.fail_on == "regression" and not args.baseline:
        print("toolexpect: --fail-on regression needs --baseline REPORT to compare with", file=err)
        return None, False
    if args.fail_on == "mean-only" and args.fail_under is None:
        print("toolexpect: --fail-on mean-only needs --fail-under X, the mean to gate on", file=err)
        return None, False
    if not args.baseline:
        return None, True
    from toolexpect.baseline.load import ReportError, load_report

    try:
        return load_report(args.baseline), True
    except ReportError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return None, False


class _ScoreExtras:
    """What ``--baseline``, the HTML report and ``--fail-under`` add to a score report.

    With a baseline, ``text`` and ``markdown`` reports are followed by the comparison,
    ``github`` annotates only what changed, and the comparison of a ``json`` or ``junit``
    report on standard output goes to standard error, so that standard output stays that
    document.
    """

    def __init__(
        self,
        args: argparse.Namespace,
        files: dict[str, SpecFile],
        baseline: dict[str, object] | None,
        report: ScoreReport,
        html: bool,
    ) -> None:
        self.args = args
        self.files = files
        self.report = report
        self.comparison: Comparison | None = None
        self.document: dict[str, object] | None = None
        if baseline is not None or html:
            from toolexpect.report.score import to_json

            self.document = to_json(report)
        if baseline is not None and self.document is not None:
            from toolexpect.baseline.compare import compare

            self.comparison = compare(baseline, self.document)

    def replaces_report(self, fmt: str) -> bool:
        """True when the output in ``fmt`` is not the score report's own rendering."""
        return fmt == "html" or (self.comparison is not None and fmt == "github")

    def _diff(self, fmt: str, style: Style) -> str:
        from toolexpect.report import diff as diff_report

        assert self.comparison is not None
        new_name = self.args.output or "this run"
        return diff_report.render(
            self.comparison, fmt, style=style, old_name=self.args.baseline, new_name=new_name
        )

    def html(self) -> str:
        """The HTML report, with the comparison when there is a baseline."""
        from toolexpect.report.html import render_html

        assert self.document is not None
        sources = {path: loaded.text for path, loaded in self.files.items() if loaded.text is not None}
        return render_html(self.document, sources=sources, comparison=self.comparison)

    def instead_of_report(self, fmt: str, style: Style) -> str:
        """The output when it replaces the report: the HTML page or the comparison's annotations."""
        if fmt == "html":
            return self.html()
        return self._diff("github", style)

    def after_report(self, fmt: str, style: Style, err: IO[str] | None) -> str:
        """What follows the report on its stream (the comparison goes to ``err`` for data formats)."""
        if self.comparison is None:
            return ""
        if fmt in ("text", "markdown"):
            return "\n" + self._diff(fmt, style)
        if err is not None:
            err.write(self._diff("text", Style.of(err)))
        return ""

    def exit_code(self, err: IO[str]) -> int:
        """The verdict of the cases, then the gate ``--fail-under`` adds to it.

        1 on a regression against the baseline (``--fail-on regression``, the default with
        ``--baseline``), on any failing case (``--fail-on any-failure``, the default without),
        whatever the mean accuracy, and on an unreadable log record (under a baseline, only
        with ``--fail-under``); else 3 when the mean accuracy is below ``--fail-under``; else 0.
        ``--fail-on mean-only`` leaves the cases' verdicts out: only the mean (and an
        unreadable record) decides.
        """
        fail_under = self.args.fail_under
        below = fail_under is not None and self._below(fail_under, err)
        fail_on = self.args.fail_on or ("regression" if self.comparison is not None else "any-failure")
        if fail_on == "regression" and self.comparison is not None and self.comparison.regressed:
            return EXIT_FINDINGS
        if fail_on == "any-failure" and not self.report.ok:
            return EXIT_FINDINGS
        if fail_under is not None and self.report.unreadable_records:
            return EXIT_FINDINGS
        return EXIT_BELOW if below else EXIT_OK

    def _below(self, fail_under: float, err: IO[str]) -> bool:
        """True, and a line on ``err`` saying both figures, when the mean accuracy is below ``fail_under``."""
        from toolexpect.report.overall import overall

        accuracy = overall(self.report).accuracy
        if accuracy is not None and accuracy >= fail_under:
            return False
        shown = "no case has an accuracy" if accuracy is None else f"the mean accuracy {accuracy:.4g}"
        print(f"toolexpect: {shown} is below --fail-under {fail_under:g}", file=err)
        return True


def cmd_diff(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect diff``: compare two JSON score reports."""
    from toolexpect.baseline.compare import compare
    from toolexpect.baseline.load import ReportError, load_report
    from toolexpect.report import diff as diff_report

    try:
        old, new = load_report(args.old), load_report(args.new)
    except ReportError as error:
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return EXIT_USAGE
    comparison = compare(old, new)
    style = Style(False) if args.output else Style.of(out)
    text = diff_report.render(comparison, args.format, style=style, old_name=args.old, new_name=args.new)
    if args.output:
        if not write_output(args.output, text, err):
            return EXIT_USAGE
    else:
        out.write(text)
    if args.fail_on == "any-failure":
        return EXIT_FINDINGS if comparison.new_failures else EXIT_OK
    return EXIT_FINDINGS if comparison.regressed else EXIT_OK


def cmd_calls(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """``toolexpect calls``: print the tool calls found in recorded logs, as they are read."""
    from toolexpect.logs import LogError, open_logs
    from toolexpect.pairing import pair_runs
    from toolexpect.report.calls import calls_json_chunks, calls_table_chunks

    pairing = _pairing(args, err)
    if pairing is None:
        return EXIT_USAGE
    try:
        readers = open_logs(args.logs, args.log_format)
        paired = pair_runs([], readers, pairing, spelling=COMMAND_LINE)
        logs = [(reader.path, reader.format) for reader in readers]
        chunks = calls_json_chunks if args.format == "json" else calls_table_chunks
        for chunk in chunks(logs, paired):
            out.write(chunk)
    except LogError as error:
        out.flush()
        print(diagnostic_report.render([error.diagnostic], "full"), file=err)
        return EXIT_USAGE
    report_log_diagnostics([d for r in readers for d in r.diagnostics], err)
    report_pairing_diagnostics(paired.diagnostics, err)
    if args.verbose:
        _say_records([reader.records for reader in readers], err)
    return EXIT_OK


def _say_records(records: Sequence[LogRecords], err: IO[str]) -> None:
    """One line per log: what became of its records (``-v``)."""
    from toolexpect.report.summary import records_line

    for counted in records:
        print(f"toolexpect: {records_line(counted)}", file=err)


def _one_process(logs: int, tools: bool, pairing: object, readers: Sequence[LogReader]) -> str:
    """Why ``score -j N`` scores in one process: what only one process does today."""
    if logs != 1:
        return f"it cuts one log into blocks, and {logs} logs are given"
    if tools:
        return "--tools checks calls in one process"
    if pairing != type(pairing)():
        return "runs paired with cases other than by id are scored in one process"
    return f"only canonical JSON Lines is cut into blocks, and this log is {readers[0].format}"
