"""`toolexpect.scoring.partial.score` takes the paths of spec files and folders, read and checked as
`toolexpect score` reads them, beside `Spec` objects; anything else is a TypeError naming `specs`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scoring_support import SPEC

from toolexpect import scoring
from toolexpect.api import SpecError, load_spec, parse_spec
from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.scoring.partial import CompiledSpecs, Scorer, score

SAMPLES = (
    RecordedSample("a", (ToolCall("f", {"x": 1}), ToolCall("g"))),
    RecordedSample("c", (ToolCall("g", {"z": "ok"}),)),
    RecordedSample("w", (ToolCall("get_weather", {"city": "Berlin"}),)),
)
WEATHER = 'case "w" {\n    expect get_weather(city="Berlin")\n}\n'


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder of two spec files: cases a, b, c in `abc.expect` and w in `sub/w.expect`."""
    (tmp_path / "abc.expect").write_text(SPEC, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "w.expect").write_text(WEATHER, encoding="utf-8")
    return tmp_path


def _cases(report: Any) -> list[tuple[str | None, str, str]]:
    return [(outcome.file, outcome.case.name, outcome.result.status) for outcome in report.cases]


def test_a_list_of_spec_paths_is_read_as_the_specs_it_names(folder: Path) -> None:
    """score(["w.expect"], samples) is the report of the spec loaded from that path."""
    path = str(folder / "sub" / "w.expect")
    report = score([path], SAMPLES)
    assert report == score([load_spec(path)], SAMPLES)
    assert _cases(report) == [(path, "w", "pass")]


@pytest.mark.parametrize(
    "given", [str, Path, lambda p: [Path(p)], lambda p: (p,)], ids=["str", "Path", "[Path]", "tuple"]
)
def test_one_path_or_any_sequence_of_paths_is_taken(folder: Path, given: Any) -> None:
    """A single str or os.PathLike, or a list or tuple of them, names the specs alike."""
    path = str(folder / "sub" / "w.expect")
    assert _cases(score(given(path), SAMPLES)) == [(path, "w", "pass")]


def test_a_folder_gives_its_spec_files_in_order_and_each_file_once(folder: Path) -> None:
    """A folder is read as the CLI reads it (sorted, below it too); a file named twice counts once;
    Spec objects keep their place among the paths."""
    inline = parse_spec('case "b" {\n    expect f(x="s", y=[1, 2])\n}\n')
    report = score([folder, inline, folder / "abc.expect"], SAMPLES)
    assert [(o.file, o.case.name) for o in report.cases] == [
        (str(folder / "abc.expect"), "a"),
        (str(folder / "abc.expect"), "b"),
        (str(folder / "abc.expect"), "c"),
        (str(folder / "sub" / "w.expect"), "w"),
        (None, "b"),
    ]


def test_scorer_and_compiled_specs_take_paths_too(folder: Path) -> None:
    """Scorer and CompiledSpecs.of read paths as score does."""
    path = folder / "sub" / "w.expect"
    scorer = Scorer([path])
    scorer.feed(SAMPLES)
    assert scorer.report() == score([load_spec(path)], SAMPLES)
    assert [t.case.name for t in CompiledSpecs.of(str(path)).targets] == ["w"]


def test_a_spec_file_with_errors_is_a_spec_error_naming_every_bad_file(folder: Path) -> None:
    """A spec with errors, or a path that cannot be read, is a SpecError (a ValueError) carrying
    the diagnostics of each, with the source line; nothing is scored."""
    bad = folder / "bad.expect"
    bad.write_text('case "x" {\n    expect f(x=)\n}\n', encoding="utf-8")
    missing = folder / "missing.expect"
    with pytest.raises(SpecError) as raised:
        score([folder / "sub", bad, missing], SAMPLES)
    assert isinstance(raised.value, ValueError)
    assert [(d.code, d.path) for d in raised.value.diagnostics] == [
        ("P100", str(bad)),
        ("P107", str(missing)),
    ]
    assert "expect f(x=)" in str(raised.value)
    assert "cannot read spec file" in str(raised.value)


def test_a_folder_without_spec_files_is_a_value_error(tmp_path: Path) -> None:
    """A folder that holds no spec file is a ValueError naming it and the endings looked for."""
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a spec", encoding="utf-8")
    with pytest.raises(ValueError, match=r"specs: no spec files \(\*\.expect, .*\) in .*empty"):
        score([empty], SAMPLES)


@pytest.mark.parametrize(
    "specs",
    [[1], 5, b"w.expect", [b"w.expect"], {"w.expect": 1}, None, [parse_spec("expect f").cases[0]]],
    ids=["[int]", "int", "bytes", "[bytes]", "dict", "None", "[Case]"],
)
def test_other_values_are_a_type_error_naming_specs(specs: Any) -> None:
    """Anything but Spec objects and paths is a TypeError that names specs and says what to pass."""
    with pytest.raises(TypeError, match=r"specs takes Spec objects .* or paths of spec files"):
        score(specs, SAMPLES)


def test_specs_of_keeps_spec_objects_as_they_are() -> None:
    """Spec objects are taken as they are, not read again."""
    specs = [parse_spec(SPEC), parse_spec(WEATHER)]
    assert all(a is b for a, b in zip(scoring.specs_of(specs), specs, strict=True))
