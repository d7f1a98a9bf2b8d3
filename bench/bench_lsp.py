"""Benchmark ``toolexpect server``: time from a change of a 2,000-line spec to its diagnostics.

Run from the repository root with the environment that has ``toolexpect[lsp]`` installed:

    python bench/bench_lsp.py [--lines 2000] [--changes 20]

A real client (pygls's ``LanguageClient``) starts ``python -m toolexpect server`` over stdio in a
temporary project whose ``pyproject.toml`` names the example tool catalogue (so the catalogue
checks run too), opens a generated spec of about ``--lines`` lines, then sends ``--changes``
edits one at a time, each a whole new text with one argument changed, and each waiting for the
diagnostics of its version. The time includes the server's debounce
(``toolexpect.server.documents.DEBOUNCE``), the analysis (parse, validate, lint, catalogue
checks) and the JSON-RPC traffic both ways. Every other edit breaks the spec, so half the
diagnostics are a syntax error and half are the catalogue's findings. Target: 300 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from toolexpect.server.analysis import Catalogues, analyse
from toolexpect.server.documents import DEBOUNCE

ROOT = Path(__file__).resolve().parents[1]
TARGET = 0.300

CASE = """case "weather {i}" {{
    question "What is the weather in Berlin on day {i}?"
    expect get_weather(city="Berlin", unit? in ["celsius", "fahrenheit"], days={days})
    expect get_forecast(city="Berlin", days <= 7)
    forbid delete_user
    require no unexpected calls
}}

"""


def spec(lines: int, edit: int) -> str:
    """A spec of about ``lines`` lines; edit ``edit`` changes one argument, and every odd edit
    leaves a call unclosed (a syntax error)."""
    cases = [CASE.format(i=i, days=1 + (i + edit) % 7) for i in range(max(1, lines // 8))]
    if edit % 2:
        cases[len(cases) // 2] = cases[len(cases) // 2].replace('city="Berlin")', 'city="Berlin"', 1)
    return "".join(cases)


async def measure(lines: int, changes: int) -> tuple[int, int, list[float]]:
    """The text's line count, the diagnostics of the first version, and each change's time."""
    folder = Path(tempfile.mkdtemp(prefix="bench-lsp-"))
    try:
        (folder / "pyproject.toml").write_text('[tool.toolexpect]\ntools = "tools.json"\n', encoding="utf-8")
        shutil.copy(ROOT / "specs" / "tools.json", folder / "tools.json")
        path = folder / "big.expect"
        text = spec(lines, 0)
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()

        client = LanguageClient("bench", "1")
        arrived: dict[int, float] = {}
        first: list[int] = []

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            if params.uri == uri and params.version is not None:
                arrived[params.version] = time.perf_counter()
                if params.version == 1:
                    first.append(len(params.diagnostics))

        await client.start_io(sys.executable, "-m", "toolexpect", "server")
        await client.initialize_async(
            types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri=folder.as_uri())
        )
        client.initialized(types.InitializedParams())
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="toolexpect", version=1, text=text)
            )
        )
        await _until(arrived, 1)
        times = []
        for version in range(2, changes + 2):
            sent = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=spec(lines, version))],
                )
            )
            await _until(arrived, version)
            times.append(arrived[version] - sent)
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        return text.count("\n"), first[0], times
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _until(arrived: dict[int, float], version: int, limit: float = 60.0) -> None:
    async with asyncio.timeout(limit):
        while version not in arrived:
            await asyncio.sleep(0.001)


def in_process(lines: int, runs: int) -> tuple[float, float]:
    """The median wall and CPU time of the analysis alone (lint and the catalogue checks), in this
    process. CPU time says what the analysis costs when other work shares the machine."""
    folder = Path(tempfile.mkdtemp(prefix="bench-lsp-"))
    try:
        (folder / "pyproject.toml").write_text('[tool.toolexpect]\ntools = "tools.json"\n', encoding="utf-8")
        shutil.copy(ROOT / "specs" / "tools.json", folder / "tools.json")
        catalogues = Catalogues()
        times, cpu = [], []
        for edit in range(runs):
            text = spec(lines, edit)
            start, start_cpu = time.perf_counter(), time.process_time()
            analyse(text, str(folder / "big.expect"), catalogues)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        return statistics.median(times), statistics.median(cpu)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2000, help="lines of the spec (default: 2000)")
    parser.add_argument("--changes", type=int, default=20, help="edits to time (default: 20)")
    args = parser.parse_args()
    lines, diagnostics, times = asyncio.run(measure(args.lines, args.changes))
    median = statistics.median(times)
    print(f"spec: {lines:,} lines; {diagnostics} diagnostics on open; debounce {DEBOUNCE * 1000:.0f} ms")
    print(
        f"change -> diagnostics: median {median * 1000:.0f} ms, min {min(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms over {len(times)} changes "
        f"(target {TARGET * 1000:.0f} ms: {'met' if median <= TARGET else 'MISSED'})"
    )
    alone, cpu = in_process(args.lines, min(args.changes, 10))
    print(
        f"the analysis alone (lint and catalogue checks, in-process median): {alone * 1000:.0f} ms "
        f"wall, {cpu * 1000:.0f} ms CPU"
    )


if __name__ == "__main__":
    main()
