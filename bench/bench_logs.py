"""Throughput and memory of the log readers; run it by hand: ``python bench/bench_logs.py``.

Generates (fixed seed) a canonical JSON Lines log of 100,000 samples of about 8 calls each,
and provider-format logs (OpenAI chat completions, Anthropic messages, OpenAI stream
chunks, gateway request/response records, Gemini responses, LangChain ``dumpd`` chunks),
under ``bench/.cache/``. Prints, per log, the time ``open_log`` takes to read
every sample against the time of ``json.loads`` alone on each line (the ratio; targets:
2x canonical, 4x provider formats), and the peak traced memory reading 10k vs 100k
samples (it should stay flat: the readers stream).
"""

from __future__ import annotations

import json
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from toolexpect.logs import open_log

CACHE = Path(__file__).resolve().parent / ".cache"
TOOLS = ["get_weather", "search_flights", "book_hotel", "send_email", "lookup_user", "convert"]


def _args(rng: random.Random) -> dict[str, Any]:
    return {
        "city": rng.choice(["Berlin", "Paris", "Rome", "Oslo"]),
        "days": rng.randint(1, 14),
        "ratio": round(rng.random(), 3),
        "filters": {"stars": [rng.randint(1, 5)], "wifi": rng.random() < 0.5},
    }


def _calls(rng: random.Random) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for j in range(rng.randint(6, 10)):
        yield f"call_{j}", rng.choice(TOOLS), _args(rng)


def canonical(i: int, rng: random.Random) -> list[dict[str, Any]]:
    """One canonical sample."""
    calls = [{"name": n, "arguments": a, "id": c} for c, n, a in _calls(rng)]
    return [{"id": f"case {i}", "tool_calls": calls}]


def openai(i: int, rng: random.Random) -> list[dict[str, Any]]:
    """One chat completion with parallel tool calls (arguments as JSON strings)."""
    calls = [
        {"id": c, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for c, n, a in _calls(rng)
    ]
    message = {"role": "assistant", "content": None, "tool_calls": calls}
    return [
        {
            "id": f"chatcmpl-{i}",
            "object": "chat.completion",
            "model": "gpt-4o",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        }
    ]


def anthropic(i: int, rng: random.Random) -> list[dict[str, Any]]:
    """One Messages response with tool_use blocks."""
    blocks = [{"type": "tool_use", "id": c, "name": n, "input": a} for c, n, a in _calls(rng)]
    return [{"id": f"msg_{i}", "type": "message", "role": "assistant", "content": blocks}]


def openai_stream(i: int, rng: random.Random) -> list[dict[str, Any]]:
    """Stream chunks: each call's arguments in three fragments."""
    sid = f"chatcmpl-s{i}"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {"id": sid, "object": "chat.completion.chunk", "choices": [choice]}

    out = [chunk({"role": "assistant"})]
    for k, (c, n, a) in enumerate(_calls(rng)):
        text = json.dumps(a)
        cut1, cut2 = len(text) // 3, 2 * len(text) // 3
        fn = {"name": n, "arguments": text[:cut1]}
        out.append(chunk({"tool_calls": [{"index": k, "id": c, "type": "function", "function": fn}]}))
        for part in (text[cut1:cut2], text[cut2:]):
            out.append(chunk({"tool_calls": [{"index": k, "function": {"arguments": part}}]}))
    out.append(chunk({}, "tool_calls"))
    return out


def openai_envelope(i: int, rng: random.Random) -> list[dict[str, Any]]:
    """A gateway's request/response record: the request's history holds one earlier call."""
    earlier = {"id": f"call_h{i}", "type": "function", "function": {"name": "lookup_user", "arguments": "{}"}}
    request = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": f"question {i}"},
            {"role": "assistant", "content": None, "tool_calls": [earlier]},
            {"role": "tool", "tool_call_id": f"call_h{i}", "content": "ok"},
        ],
    }
    return [{"id": f"case {i}", "request": request, "response": openai(i, rng)[0], "latency_ms": 800}]


def gemini(i: int, rng: random.Random) -> list[dict[str, Any]]:
    """One generateContent response (camelCase, as the REST API writes it)."""
    parts = [{"functionCall": {"name": n, "args": a}} for _c, n, a in _calls(rng)]
    candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
    return [{"candidates": [candidate], "responseId": f"g{i}", "modelVersion": "gemini-2.5-flash"}]


