"""How the cost of formatting a spec and of rendering reports grows with their size.

Run ``python bench/bench_render.py`` (``--quick`` for smaller sizes). For each size it prints the
seconds taken and the ratio to the previous size (about 2 for a size twice as large means the
cost grows linearly, about 4 means quadratically):

1. ``format`` of a spec of N statements, each with a comment above it and one after it
   (comments are given to their statements by bisection);
2. the text, JSON and HTML reports of a generated corpus of N runs (``corpus.py``), scored once.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import generate, write_spec_and_log

from toolexpect.language.format import format_document
from toolexpect.logs import open_log
from toolexpect.report.html import render_html
from toolexpect.report.score import render
from toolexpect.report.score_json import to_json
from toolexpect.scoring.partial import score
from toolexpect.specfiles.stages import parse_spec_source


def _best(work: Callable[[], object], rounds: int = 3) -> float:
    """The fastest of ``rounds`` runs of ``work``, in seconds."""
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def _format(statements: int) -> float:
    text = "".join(f"# about {i}\nexpect t(x={i})  # after {i}\n" for i in range(statements))
    loaded = parse_spec_source(text)
    assert loaded.document is not None
    document, comments = loaded.document, loaded.comments
    return _best(lambda: format_document(document, comments))


def _reports(scenarios: int, folder: Path) -> dict[str, float]:
    from toolexpect.cli.common import load_all

    spec, log = write_spec_and_log(generate(scenarios=scenarios, runs=20)["samples"], folder)
    files, _ = load_all([str(spec)])
    specs = [f.spec for f in files.values() if f.spec is not None]
    report = score(specs, iter(open_log(log)))
    return {
        "text": _best(lambda: render(report, "text")),
        "json": _best(lambda: render(report, "json")),
        "html": _best(lambda: render_html(to_json(report))),
    }


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes")
    quick = parser.parse_args().quick
    sizes = [2_000, 4_000, 8_000] if quick else [4_000, 8_000, 16_000, 32_000]
    print("format: statements, seconds, ratio to the previous size")
    previous = None
    for size in sizes:
        seconds = _format(size)
        ratio = f"{seconds / previous:.2f}x" if previous else ""
        print(f"  {size:>7,}  {seconds:7.3f} s  {ratio}")
        previous = seconds
    print("reports: runs, seconds for text / json / html, ratio to the previous size")
    before: dict[str, float] = {}
    for scenarios in [50, 100, 200] if quick else [100, 200, 400, 800]:
        with tempfile.TemporaryDirectory() as folder:
            figures = _reports(scenarios, Path(folder))
        cells = "  ".join(
            f"{name} {seconds:6.3f} s" + (f" ({seconds / before[name]:.2f}x)" if before else "")
            for name, seconds in figures.items()
        )
        print(f"  {scenarios * 20:>7,}  {cells}")
        before = figures


if __name__ == "__main__":
    main()
