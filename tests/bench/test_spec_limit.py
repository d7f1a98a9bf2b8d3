"""The specs of bench_spec_limit.py: of the size asked for, and clean through lint."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toolexpect.specfiles.stages import parse_spec_source

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_spec_limit


@pytest.mark.parametrize("size", [4096, 16 * 1024])
def test_hand_written_spec_fills_the_size_with_whole_cases(size: int) -> None:
    """The hand-written spec holds whole cases: at most ``size`` bytes, a case or two short at most."""
    text = bench_spec_limit.hand_written(size)
    assert size - len(bench_spec_limit._case(0).encode()) * 2 < len(text.encode()) <= size
    loaded = parse_spec_source(text, name="bench")
    assert loaded.ok, loaded.diagnostics[:3]
    assert loaded.document is not None
    assert len(loaded.document["cases"]) == text.count('case "')


@pytest.mark.parametrize("size", [4096, 16 * 1024])
def test_worst_case_is_one_list_of_single_characters(size: int) -> None:
    """The worst case is ``size`` bytes: one list of about ``size / 2`` one-character values."""
    text = bench_spec_limit.worst_case(size)
    assert len(text.encode()) == size
    loaded = parse_spec_source(text, name="bench")
    assert loaded.ok, loaded.diagnostics[:3]
    assert loaded.document is not None
    (call,) = loaded.document["cases"][0]["expect"]
    assert call["args"][0]["value"] == [1] * ((size - len("expect t(x=[])\n") + 1) // 2)
