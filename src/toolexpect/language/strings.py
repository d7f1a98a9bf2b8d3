"""Scalar tokens to values: strings with JSON escapes, numbers as ``int`` or ``float``.

A token that is well formed but means nothing (an unknown escape, a lone surrogate, a number
too large for a float) raises :class:`Problem`, which carries the diagnostic to report.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.errors import ToolexpectError

if TYPE_CHECKING:
    from lark import Token

__all__ = [
    "MAX_INT_DIGITS",
    "Problem",
    "decode_number",
    "decode_string",
    "integer_too_long",
    "number_too_small",
    "span_of",
    "underflows",
]

MAX_INT_DIGITS = 640
"""The most digits an integer of a spec may have, in text, JSON and YAML alike.

640 is the fewest digits to which a Python program may limit the conversion of integers to
and from text (``sys.int_info.str_digits_check_threshold``), so every integer a spec holds can
be read, compared and printed in any Python process."""


class Problem(ToolexpectError):
    """A well-formed token that is not a valid value; ``diagnostic`` says why."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def span_of(token: Token) -> Span:
    """The span of one token."""
    return Span(token.line or 1, token.column or 1, token.end_line or 1, token.end_column or 1)


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_LOW_SURROGATE = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


def _half_pair(what: str, line: int, column: int, width: int) -> Problem:
    """P103 for half of a surrogate pair (``what``: the string's character or escape, as the
    message's start), ``width`` characters at ``line`` and ``column``."""
    return Problem(
        make(
            "P103",
            f"{what} half of a surrogate pair without its other half",
            Span(line, column, line, column + width),
            help="write the character itself, or both halves: \\ud83d\\ude00",
        )
    )


def decode_string(token: Token) -> str:
    """Decode a double- or single-quoted string token with JSON escapes; a raw string
    (``r"\\d+"``) is its text between the quotes, backslashes included."""
    raw = str(token)
    lone = _RAW_SURROGATE.search(raw)
    if lone is not None:
        # Only a text given as a string can hold one (an editor's buffer, the API): no file can.
        what = f"string holds U+{ord(lone.group()):04X},"
        raise _half_pair(what, token.line or 1, (token.column or 1) + lone.start(), 1)
    if raw[0] == "r":
        return raw[2:-1]
    quote, body = raw[0], raw[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt == "'" and quote == "'":
            out.append("'")
            i += 2
        elif nxt == "u" and _HEX4.fullmatch(body[i + 2 : i + 6]):
            code = int(body[i + 2 : i + 6], 16)
            i += 6
            if 0xD800 <= code < 0xDC00 and _LOW_SURROGATE.fullmatch(body[i : i + 6]):
                low = int(body[i + 2 : i + 6], 16)
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                i += 6
            elif 0xD800 <= code < 0xE000:
                what = f"escape \\u{code:04x} is"
                raise _half_pair(what, token.line or 1, (token.column or 1) + 1 + i - 6, 6)
            out.append(chr(code))
        else:
            column = (token.column or 1) + 1 + i
            line = token.line or 1
            raise Problem(
                make(
                    "P103",
                    f"invalid escape \\{nxt} in string",
                    Span(line, column, line, column + 2),
                    help='use one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
                )
            )
    return "".join(out)


_INTEGER = re.compile(r"-?[0-9]+")


def integer_too_long(literal: str, span: Span | None) -> Diagnostic:
    """The diagnostic of an integer literal with more than :data:`MAX_INT_DIGITS` digits."""
    digits = literal.lstrip("+-").replace("_", "")
    shown = literal if len(literal) <= 20 else f"{literal[:8]}...{literal[-8:]}"
    count = f"{len(digits):,} digits" if digits.isdigit() else f"more than {MAX_INT_DIGITS} digits"
    return make(
        "P110",
        f"integer {shown} has {count}; the limit is {MAX_INT_DIGITS}",
        span,
        help=f"write an integer of at most {MAX_INT_DIGITS} digits, or quote it to compare it as text",
    )


def underflows(literal: str, value: float) -> bool:
    """Whether a float literal that is not zero reads as ``0.0`` (``1e-400``, ``-1e-400``):
    a digit other than 0 before its exponent."""
    return value == 0.0 and any(c in "123456789" for c in literal.lower().partition("e")[0])


def number_too_small(literal: str, span: Span | None) -> Diagnostic:
    """The diagnostic of a float literal that is not zero and reads as ``0.0``."""
    return make(
        "P110",
        f"number {literal} is too small to represent: it would be read as 0",
        span,
        help="write 0, or a number within the range of a 64-bit float (the smallest is 5e-324)",
    )


def decode_number(token: Token) -> int | float:
    """Decode a number token: an integer literal stays ``int``, any other is ``float``."""
    raw = str(token)
    if _INTEGER.fullmatch(raw):
        if len(raw) - raw.startswith("-") > MAX_INT_DIGITS:
            raise Problem(integer_too_long(raw, span_of(token)))
        return int(raw)
    value = float(raw)
    if math.isinf(value):
        raise Problem(
            make(
                "P110",
                f"number {raw} is too large to represent",
                span_of(token),
                help="use a number within the range of a 64-bit float",
            )
        )
    if underflows(raw, value):
        raise Problem(number_too_small(raw, span_of(token)))
    return value
