"""What a record says beyond its calls: the user question, the request history, named fields.

Read from the record a sample came from (the reader's ``Context`` hands it over), whatever
its format, in the places the providers' requests keep their messages: ``messages``
(OpenAI Chat, Anthropic, LangChain), ``input`` (OpenAI Responses: a text or a list of items)
and ``contents`` (Gemini), on the record itself or inside its ``request``, ``body`` or
``inputs``; and OpenTelemetry's ``gen_ai.input.messages`` / ``gen_ai.prompt.<i>.*`` attributes.

* The **question** is the first user message of that list, its text parts joined by a
  space, with runs of whitespace made one space and the ends stripped.
* The **history** is one digest per prefix of that list (``blake2b`` of the messages'
  canonical JSON, chained), so a record continues another when the other's full history is
  one of its shorter prefixes.
* **Trace ids** of OpenTelemetry (hex, ``0x`` hex, or base64 of 16 bytes) are written one
  way: lowercase hex.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import orjson

from toolexpect.calls import RecordedSample, SampleFacts
from toolexpect.pairing.options import FieldPath, lookup

__all__ = [
    "facts_of",
    "generated",
    "names_in",
    "question_count",
    "question_of",
    "request_messages",
    "trace_id",
    "whitespace",
]

_HOLDERS = ("request", "body", "inputs")
_LISTS = ("messages", "input", "contents")
_USER = ("user", "human")
_NAME_DEPTH = 3
_NAME_KEYS = 64
_HEX = frozenset(string.hexdigits)
_GENERATED = re.compile(
    r"(chatcmpl-|chatcmpl_|resp_|msg_|msgbatch_|batch_|gen-)\S+"  # OpenAI, Anthropic, OpenRouter
    r"|(0x)?[0-9a-fA-F]{32}"  # a trace id
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"  # a UUID
    r"|(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Z])(?=[A-Za-z0-9_-]*[a-z])[A-Za-z0-9_-]{20,}"  # Gemini
    r"|[A-Za-z0-9+/]{22}=="  # a base64 trace id
)


def whitespace(text: str) -> str:
    """``text`` with every run of whitespace one space, and the ends stripped."""
    return " ".join(text.split())


def _messages_in(holder: Mapping[str, Any]) -> list[Any] | str | None:
    for key in _LISTS:
        value = holder.get(key)
        if isinstance(value, list) and value and all(isinstance(m, dict) for m in value):
            return value
        if key == "input" and isinstance(value, str):
            return value
    for key in ("gen_ai.input.messages", "gen_ai.prompt"):
        value = holder.get(key)
        if isinstance(value, str) and value[:1] == "[":
            try:
                decoded = json.loads(value)
            except (ValueError, RecursionError):
                return None
            if isinstance(decoded, list) and all(isinstance(m, dict) for m in decoded):
                return decoded
    if "gen_ai.prompt.0.role" in holder:
        return list(_flat_prompt(holder))
    return None


def _flat_prompt(attributes: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """OpenLLMetry's ``gen_ai.prompt.<i>.role`` / ``.content`` attributes as messages."""
    index = 0
    while f"gen_ai.prompt.{index}.role" in attributes:
        yield {
            "role": attributes[f"gen_ai.prompt.{index}.role"],
            "content": attributes.get(f"gen_ai.prompt.{index}.content"),
        }
        index += 1


def request_messages(record: Any) -> list[Any] | str | None:
    """The request's messages held by ``record`` (a text for a Responses ``input``), or None."""
    if isinstance(record, list):
        return record if record and all(isinstance(m, dict) and "role" in m for m in record) else None
    if not isinstance(record, dict):
        return None
    found = _messages_in(record)
    if found is not None:
        return found
    for key in _HOLDERS:
        holder = record.get(key)
        if isinstance(holder, dict):
            found = _messages_in(holder)
            if found is not None:
                return found
    return None


def _part_text(part: Mapping[str, Any]) -> Any:
    """A text part's text (``text``; OpenTelemetry's ``{"type": "text", "content"}``)."""
    if "text" in part:
        return part["text"]
    return part.get("content") if part.get("type") == "text" else None


