"""Lark's syntax errors to diagnostics: where, what was expected in words, and a hint.

The names of what was expected come from the grammar's terminals: a literal terminal is shown
quoted (``")"``), keywords first; the few terminals that are patterns are shown in words.
"""

from __future__ import annotations

import functools
import re

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.language.grammar import first_words, literal, parser, spellings
from toolexpect.lines import visible

__all__ = ["syntax_diagnostic"]

_SHOWN: dict[str, str] = {
    "PLUSMINUS": '"+-"',
    "NAME": "a name",
    "KEY": "an object key",
    "STRING": "a string",
    "NUMBER": "a number",
    "_NL": "a new line",
    "$END": "end of input",
}
"""How to show a person the terminals whose grammar is a pattern rather than one text."""

_EXAMPLE_NUMBER = "0.8"
"""What stands for a number in the examples of a statement."""


@functools.cache
def _terminals() -> dict[str, int]:
    """The grammar's terminals, by their place in the grammar."""
    return {terminal.name: index for index, terminal in enumerate(parser().terminals)}


def _word(terminal: str) -> str | None:
    """The literal text of a terminal of the grammar, if it is one."""
    return literal(terminal) if terminal in _terminals() else None


def _rank(terminal: str) -> int:
    """Where a terminal goes in a list of what was expected: keywords first, then by grammar."""
    if terminal == "$END":
        return len(_terminals())
    word = _word(terminal)
    if terminal not in _terminals() or (word is not None and word.isalpha()):
        return -1
    return _terminals()[terminal]


def _display(terminal: str) -> str:
    if terminal in _SHOWN:
        return _SHOWN[terminal]
    word = _word(terminal)
    return f'"{word if word is not None else terminal.lower()}"'


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _describe_expected(expected: set[str]) -> str:
    names = sorted(
        (t for t in expected if t not in ("SEMICOLON",) or len(expected) == 1),
        key=lambda t: (_rank(t), t),
    )
    words = [_display(t) for t in names]
    if "_NL" in expected and "SEMICOLON" in expected:
        words = [w for w in words if w != _SHOWN["_NL"]] + [_SHOWN["_NL"]]
    if not words:
        return "something else"
    return _either(words)


def _found(token: Token) -> str:
    if token.type == "$END":
        return "end of input"
    if token.type == "_NL":
        return "end of line"
    if token.type == "STRING":
        return f"the string {visible(token.value)}"
    return f'"{token.value}"'


@functools.cache
def _require_forms() -> tuple[str, ...]:
    """Each form of the ``require`` statement, written out as an example."""
    forms = [
        " ".join(_EXAMPLE_NUMBER if word == "number" else word for word in words)
        for words in spellings("require_stmt").values()
    ]
    for words in spellings("count_bound").values():
        numbers = iter(("2", "4") if words.count("number") == 2 else ("3",))  # between takes two
        bound = " ".join(next(numbers) if word == "number" else word for word in words)
        forms.append(f"require {bound} calls of TOOL")
    return tuple(forms)


_STATEMENT_SYNONYMS = {word: ["question"] for word in ("prompt", "query", "ask")}
"""Words that other tools use for a statement of the language, with the statement meant."""

_VALUES = frozenset({"STRING", "NUMBER", "TRUE", "FALSE", "NULL", "LBRACE"})
"""The terminals that start a value other than a list."""


