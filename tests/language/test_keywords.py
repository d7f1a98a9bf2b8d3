"""Keywords are whole words: a keyword with name characters glued to it is that longer name."""

from __future__ import annotations

import pytest

from toolexpect.language.grammar import first_words, literal
from toolexpect.language.parse import parse_text


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("expectfoo(x=1)\n", '"expectfoo"'),
        ("expect a then_b\n", '"then_b"'),
        ("expect a thenb\n", '"thenb"'),
        ("expect a then.b\n", '"then.b"'),
        ("require orderly\n", '"orderly"'),
        ("require no toolcalls\n", '"toolcalls"'),
        ("expect t(x=anything)\n", '"anything"'),
        ("expect t(x=true1)\n", '"true1"'),
        ('case "a" {\n    forbiddelete_user\n}\n', '"forbiddelete_user"'),
    ],
)
def test_a_keyword_glued_to_a_name_is_an_error(text: str, found: str) -> None:
    """A keyword followed at once by what a name may go on with is never read as the keyword."""
    result = parse_text(text)
    assert result.document is None
    (diagnostic,) = result.diagnostics
    assert diagnostic.code == "P100"
    assert diagnostic.message.endswith(f"found {found}"), diagnostic.message


def test_a_glued_statement_word_suggests_the_keyword() -> None:
    """``expectfoo(x=1)`` is an error whose help spells the statement apart."""
    (diagnostic,) = parse_text("expectfoo(x=1)\n").diagnostics
    assert diagnostic.help == 'did you mean "expect foo"?'
    assert (diagnostic.span.column, diagnostic.span.end_column) == (1, 10)


@pytest.mark.parametrize(
    "text",
    [
        "expect a then b\n",
        "expect thenable then then_b\n",
        "expect order(then_x=1, notx=2, in_stock=true, any-thing=null, expect=1)\n",
        "expect t(not x, not-y=1, not.z=2)\n",
        "expect t(x in[1, 2], y=any, z=true)\n",
        'case"a"{expect t}\n',
        "require order;expect t\n",
        "expect t(x=[true,false,null])\n",
    ],
)
def test_keywords_before_other_characters_still_read(text: str) -> None:
    """A keyword followed by a blank, a bracket or punctuation is the keyword, and names that
    start with a keyword's letters are names."""
    result = parse_text(text)
    assert result.diagnostics == []
    assert result.document is not None


def test_keyword_words_come_from_the_grammar() -> None:
    """The words of keyword terminals, and the statement words, are read off the grammar."""
    assert literal("EXPECT") == "expect"
    assert literal("NOT") == "not"
    assert literal("LPAR") == "("
    assert literal("NAME") is None
    assert first_words("_item") == ("case", "expect", "forbid", "allow", "question", "require")