def _text(content: Any) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            part if isinstance(part, str) else _part_text(part) if isinstance(part, dict) else None
            for part in content
        ]
        joined = " ".join(text for text in texts if isinstance(text, str))
        return joined or None
    if isinstance(content, dict):
        return _text(content.get("parts", content.get("text")))
    return None


def _role(message: Mapping[str, Any]) -> Any:
    role = message.get("role", message.get("type"))
    if role == "constructor" and isinstance(message.get("id"), list) and message["id"]:
        return "human" if message["id"][-1] == "HumanMessage" else message["id"][-1]
    if role is None and isinstance(message.get("data"), dict):
        role = message["data"].get("type")
    return role


def _content(message: Mapping[str, Any]) -> Any:
    content = message.get("content", message.get("parts"))
    for holder in ("data", "kwargs"):  # LangChain's {"type", "data"} and constructor forms
        if content is None and isinstance(message.get(holder), dict):
            content = message[holder].get("content")
    return content


def question_of(messages: list[Any] | str | None) -> str | None:
    """The first user message's text, whitespace normalised, or None."""
    return _asked(messages)[0]


def _asked(messages: list[Any] | str | None) -> tuple[str | None, int | None]:
    """The first user message's text, whitespace normalised, and the place of the first user
    message among ``messages`` (each ``None`` for none)."""
    if isinstance(messages, str):
        return whitespace(messages) or None, None
    first = None
    for number, message in enumerate(messages or ()):
        if isinstance(message, dict) and _role(message) in _USER:
            if first is None:
                first = number
            text = _text(_content(message))
            if text is not None and whitespace(text):
                return whitespace(text), first
    return None, first


def _digests(messages: list[Any] | str | None) -> tuple[int, ...]:
    if not isinstance(messages, list):
        return ()
    digests: list[int] = []
    previous = b""
    for message in messages:
        try:
            text = orjson.dumps(message, option=orjson.OPT_SORT_KEYS)
        except (TypeError, orjson.JSONEncodeError):
            text = repr(message).encode("utf-8", "replace")
        previous = hashlib.blake2b(previous + text, digest_size=8).digest()
        digests.append(int.from_bytes(previous, "big"))
    return tuple(digests)


def _names(value: Any, names: frozenset[str], path: str, depth: int, out: list[tuple[str, str]]) -> None:
    """Places of ``value`` (objects only, a few levels deep) whose text is one of ``names``."""
    if not isinstance(value, dict) or depth > _NAME_DEPTH:
        return
    for count, (key, item) in enumerate(value.items()):
        if count >= _NAME_KEYS:
            return
        where = f"{path}.{key}" if path else str(key)
        if isinstance(item, str):
            if item in names:
                out.append((where, item))
        elif isinstance(item, dict):
            _names(item, names, where, depth + 1, out)


def facts_of(record: Any, path: FieldPath | None) -> SampleFacts:
    """The facts of a sample read from ``record``: question, ``--case-from`` value, history."""
    messages = request_messages(record)
    key = None
    if path is not None:
        found = lookup(record, path)
        if isinstance(found, str | int) and not isinstance(found, bool):
            key = str(found)
    question, asks = _asked(messages)
    return SampleFacts(question, key, _digests(messages), asks=asks)


def names_in(record: Any, names: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """The places (dotted paths, a few levels of objects deep) whose text is a case name."""
    found: list[tuple[str, str]] = []
    if names:
        _names(record, names, "", 1, found)
    return tuple(found)


def question_count(samples: Iterable[RecordedSample]) -> int:
    """How many different user questions ``samples`` ask (a sample without one asks none)."""
    return len({sample.facts.question for sample in samples if sample.facts and sample.facts.question})


def generated(text: str) -> bool:
    """Whether ``text`` looks like an id a provider or tracer made up (``chatcmpl-…``,
    ``resp_…``, ``msg_…``, a Gemini ``responseId``, a trace id, a UUID), not a name."""
    return _GENERATED.fullmatch(text) is not None


def trace_id(text: str) -> str:
    """An OpenTelemetry trace id in lowercase hex, however it was spelled; other text as is."""
    bare = text[2:] if text[:2] in ("0x", "0X") else text
    if len(bare) == 32 and _HEX.issuperset(bare):
        return bare.lower()
    if len(text) == 24 and text.endswith("=="):
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            return text
        if len(raw) == 16:
            return raw.hex()
    return text