def _help_for(expected: set[str], token: Token) -> str | None:
    word = str(token.value) if token.type != "$END" else ""
    if {"EXPECT", "FORBID", "REQUIRE"} <= expected and token.type in ("NAME", "KEY"):
        import difflib  # only for an error, so not at start-up

        statements = first_words("_item")
        glued = [w for w in statements if word.startswith(w) and len(word) > len(w)]
        if glued:  # a keyword is a whole word: this one lacks the space after it
            return f'did you mean "{glued[0]} {word[len(glued[0]) :]}"?'
        close = difflib.get_close_matches(word, statements, n=1) or _STATEMENT_SYNONYMS.get(word.lower(), [])
        if close:
            return f'did you mean "{close[0]}"?'
        return "a statement starts with " + _either(list(statements))
    if token.type == "THEN" and "THEN" not in expected:
        for closing, what in (("RPAR", 'the argument list with ")"'), ("RSQB", 'the list with "]"')):
            if closing in expected:  # "then" is where it may be: what comes before is left open
                return f'close {what} before "then"'
        if "RBRACE" in expected and "EXPECT" not in expected:
            return 'close the object with "}" before "then"'
        return (
            'a chain goes on to the next line after a line that ends with "then": '
            'move this "then" to the end of the line before'
        )
    if "THEN" in expected and token.type in ("NAME", "KEY") and word.startswith("then") and len(word) > 4:
        rest = word[4:].lstrip("_-.:/")  # a keyword is a whole word: this one lacks the space after it
        return f'did you mean "then {rest}"?' if rest else 'did you mean "then"?'
    if {"ACCURACY", "ORDER"} <= expected:
        return "write one of: " + "; ".join(_require_forms())
    if expected == {"GE", "GT"}:
        return 'a threshold is a lower bound: reached with ">=" or passed with ">" (require accuracy >= 0.8)'
    if token.type in ("TILDE", "EQUAL") and {"STRING", "LSQB"} <= expected:
        if token.type == "TILDE":
            return 'match a pattern with "~" alone: name ~ "regex"'
        return 'compare with one "=": name="value"'
    if token.type in ("LT", "GT") and {"ANY", "STRING", "LSQB"} <= expected:  # after "=": x =< 5
        return f'did you mean "{word}="? a comparison is written with "=" last: name {word}= 5'
    if token.type == "EQUAL" and expected == {"STRING"}:  # after "~": x ~= "regex"
        return 'match a pattern with "~" alone: name ~ "regex"'
    if expected == {"LSQB"} and token.type in _VALUES:  # after "in"
        shown = "{...}" if token.type == "LBRACE" else visible(word)
        return f'"in" takes a list of values: in [{shown}]; for one value, write name={shown}'
    if token.type in ("RPAR", "RSQB") and expected & {"_NL", "$END"} and not expected & {"RPAR", "RSQB"}:
        return f'remove this "{word}": it closes nothing'
    if {"LE", "LT"} <= expected and "GE" not in expected:
        return "a range is written from low to high with both bounds: 1 <= x <= 9; for one bound write x >= 1"
    if "STRING" in expected and "NAME" not in expected and token.type in ("NAME", "KEY"):
        return f'quote text: "{word}"'
    if {"EQUAL", "TILDE", "IN"} <= expected:
        return (
            "give the argument a matcher: name=value, name=any, name in [...], "
            'name ~ "regex", name >= number, or write "not name"'
        )
    if "RPAR" in expected and "COMMA" in expected:
        if token.type in ("NAME", "STRING"):
            return 'separate arguments with ","'
        return 'close the argument list with ")"'
    if "RSQB" in expected and "COMMA" in expected:
        return 'separate list items with "," and close the list with "]"'
    if "RBRACE" in expected and "COMMA" in expected:
        return 'separate object members with "," and close the object with "}"'
    if "RBRACE" in expected and token.type == "$END":
        return 'close the case with "}"'
    if token.type in ("NAME", "KEY") or (token.type != "$END" and word.isalpha()):  # a name, or a keyword
        import difflib  # only for an error, so not at start-up

        keywords = [w for t in expected if (w := _word(t)) is not None and w.isalpha()]
        close = difflib.get_close_matches(word, keywords, n=1)
        if close:
            return f'did you mean "{close[0]}"?'
    if "_NL" in expected and "SEMICOLON" in expected:
        return 'put each statement on its own line, or separate statements with ";"'
    return None


_NAME_CHARACTER = re.compile(r"[\w\-.:/]")
_NUMBER_BEFORE = re.compile(r"(-?[0-9]+(?:\.[0-9]+)?)\s*$")


