"""``lint --tools`` checks the calls of ``allow`` as it checks expectations."""

from __future__ import annotations

import pytest

from toolexpect.catalogue import load_catalogue
from toolexpect.toolcheck import check_spec

from .tools_support import FIXTURES, spec_of


@pytest.mark.parametrize(
    ("statement", "codes"),
    [
        ("allow get_weather", []),
        ('allow get_weather(unit="celsius")', []),
        ("allow get_wether", ["T500"]),
        ('allow get_weather(cty="Berlin")', ["T501"]),
        ('allow get_weather(unit="kelvin")', ["T502"]),
        ("allow get_weather(city >= 3)", ["T503"]),
    ],
)
def test_an_allowed_call_is_checked_against_the_catalogue(statement: str, codes: list[str]) -> None:
    """An allow of a tool the catalogue lacks, or of arguments its schema never accepts, allows
    no call that can be made: the finding of an expectation, at the allow's line."""
    catalogue = load_catalogue(str(FIXTURES / "openai.json"))
    found = check_spec(spec_of(f"expect get_weather\n{statement}\n", path="s.expect"), catalogue)
    assert [d.code for d in found] == codes
    assert all(d.span is not None and d.span.line == 2 for d in found)