def langchain_chunks(i: int, rng: random.Random) -> list[dict[str, Any]]:
    """``dumpd`` of each streamed ``AIMessageChunk``: each call's arguments in three fragments."""
    mid = f"lc_run--{i}"

    def chunk(parts: list[dict[str, Any]], last: bool = False) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": "",
            "type": "AIMessageChunk",
            "id": mid,
            "tool_call_chunks": parts,
        }
        if last:
            kwargs["chunk_position"] = "last"
        return {
            "lc": 1,
            "type": "constructor",
            "id": ["langchain", "schema", "messages", "AIMessageChunk"],
            "kwargs": kwargs,
        }

    out = []
    for k, (c, n, a) in enumerate(_calls(rng)):
        text = json.dumps(a)
        cut1, cut2 = len(text) // 3, 2 * len(text) // 3
        out.append(chunk([{"name": n, "args": text[:cut1], "id": c, "index": k, "type": "tool_call_chunk"}]))
        for part in (text[cut1:cut2], text[cut2:]):
            out.append(
                chunk([{"name": None, "args": part, "id": None, "index": k, "type": "tool_call_chunk"}])
            )
    out.append(chunk([], last=True))
    return out


def write(name: str, make: Callable[[int, random.Random], list[dict[str, Any]]], n: int) -> Path:
    """Write (once) a log of ``n`` samples."""
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"{name}-{n}.jsonl"
    if not path.exists():
        rng = random.Random(20240601)
        with path.open("w") as handle:
            for i in range(n):
                for record in make(i, rng):
                    handle.write(json.dumps(record) + "\n")
    return path


def time_json(path: Path) -> float:
    """Seconds for ``json.loads`` of every line."""
    loads = json.loads
    start = time.perf_counter()
    with path.open("rb") as handle:
        for line in handle:
            loads(line)
    return time.perf_counter() - start


def time_reader(path: Path) -> tuple[float, int, int]:
    """Seconds to read every sample with ``open_log``, samples and calls read."""
    start = time.perf_counter()
    samples = calls = 0
    for sample in open_log(path):
        samples += 1
        calls += len(sample.calls)
    return time.perf_counter() - start, samples, calls


def peak(path: Path) -> int:
    """Peak traced memory (bytes) reading every sample without keeping them."""
    tracemalloc.start()
    for _ in open_log(path):
        pass
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def main(argv: list[str]) -> int:
    """Run the benchmark and print a table (``bench_logs.py [N] [LOG ...]`` runs only those logs)."""
    n = int(argv[1]) if len(argv) > 1 else 100_000
    logs = [
        ("canonical", canonical, 2.0),
        ("openai-chat", openai, 4.0),
        ("anthropic", anthropic, 4.0),
        ("openai-stream", openai_stream, 4.0),
        ("openai-envelope", openai_envelope, 4.0),
        ("gemini", gemini, 4.0),
        ("lc-chunks", langchain_chunks, 4.0),
    ]
    if len(argv) > 2:
        logs = [entry for entry in logs if entry[0] in argv[2:]]
    print(
        f"{'log':<16}{'samples':>9}{'calls':>10}{'MB':>8}{'json s':>9}{'read s':>9}{'ratio':>7}{'target':>8}"
    )
    for name, make, target in logs:
        path = write(name, make, n)
        json_s = min(time_json(path) for _ in range(2))
        read_s, samples, calls = min(time_reader(path) for _ in range(2))
        size = path.stat().st_size / 1e6
        ratio = read_s / json_s
        print(
            f"{name:<16}{samples:>9}{calls:>10}{size:>8.1f}{json_s:>9.2f}{read_s:>9.2f}"
            f"{ratio:>6.2f}x{target:>7.1f}x"
        )
    print()
    for name, make, _ in logs:
        small = peak(write(name, make, n // 10))
        large = peak(write(name, make, n))
        print(
            f"peak memory {name:<15} {n // 10:>7} samples: {small / 1e3:8.0f} kB   "
            f"{n:>7} samples: {large / 1e3:8.0f} kB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
