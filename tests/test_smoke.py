"""The command line answers on the example specs."""

from pathlib import Path

from toolexpect.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_example_specs_lint_clean() -> None:
    """Every example spec in specs/ lints without findings."""
    assert main(["lint", str(ROOT / "specs")]) == 0


def test_bad_spec_is_a_finding(tmp_path: Path) -> None:
    """A spec with a syntax error makes lint exit 1."""
    bad = tmp_path / "bad.expect"
    bad.write_text('expect get_weather(city="Berlin"\n', encoding="utf-8")
    assert main(["lint", str(bad)]) == 1


def test_public_names_resolve() -> None:
    """Every name in toolexpect.__all__ can be imported from the package."""
    import toolexpect

    for name in toolexpect.__all__:
        assert getattr(toolexpect, name) is not None
    assert sorted(toolexpect.__all__) == toolexpect.__all__


def test_help_names_every_format() -> None:
    """The --log-format and --tools-format help lists the formats the readers know."""
    from toolexpect import cli
    from toolexpect.catalogue import FORMATS
    from toolexpect.logs import LOG_FORMATS

    assert sorted(cli.LOG_FORMAT_NAMES.split(", ")) == sorted(LOG_FORMATS)
    assert sorted(cli.TOOLS_FORMAT_NAMES.split(", ")) == sorted(f for f in FORMATS if f != "auto")


def test_the_python_api_keeps_its_import_paths() -> None:
    """Every name of toolexpect.api is importable from it, is the one the package re-exports,
    and its exceptions are named after toolexpect.api, where users import them."""
    import toolexpect
    import toolexpect.api as api

    assert sorted(api.__all__) == api.__all__
    assert all(getattr(api, name) is not None for name in api.__all__)
    for name in ("Evaluation", "Sample", "SpecError", "ToolCallAccuracyEvaluator", "score", "parse_spec"):
        assert getattr(toolexpect, name) is getattr(api, name)
    for error in (api.SpecError, api.ToolCallAssertionError):
        assert f"{error.__module__}.{error.__qualname__}" == f"toolexpect.api.{error.__name__}"
