"""Peak memory of parsing specs that hold one long list or one long object.

Run from the repository root with the environment that has toolexpect installed:

    python bench/bench_parse_memory.py [--kib 64 256 1024]

For each size, a spec of one argument holding a list of numbers (``[10000,10001,…]``) and one
holding an object (``{k0: 10000, …}``) of about that many KiB is parsed once under
``tracemalloc``; it prints the size, the peak traced memory while parsing, the memory the
document keeps, and the peak as a multiple of the text. The parser keeps values, not tokens,
so the multiple stays the same at every size. Times are shown too, but ``tracemalloc`` slows
the parse several times over: time parsing with ``bench_lint.py``.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from toolexpect.language.parse import parse_text


def _spec(kind: str, size: int) -> str:
    parts: list[str] = []
    length = 0
    index = 0
    while length < size:
        part = f"{10_000 + index}" if kind == "list" else f"k{index}: {10_000 + index}"
        parts.append(part)
        length += len(part) + 2
        index += 1
    body = ", ".join(parts)
    return f"expect t(x=[{body}])\n" if kind == "list" else f"expect t(x={{{body}}})\n"


def main() -> None:
    """Print the peak memory of parsing each spec."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kib", type=int, nargs="+", default=[64, 256, 1024])
    args = parser.parse_args()
    parse_text("expect t(x=[1])", "warm-up")  # builds (or loads) the parser first
    print(f"{'spec':<8} {'bytes':>10} {'peak MiB':>9} {'kept MiB':>9} {'peak/text':>9} {'seconds':>8}")
    for kib in args.kib:
        for kind in ("list", "object"):
            text = _spec(kind, kib * 1024)
            tracemalloc.start()
            started = time.perf_counter()
            result = parse_text(text, "bench")
            elapsed = time.perf_counter() - started
            kept, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            assert result.document is not None, result.diagnostics
            size = len(text.encode())
            print(
                f"{kind:<8} {size:>10,} {peak / 2**20:>9.1f} {kept / 2**20:>9.1f} "
                f"{peak / size:>9.1f} {elapsed:>8.1f}"
            )


if __name__ == "__main__":
    main()
