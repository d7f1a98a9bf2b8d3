"""Hostile text for the reports, and checks that each format's output is safe and well formed.

The checks use real parsers: ``xml.etree`` for JUnit, ``json`` for JSON, ``html.parser`` (with
a check that every element it opens is closed) for HTML. A text output may hold no raw control
character but the line break and the tab, and no output but the ``github`` formats may hold a
line that the GitHub Actions runner reads as a workflow command (a line that starts, after
white space, with ``::``, or that holds ``##[`` anywhere).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from xml.etree import ElementTree as ET

INJECTED = "x\n::error file=README.md::INJECTED\u001b]0;T\u0007"
"""A tool name or value as the issue recorded it: a line break, a workflow command, an OSC escape."""

HOSTILE = [
    INJECTED,
    "\r::warning::carriage\x1b[2J\x1b[H",
    "  ::notice title=t::indented ##[error]old form",
    "\u009b31m one-byte CSI \u009d0;title\u009c",
    "XML \ufffe forbids \uffff these \x00\x01\x08\x0b\x0c\x1f",
    "lone \ud800 surrogates \udfff",
    "bidi \u202eevil\u202c \u2066x\u2069 \u2028 \u2029 \u0085",
    "<script>alert(1)</script> & ]]> --> \"'",
]
"""Strings a logged model may write, each hostile in its own way."""

BIG = "B" * 10_000_000
"""A 10 MB string."""

# Characters a text output may not hold raw: C0 controls but "\n" and "\t", DEL, C1 controls,
# line and paragraph separators, bidirectional controls, lone surrogates, U+FFFE and U+FFFF.
_RAW = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff\ufffe\uffff]"
)
# A workflow command: the runner trims a line's leading white space before looking for "::".
_COMMAND = re.compile(r"^\s*::|##\[", re.MULTILINE)


def raw_controls(text: str) -> list[str]:
    """The characters of ``text`` that no text output may hold raw."""
    return sorted({repr(found) for found in _RAW.findall(text)})


def commands(text: str) -> list[str]:
    """The lines of ``text`` the GitHub Actions runner would read as workflow commands."""
    return [line for line in text.split("\n") if _COMMAND.search(line)]


def check_text(text: str) -> None:
    """A text output: no raw control character, no workflow command."""
    assert raw_controls(text) == []
    assert commands(text) == []


def check_json(text: str) -> object:
    """A JSON output: valid JSON and UTF-8, no workflow command; the document."""
    text.encode("utf-8")
    assert commands(text) == []
    return json.loads(text)


def check_junit(data: bytes) -> ET.Element:
    """A JUnit output: well-formed XML 1.0, no workflow command; the root element."""
    assert commands(data.decode("utf-8")) == []
    return ET.fromstring(data)


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# HTML forbids these characters in its input stream (parse errors: controls, noncharacters).
_HTML_RAW = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


class _Balanced(HTMLParser):
    """An HTML parser that records elements left open or closed without being opened."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()


def check_html(text: str) -> None:
    """An HTML output: every element closed in order, no character HTML forbids, no workflow command."""
    assert _HTML_RAW.findall(text) == []
    assert commands(text) == []
    parser = _Balanced()
    parser.feed(text)
    parser.close()
    assert parser.problems == []
    assert parser.open == []


_ANNOTATION = re.compile(r"::(error|warning|notice)( [^:\n]*)?::[^\n]*")


def check_github(text: str) -> None:
    """A ``github`` output: each line one annotation, no raw control character."""
    assert raw_controls(text) == []
    for line in text.splitlines():
        assert _ANNOTATION.fullmatch(line), line
