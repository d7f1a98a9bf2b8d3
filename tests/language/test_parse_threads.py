"""Parses in several threads at once give what one thread gives, diagnostics and comments too."""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from toolexpect.language import grammar
from toolexpect.language.parse import parse_text

ROOT = Path(__file__).resolve().parents[2]

_SPECS = [
    'expect get_weather(city="Berlin")  # the city\n',
    'expect get_weather(city="Berlin"\n',
    "# a header\nexpect t(x=1) then u(y=[1, 2, {a: 3}])\nrequire order\n",
    'expect t(x="bad \\q escape")  # no such escape\n',
    "expect t(x=1e999)\n",
    'case "one" {\n    # inside\n    expect a(b=any)\n}\n',
    "case {\n",
    "expect t(x=@)\n",
    'expect t(x in [1, ...])\nexpect u(s="\\ud800")\n',
    "exepct t(x=1)\n# after the error\n",
    "expect t(x=" + "[" * 70 + "\n",
    'require pass rate >= 0.9  # rate\nquestion "why?"\nforbid drop_table\n',
]


def _specs() -> list[str]:
    """Thirty specs of every kind: valid, with syntax errors, bad tokens, comments."""
    texts = list(_SPECS)
    for path in sorted(ROOT.glob("specs/**/*.expect"))[:10]:
        texts.append(path.read_text(encoding="utf-8"))
    for index in range(30 - len(texts)):
        texts.append(f'# spec {index}\nexpect tool_{index}(n={index}, s="{"x" * index}")  # tail {index}\n')
    return texts[:30]


def _outcome(text: str, name: str) -> tuple[Any, ...]:
    result = parse_text(text, name)
    return (result.document, result.diagnostics, result.comments)


def test_threads_parsing_at_once_get_their_own_results() -> None:
    """Eight threads, each parsing thirty different specs in its own order at the same time,
    get exactly what parsing them one by one gives."""
    texts = _specs()
    assert len(texts) == 30
    expected = {index: _outcome(text, f"spec{index}") for index, text in enumerate(texts)}
    threads = 8
    start = threading.Barrier(threads)
    wrong: list[tuple[int, int]] = []

    def work(number: int) -> None:
        order = texts[number:] + texts[:number]
        start.wait()
        for _ in range(5):
            for offset in range(len(order)):
                index = (number + offset) % len(texts)
                if _outcome(texts[index], f"spec{index}") != expected[index]:
                    wrong.append((number, index))

    workers = [threading.Thread(target=work, args=(number,)) for number in range(threads)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads often, so that parses interleave
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert not wrong, f"{len(wrong)} results differ from one thread's"


def test_threads_that_start_together_build_the_parser_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Threads that all parse before the parser exists wait for one build, and all parse right."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TOOLEXPECT_NO_CACHE", raising=False)
    monkeypatch.delenv("TOOLEXPECT_CACHE_DIR", raising=False)
    texts = _specs()
    expected = [_outcome(text, f"spec{index}") for index, text in enumerate(texts)]
    built: list[object] = []
    real = grammar.build

    def counting(**options: bool) -> object:
        made = real(**options)
        built.append(made)
        return made

    monkeypatch.setattr(grammar, "build", counting)
    grammar._built.cache_clear()
    start = threading.Barrier(8)
    results: list[list[tuple[Any, ...]]] = []

    def work() -> None:
        start.wait()
        results.append([_outcome(text, f"spec{index}") for index, text in enumerate(texts)])

    workers = [threading.Thread(target=work) for _ in range(8)]
    try:
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
    finally:
        grammar._built.cache_clear()
    assert len(built) == 1
    assert list(tmp_path.glob("toolexpect/*.cache"))
    assert results == [expected] * 8