def _character_help(char: str, text: str, at: int) -> tuple[str | None, str | None]:
    """What a character that starts no token is part of, and how to fix it: a letter no bare
    name holds (quote the name), or a percent sign after a number (write a fraction)."""
    if ord(char) > 127 and (char.isalnum() or char == "_"):
        start = at
        while start > 0 and _NAME_CHARACTER.match(text[start - 1]):
            start -= 1
        end = at
        while end < len(text) and _NAME_CHARACTER.match(text[end]):
            end += 1
        name = text[start:end]
        return (
            f' in the name "{name}"',
            f'a bare name holds only ASCII letters, digits and _ - . : /; quote this one: "{name}"',
        )
    number = _NUMBER_BEFORE.search(text, 0, at) if char == "%" else None
    if number:
        written = number.group(1)
        fraction = format(float(written) / 100, "g")
        return (None, f"write a fraction, not a percentage: {fraction} for {written}%")
    return (None, None)


def _end_span(text: str) -> Span:
    """Just after the last character that is not white space: where something is missing."""
    lines = text.rstrip().split("\n")
    line = len(lines)
    column = len(lines[-1].rstrip("\r")) + 1
    return Span.point(line, column)


def _state_accepts(error: UnexpectedInput) -> set[str]:
    """The terminals the parser accepts where ``error`` happened (empty when unknown).

    Lark's interactive parser at the error knows it best (it has taken every token before
    the error); its state's table is the fallback.
    """
    interactive = getattr(error, "interactive_parser", None)
    if interactive is not None:
        try:
            return set(interactive.accepts())
        except Exception:  # any failure of the probe: use the table below
            pass
    state = getattr(error, "state", None)
    try:
        return set(state.parse_conf.parse_table.states[state.position])  # type: ignore[union-attr]
    except (AttributeError, KeyError, TypeError):
        return set()


def _unclosed_before(text: str, token: Token, expected: set[str]) -> Span | None:
    """Where a list left open at the end of a line should have been closed.

    Inside (), [] and {} new lines are not statement breaks, so a missing ")" shows only at
    the next line's first token; the caret belongs after the last character written before it.
    """
    if not expected & {"RPAR", "RSQB", "RBRACE"} or token.start_pos is None:
        return None
    if expected & {"EXPECT", "FORBID", "REQUIRE"}:
        return None  # at a statement: the "}" that would do is the case's, not a list's
    end = token.start_pos
    while end > 0 and text[end - 1] in " \t\r\n":
        end -= 1
    if "\n" not in text[end : token.start_pos] or end == 0:
        return None
    line_start = text.rfind("\n", 0, end) + 1
    line = text.count("\n", 0, end) + 1
    return Span.point(line, end - line_start + 1)


def _unescaped(text: str, quote: str, start: int, end: int) -> list[int]:
    """Where ``quote`` stands in ``text[start:end]`` with no backslash escaping it."""
    found = []
    at = text.find(quote, start, end)
    while at >= 0:
        slashes = 0
        while at - slashes - 1 >= start and text[at - slashes - 1] == "\\":
            slashes += 1
        if slashes % 2 == 0:
            found.append(at)
        at = text.find(quote, at + 1, end)
    return found


_CODE_IN_STRING = re.compile(r"""[,;)]\s*[A-Za-z_][\w.-]*\??\s*(?:[=~<>!]|in\b|then\b)""")
"""Text that reads as the next argument or statement: the end of a string left open before it."""


