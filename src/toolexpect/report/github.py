"""GitHub Actions workflow commands: the annotations of the ``github`` formats, escaped once,
and :func:`inert` (:func:`inert_json` for JSON), which keep every other format from holding one.

The runner reads a line as a command when it starts, after white space, with ``::`` (and,
in the older form, when it holds ``##[`` anywhere). Only the ``github`` formats write
commands; the other text formats pass their whole output through :func:`inert`.
"""

from __future__ import annotations

import re

from toolexpect.lines import HIDDEN, visible

__all__ = ["annotation", "inert", "inert_json"]


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def annotation(level: str, message: str, **properties: str | int | None) -> str:
    """``::level name=value,...::message``, with the message and the property values escaped
    as the runner reads them; properties given as ``None`` are left out, the rest keep their
    order; a property value has its control characters shown (:func:`~toolexpect.lines.visible`)."""
    props = ",".join(
        f"{name}={_data(visible(str(value))).replace(':', '%3A').replace(',', '%2C')}"
        for name, value in properties.items()
        if value is not None
    )
    return f"::{level} {props}::{_data(message)}" if props else f"::{level}::{_data(message)}"


_LINE_COMMAND = re.compile(r"^([^\S\n]*):(?=:)", re.MULTILINE)
_OLD_COMMAND = re.compile(r"#(?=#\[)")


def inert(text: str, markup: bool = False) -> str:
    """``text`` with no line the runner reads as a workflow command: a line starting (after
    white space) with ``::`` gets a backslash before it (``\\::error``), and ``##[`` is written
    ``#\\#[``; with ``markup`` (XML, HTML) the first colon is a character reference instead
    (``&#58;:error``) and so is the second hash (``#&#35;[``), which read back as the same text."""
    if "::" not in text and "##[" not in text:
        return text
    colon, hash_ = ("&#58;", "#&#35;") if markup else ("\\:", "#\\")
    text = _LINE_COMMAND.sub(lambda match: match.group(1) + colon, text)
    if markup:
        return text.replace("##[", hash_ + "[")
    return _OLD_COMMAND.sub(lambda _match: hash_, text)


_JSON_ESCAPED = re.compile(f"[\x7f{HIDDEN}]|#(?=#\\[)")


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def inert_json(text: str) -> str:
    """JSON text (``json.dumps`` with ``ensure_ascii=False``) as the same JSON with no workflow
    command and no character a terminal acts on: DEL, C1 controls, line and paragraph
    separators, bidirectional controls, lone surrogates, noncharacters, and the first hash
    of ``##[``, are written as ``\\u`` escapes (``json.dumps`` escapes the C0 controls itself)."""
    if text.isascii() and "\x7f" not in text and "##[" not in text:
        return text  # the usual case, told at C speed: nothing past ASCII, no DEL, no command
    return _JSON_ESCAPED.sub(_json_escape, text)
