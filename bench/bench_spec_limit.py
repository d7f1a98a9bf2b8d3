"""Benchmark lint and compile on the largest specs allowed, stage by stage, at three sizes.

Run from the repository root with the environment that has toolexpect installed:

    python bench/bench_spec_limit.py [--sizes 1024,512,256,128] [--repeat 2]

Two kinds of spec at each size (KiB; 256 is ``specfile.MAX_SPEC_BYTES``): hand-written
cases (those of ``bench_lint.py``, repeated until the size is reached) and the worst case, one
list of one-character values (``expect t(x=[1,1,...])``, about a million tokens at 1 MiB).
For each it prints the tokens, the seconds of each stage in-process (parse: lark's lexer and
LALR parser with toolexpect's post-lexer and transformer; validate; lint), the whole
``toolexpect lint`` and ``toolexpect compile`` commands run in-process (compile's output goes
to ``os.devnull``), and lark alone: lark's lexer and LALR parser of the same grammar, built
with the same options, whose embedded transformer does nothing (and no post-lexer, which
these specs do not need), a floor that no change of toolexpect's own code can go under.
Times are CPU seconds of this process (``time.process_time``), best of ``--repeat``, because
the machine may be shared; the wall time of ``lint`` and the load average are shown beside them.
Above the limit the commands refuse the file (P105), so their columns read ``over``; the stages
in-process are still measured, to show how the time grows.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lint import _case


def hand_written(size: int) -> str:
    """Whole hand-written cases, as many as fit in ``size`` bytes."""
    parts: list[str] = []
    used = index = 0
    while True:
        case = _case(index)
        if used + len(case.encode()) > size:
            return "".join(parts)
        parts.append(case)
        used += len(case.encode())
        index += 1


def worst_case(size: int) -> str:
    """One list of one-character values filling ``size`` bytes: the most tokens per byte."""
    head, tail = "expect t(x=[", "])\n"
    count = (size - len(head) - len(tail) + 1) // 2
    return head + ",".join(["1"] * count) + tail


class Hollow(NamedTuple):
    """What lark's parser gets for each rule from the transformer that does nothing."""

    children: list[Any]


def _best(repeat: int, run: Callable[[], Any]) -> tuple[float, float]:
    """The least CPU seconds and the least wall seconds of ``repeat`` runs of ``run``."""
    cpu = wall = float("inf")
    for _ in range(repeat):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        run()
        cpu = min(cpu, time.process_time() - start_cpu)
        wall = min(wall, time.perf_counter() - start_wall)
    return cpu, wall


def measure(path: Path, repeat: int) -> dict[str, float]:
    """The figures of one spec file."""
    from lark import Lark, Transformer

    from toolexpect import lint, schema
    from toolexpect.cli import main
    from toolexpect.language.grammar import _OPTIONS, grammar_text
    from toolexpect.language.parse import parse_text

    text = path.read_text(encoding="utf-8")

    class Nothing(Transformer[Any, Any]):
        def __default__(self, data: Any, children: Any, meta: Any) -> Any:
            return Hollow([])  # lark reads ``children`` of the rules it inlines

    lark_alone = Lark(grammar_text(), transformer=Nothing(), **_OPTIONS)
    lark_alone.parse(text)  # builds its lexers' scanners outside the measurement
    figures: dict[str, float] = {"tokens": sum(1 for _ in Lark(grammar_text(), parser="lalr").lex(text))}
    figures["lark alone"], _ = _best(repeat, lambda: lark_alone.parse(text))
    figures["parse"], _ = _best(repeat, lambda: parse_text(text, "spec"))
    parsed = parse_text(text, "spec")
    document = parsed.document
    if document is None:
        raise SystemExit(f"generated spec does not parse: {parsed.diagnostics[:1]}")
    locate = schema.locate_in_document(document)
    figures["validate"], _ = _best(repeat, lambda: schema.validate(document, locate, trusted_spans=True))
    figures["lint"], _ = _best(repeat, lambda: lint.check(document, locate, parsed.repeats))

    from toolexpect.caching import cache_folder

    folder = cache_folder()

    def command(*argv: str) -> None:
        if folder is not None:  # a first pass: the spec is parsed, not read from the spec cache
            shutil.rmtree(os.path.join(folder, "specs"), ignore_errors=True)
        with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
            if main([*argv, str(path)]) != 0:
                raise SystemExit(f"toolexpect {argv[0]} failed on {path}")

    from toolexpect.specfiles.stages import MAX_SPEC_BYTES

    if path.stat().st_size > MAX_SPEC_BYTES:  # the commands refuse it (P105)
        figures["lint cmd"] = figures["lint wall"] = figures["compile cmd"] = math.nan
        return figures
    figures["lint cmd"], figures["lint wall"] = _best(repeat, lambda: command("lint"))
    figures["compile cmd"], _ = _best(repeat, lambda: command("compile"))
    return figures


def main() -> int:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1024,512,256,128", help="spec sizes in KiB, comma-separated")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each stage; the least is kept")
    args = parser.parse_args()
    from toolexpect.language.parse import parse_text

    parse_text("expect t")  # build (or load) the parser outside the measurement
    columns = ("lark alone", "parse", "validate", "lint", "lint cmd", "compile cmd", "lint wall")
    print(f"load average at start: {', '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    print("CPU seconds, best of", args.repeat, "(lint wall: wall seconds of the lint command)")
    print(f"{'spec':<14}{'KiB':>6}{'tokens':>11}" + "".join(f"{c:>13}" for c in columns))
    with tempfile.TemporaryDirectory() as folder:
        for size in (int(s) * 1024 for s in args.sizes.split(",")):
            for kind, make in (("hand-written", hand_written), ("worst case", worst_case)):
                path = Path(folder) / f"{kind.replace(' ', '-')}-{size}.expect"
                path.write_text(make(size), encoding="utf-8")
                figures = measure(path, args.repeat)
                cells = "".join(
                    f"{'over':>13}" if math.isnan(figures[c]) else f"{figures[c]:>13.2f}" for c in columns
                )
                print(f"{kind:<14}{size // 1024:>6}{int(figures['tokens']):>11,}{cells}", flush=True)
    print(f"load average at end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