def _runaway_string(text: str, at: int) -> Diagnostic | None:
    """A string whose closing quote was left out in mid-line, so that it ran on to the quote
    that opens the next string: the error comes just after that quote (``"cup, to ~ r"^g"``),
    and the rest of the line holds an odd number of those quotes. The diagnostic stands where
    the string opens; its help says where it may end, when it holds what reads as code."""
    quote = text[at - 1] if at > 0 else ""
    if quote not in ('"', "'"):
        return None
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line_end = len(text) if line_end < 0 else line_end
    before = _unescaped(text, quote, line_start, at)
    if len(before) < 2 or before[-1] != at - 1 or len(_unescaped(text, quote, at, line_end)) % 2 == 0:
        return None  # no string ends just before the error, or the line's quotes pair up
    before.pop()
    opening = before[-1]
    line = text.count("\n", 0, at) + 1
    written = visible(text[opening:at])
    code = _CODE_IN_STRING.search(written, 1)
    return make(
        "P101",
        f"string is not closed where it should be: it runs on to the {quote} that opens the next string",
        Span(line, opening - line_start + 1, line, at - line_start + 1),
        help=f"close the string where it ends, as in {written[: code.start()].rstrip()}{quote}"
        if code and len(written) <= 80
        else f"close the string with {quote} where it ends; a {quote} inside a string is written \\{quote}",
    )


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
"""A word where no terminal matches, shown whole rather than by its first character."""


def _unexpected_token(error: UnexpectedToken, text: str) -> Diagnostic:
    token = error.token
    expected = set(getattr(error, "accepts", None) or error.expected)
    expected.discard("COMMENT")
    if token.type == "$END":
        return make(
            "P102",
            f"expected {_describe_expected(expected)} before end of input",
            _end_span(text),
            help=_help_for(expected, token),
        )
    runaway = _runaway_string(text, token.start_pos or 0) if token.type != "_NL" else None
    if runaway is not None:
        return runaway
    length = max(1, len(str(token.value))) if token.type != "_NL" else 1
    span = Span(token.line or 1, token.column or 1, token.line or 1, (token.column or 1) + length)
    unclosed = _unclosed_before(text, token, expected)
    if unclosed is not None:
        return make(
            "P100",
            f"expected {_describe_expected(expected)} at the end of this line; "
            f"the next line goes on with {_found(token)}",
            unclosed,
            help=_help_for(expected, token),
        )
    return make(
        "P100",
        f"expected {_describe_expected(expected)}, found {_found(token)}",
        span,
        help=_help_for(expected, token),
    )


def _unexpected_characters(error: UnexpectedCharacters, text: str) -> Diagnostic:
    allowed = set(error.allowed or ())
    allowed.discard("COMMENT")
    if "NAME" in allowed:
        # A keyword that may stand where a name may is one of the names: "a name" says it.
        allowed = {t for t in allowed if not (_word(t) or "").isalpha()}
    accepts = _state_accepts(error)
    if accepts:
        # The contextual lexer also accepts what neighbouring states do (a new line
        # everywhere); name only what the parser takes here.
        allowed = (allowed & accepts) or allowed
    char = error.char
    span = Span.point(error.line, error.column)
    runaway = _runaway_string(text, error.pos_in_stream or 0)
    if runaway is not None:
        return runaway
    if char in "\"'":
        return make(
            "P101",
            "string is not closed before the end of the line",
            span,
            help=f"close the string with {char}; write a line break inside it as \\n",
        )
    word_match = _WORD.match(text, error.pos_in_stream or 0)
    if word_match:
        word = word_match.group(0)
        at = error.pos_in_stream or 0
        found = Token("NAME", word, at, error.line, error.column)
        return make(
            "P100",
            f'expected {_describe_expected(allowed)}, found "{word}"',
            Span(error.line, error.column, error.line, error.column + len(word)),
            help=_help_for(allowed, found),
        )
    where, hint = _character_help(char, text, error.pos_in_stream or 0)
    return make(
        "P101",
        f"unexpected character {char!r}{where or ''}; expected {_describe_expected(allowed)}",
        span,
        help=hint or _help_for(allowed, Token("CHAR", char, 0, error.line, error.column)),
    )


def syntax_diagnostic(error: UnexpectedInput, text: str) -> Diagnostic:
    """The diagnostic of lark's error ``error`` on source ``text``."""
    if isinstance(error, UnexpectedToken):
        return _unexpected_token(error, text)
    if isinstance(error, UnexpectedCharacters):
        return _unexpected_characters(error, text)
    return make("P100", str(error).splitlines()[0], Span.point(1, 1))  # pragma: no cover
