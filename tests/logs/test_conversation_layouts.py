"""Generated conversations, saved in each layout a provider's loggers write, read back exactly.

Each conversation has 1 to 5 model turns of 0 to 4 calls (tools repeated, ids unique, numbered
per response as some servers do, or absent where the provider allows it, calls without
arguments). Saved as the docs list for each format (one record per conversation, request/response
envelopes whose request holds the history, a JSON document on one line or pretty-printed), several
conversations to a log, read back and paired by id, by question and by a named field: exactly the
generated calls, in order, one run per conversation, named after its case. The payloads are the
providers' own shapes; ``test_the_payloads_are_the_sdks_own`` checks them with the SDKs' types.
"""

from __future__ import annotations

import functools
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolexpect.api import parse_spec
from toolexpect.logs import open_log
from toolexpect.model import Spec
from toolexpect.pairing import PairingOptions, pair_runs

Call = tuple[str, dict[str, Any], str | None]
Turn = list[Call]
Conversation = list[Turn]

_ARGUMENTS = st.dictionaries(
    st.sampled_from(["city", "query", "limit"]),
    st.one_of(st.integers(-3, 30), st.text("abz ", max_size=4), st.booleans()),
    max_size=2,
)
_CALL = st.tuples(st.sampled_from(["get_weather", "search", "send_email"]), _ARGUMENTS)


@st.composite
def _conversation(draw: st.DrawFn, number: int, ids: tuple[str, ...]) -> Conversation:
    """1 to 5 turns of 0 to 4 calls; the ids of a conversation drawn among ``ids``: unique,
    numbered per response (``call_0`` in every turn), or absent."""
    style = draw(st.sampled_from(ids))
    turns: Conversation = []
    for turn_number in range(draw(st.integers(1, 5))):
        calls = draw(st.lists(_CALL, max_size=4))
        turns.append(
            [
                (
                    name,
                    arguments,
                    None
                    if style == "absent"
                    else f"call_{index}"
                    if style == "numbered"
                    else f"call_{number}_{turn_number}_{index}",
                )
                for index, (name, arguments) in enumerate(calls)
            ]
        )
    seen = [
        (cid, name, json.dumps(arguments, sort_keys=True)) for turn in turns for name, arguments, cid in turn
    ]
    # The same id, tool and arguments twice is one call logged twice: not what is generated here.
    assume(len({entry for entry in seen if entry[0] is not None}) == sum(e[0] is not None for e in seen))
    return turns


def _conversations(ids: tuple[str, ...]) -> st.SearchStrategy[list[Conversation]]:
    return st.integers(1, 3).flatmap(
        lambda count: st.tuples(*(_conversation(number, ids) for number in range(count))).map(list)
    )


def _case(number: int) -> str:
    return f"case {number}"


def _question(number: int) -> str:
    return f"Question number {number}?"


_FOLLOW_UP = {"role": "user", "content": "Go on."}
"""What the user says after a turn without calls, before the next turn."""


def _text(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments)


# --- OpenAI Chat Completions --------------------------------------------------------------


def _envelope(number: int, request: dict[str, Any], response: Any) -> dict[str, Any]:
    """A request/response record as gateways log it, named by its case's id and field."""
    return {
        "id": _case(number),
        "metadata": {"case": _case(number)},
        "request": request,
        "response": response,
    }


def _chat_assistant(turn: Turn) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None if turn else "Done."}
    if turn:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": _text(arguments)}}
            for name, arguments, cid in turn
        ]
    return message


def _chat_results(turn: Turn) -> list[dict[str, Any]]:
    return [{"role": "tool", "tool_call_id": cid, "content": "ok"} for _name, _arguments, cid in turn]


def _chat_messages(number: int, turns: Conversation) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": _question(number)}]
    for turn in turns:
        messages.append(_chat_assistant(turn))
        messages.extend(_chat_results(turn) or [_FOLLOW_UP])
    return messages


def _chat_completion(number: int, index: int, turn: Turn) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{number}-{index}",
        "object": "chat.completion",
        "created": 1764720000,
        "model": "gpt-4.1",
        "choices": [
            {
                "index": 0,
                "message": _chat_assistant(turn),
                "finish_reason": "tool_calls" if turn else "stop",
                "logprobs": None,
            }
        ],
    }


def _chat_envelopes(number: int, turns: Conversation) -> list[dict[str, Any]]:
    records = []
    history = _chat_messages(number, [])
    for index, turn in enumerate(turns):
        records.append(
            _envelope(
                number, {"model": "gpt-4.1", "messages": list(history)}, _chat_completion(number, index, turn)
            )
        )
        history.append(_chat_assistant(turn))
        history.extend(_chat_results(turn) or [_FOLLOW_UP])
    return records


def _chat_thread(number: int, turns: Conversation) -> list[dict[str, Any]]:
    return [
        {"id": _case(number), "metadata": {"case": _case(number)}, "messages": _chat_messages(number, turns)}
    ]


# --- Anthropic Messages -------------------------------------------------------------------


def _anthropic_content(turn: Turn) -> list[dict[str, Any]]:
    if not turn:
        return [{"type": "text", "text": "Done."}]
    return [
        {"type": "tool_use", "id": cid, "name": name, "input": arguments} for name, arguments, cid in turn
    ]


def _anthropic_results(turn: Turn) -> dict[str, Any]:
    return {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": cid, "content": "ok"} for _n, _a, cid in turn],
    }


def _anthropic_message(number: int, index: int, turn: Turn) -> dict[str, Any]:
    return {
        "id": f"msg_{number}_{index}",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": _anthropic_content(turn),
        "stop_reason": "tool_use" if turn else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def _anthropic_envelopes(number: int, turns: Conversation) -> list[dict[str, Any]]:
    records = []
    history: list[dict[str, Any]] = [{"role": "user", "content": _question(number)}]
    for index, turn in enumerate(turns):
        records.append(
            _envelope(
                number,
                {"model": "claude-sonnet-4-5", "max_tokens": 512, "messages": list(history)},
                _anthropic_message(number, index, turn),
            )
        )
        history.append({"role": "assistant", "content": _anthropic_content(turn)})
        history.append(_anthropic_results(turn) if turn else _FOLLOW_UP)
    return records


# --- Gemini -------------------------------------------------------------------------------


def _gemini_parts(turn: Turn) -> list[dict[str, Any]]:
    if not turn:
        return [{"text": "Done."}]
    return [
        {"functionCall": {"name": name, "args": arguments, **({"id": cid} if cid else {})}}
        for name, arguments, cid in turn
    ]


def _gemini_response(number: int, index: int, turn: Turn) -> dict[str, Any]:
    return {
        "candidates": [
            {"content": {"role": "model", "parts": _gemini_parts(turn)}, "finishReason": "STOP", "index": 0}
        ],
        "modelVersion": "gemini-2.5-flash",
        "responseId": f"resp-{number}-{index}",
    }


def _gemini_envelopes(number: int, turns: Conversation) -> list[dict[str, Any]]:
    records = []
    history: list[dict[str, Any]] = [{"role": "user", "parts": [{"text": _question(number)}]}]
    for index, turn in enumerate(turns):
        records.append(_envelope(number, {"contents": list(history)}, _gemini_response(number, index, turn)))
        history.append({"role": "model", "parts": _gemini_parts(turn)})
        if not turn:
            history.append({"role": "user", "parts": [{"text": _FOLLOW_UP["content"]}]})
        else:
            history.append(
                {
                    "role": "user",
                    "parts": [
                        {"functionResponse": {"name": name, "response": {"result": "ok"}}}
                        for name, _a, _c in turn
                    ],
                }
            )
    return records


# --- OpenAI Responses ---------------------------------------------------------------------


def _responses_items(turn: Turn) -> list[dict[str, Any]]:
    if not turn:
        return [
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "Done.", "annotations": []}],
            }
        ]
    return [
        {
            "type": "function_call",
            "id": f"fc_{cid}",
            "call_id": cid,
            "name": name,
            "arguments": _text(arguments),
            "status": "completed",
        }
        for name, arguments, cid in turn
    ]


def _responses_envelopes(number: int, turns: Conversation) -> list[dict[str, Any]]:
    records = []
    history: list[dict[str, Any]] = [{"role": "user", "content": _question(number)}]
    for index, turn in enumerate(turns):
        records.append(
            _envelope(
                number,
                {"model": "gpt-4.1", "input": list(history)},
                {
                    "id": f"resp_{number}_{index}",
                    "object": "response",
                    "created_at": 1764720000.0,
                    "model": "gpt-4.1",
                    "status": "completed",
                    "output": _responses_items(turn),
                    "parallel_tool_calls": True,
                    "tool_choice": "auto",
                    "tools": [],
                },
            )
        )
        history.extend(_responses_items(turn))
        history.extend(
            {"type": "function_call_output", "call_id": cid, "output": "ok"} for _n, _a, cid in turn
        )
        if not turn:
            history.append(_FOLLOW_UP)
    return records


# --- LangChain ----------------------------------------------------------------------------


def _langchain_thread(number: int, turns: Conversation) -> list[dict[str, Any]]:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict

    messages: list[Any] = [HumanMessage(content=_question(number))]
    for turn in turns:
        messages.append(
            AIMessage(
                content="" if turn else "Done.",
                tool_calls=[{"name": name, "args": arguments, "id": cid} for name, arguments, cid in turn],
            )
        )
        messages.extend(ToolMessage(content="ok", tool_call_id=cid or "none") for _n, _a, cid in turn)
        if not turn:
            messages.append(HumanMessage(content=_FOLLOW_UP["content"]))
    return [
        {"id": _case(number), "metadata": {"case": _case(number)}, "messages": messages_to_dict(messages)}
    ]


# --- Streams: the chunks or events of each turn, a file per conversation -------------------


def _halves(text: str) -> list[str]:
    """A call's argument text in two pieces, as streams send it."""
    return [text[: len(text) // 2], text[len(text) // 2 :]]


def _chat_stream(number: int, turns: Conversation) -> list[dict[str, Any]]:
    records = []
    for index, turn in enumerate(turns):

        def chunk(
            delta: dict[str, Any], finish: str | None = None, turn_number: int = index
        ) -> dict[str, Any]:
            return {
                "id": f"chatcmpl-{number}-{turn_number}",
                "object": "chat.completion.chunk",
                "created": 1764720000,
                "model": "gpt-4.1",
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
            }

        records.append(chunk({"role": "assistant", "content": None if turn else ""}))
        for position, (name, arguments, cid) in enumerate(turn):
            start = {
                "index": position,
                "id": cid,
                "type": "function",
                "function": {"name": name, "arguments": ""},
            }
            records.append(chunk({"tool_calls": [start]}))
            for piece in _halves(json.dumps(arguments)):
                records.append(chunk({"tool_calls": [{"index": position, "function": {"arguments": piece}}]}))
        if not turn:
            records.append(chunk({"content": "Done."}))
        records.append(chunk({}, "tool_calls" if turn else "stop"))
    return records


def _anthropic_stream(number: int, turns: Conversation) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []
    for index, turn in enumerate(turns):
        message = dict(_anthropic_message(number, index, []), content=[], stop_reason=None)
        records.append({"type": "message_start", "message": message})
        for position, (name, arguments, cid) in enumerate(turn):
            block = {"type": "tool_use", "id": cid, "name": name, "input": {}}
            records.append({"type": "content_block_start", "index": position, "content_block": block})
            for piece in _halves(json.dumps(arguments)):
                delta = {"type": "input_json_delta", "partial_json": piece}
                records.append({"type": "content_block_delta", "index": position, "delta": delta})
            records.append({"type": "content_block_stop", "index": position})
        if not turn:
            records.append(
                {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
            )
            delta = {"type": "text_delta", "text": "Done."}
            records.append({"type": "content_block_delta", "index": 0, "delta": delta})
            records.append({"type": "content_block_stop", "index": 0})
        stop = {"stop_reason": "tool_use" if turn else "end_turn", "stop_sequence": None}
        records.append({"type": "message_delta", "delta": stop, "usage": {"output_tokens": 5}})
        records.append({"type": "message_stop"})
    return records


def _gemini_stream(number: int, turns: Conversation) -> list[dict[str, Any]]:
    records = []
    for index, turn in enumerate(turns):
        first = _gemini_response(number, index, [])
        first["candidates"][0]["content"]["parts"] = [{"text": "Let me see. "}]
        del first["candidates"][0]["finishReason"]
        records.append(first)
        if turn:
            records.append(_gemini_response(number, index, turn))
    return records


def _responses_stream(number: int, turns: Conversation) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = []

    def event(kind: str, **fields: Any) -> None:
        records.append({"type": kind, "sequence_number": len(records), **fields})

    for index, turn in enumerate(turns):
        response = _responses_envelopes(number, [turn])[0]["response"]
        response["id"] = f"resp_{number}_{index}"
        event("response.created", response=dict(response, output=[], status="in_progress"))
        for position, item in enumerate(response["output"]):
            if item["type"] != "function_call":
                event("response.output_item.added", output_index=position, item=item)
                event("response.output_item.done", output_index=position, item=item)
                continue
            event("response.output_item.added", output_index=position, item=dict(item, arguments=""))
            for piece in _halves(item["arguments"]):
                event(
                    "response.function_call_arguments.delta",
                    item_id=item["id"],
                    output_index=position,
                    delta=piece,
                )
            event(
                "response.function_call_arguments.done",
                item_id=item["id"],
                output_index=position,
                arguments=item["arguments"],
                name=item["name"],
            )
            event("response.output_item.done", output_index=position, item=item)
        event("response.completed", response=response)
    return records


STREAMS: dict[str, tuple[Layout, tuple[str, ...]]] = {}
"""Each streamed layout: the records of one conversation, a log file per conversation named
after its case (paired by file), and the ids its provider gives."""


Layout = Callable[[int, Conversation], list[dict[str, Any]]]


def _chat_bare(number: int, turns: Conversation) -> list[dict[str, Any]]:
    """A growing conversation with no id: the whole conversation so far at each turn."""
    return [
        {"metadata": {"case": _case(number)}, "messages": _chat_messages(number, turns[: index + 1])}
        for index in range(len(turns))
    ]


def _anthropic_bare(number: int, turns: Conversation) -> list[dict[str, Any]]:
    """The request and response of each turn side by side, without an id."""
    return [dict(record, id=None) for record in _anthropic_envelopes(number, turns)]


def _gemini_bare(number: int, turns: Conversation) -> list[dict[str, Any]]:
    """The request and response of each turn side by side, without an id."""
    return [dict(record, id=None) for record in _gemini_envelopes(number, turns)]


LAYOUTS: dict[str, tuple[Layout, tuple[str, ...]]] = {
    "openai-chat envelopes": (_chat_envelopes, ("unique", "numbered")),
    "openai-chat thread": (_chat_thread, ("unique", "numbered")),
    "anthropic envelopes": (_anthropic_envelopes, ("unique",)),
    "gemini envelopes": (_gemini_envelopes, ("absent", "unique")),
    "openai-responses envelopes": (_responses_envelopes, ("unique",)),
    "langchain thread": (_langchain_thread, ("unique", "absent")),
    "openai-chat bare": (_chat_bare, ("unique", "numbered")),
    "anthropic bare": (_anthropic_bare, ("unique",)),
    "gemini bare": (_gemini_bare, ("absent", "unique")),
}
"""Each layout: how one conversation is written as records, and the ids its provider gives."""

BARE = frozenset(name for name in LAYOUTS if name.endswith(" bare"))
"""Layouts whose records name no case: paired by question or by a field, never by id."""


STREAMS.update(
    {
        "openai-chat chunks": (_chat_stream, ("unique", "numbered")),
        "anthropic events": (_anthropic_stream, ("unique",)),
        "gemini chunks": (_gemini_stream, ("absent", "unique")),
        "openai-responses events": (_responses_stream, ("unique",)),
    }
)

WRITINGS = ("jsonl", "one-line document", "pretty document")

_EXAMPLES = max(10, settings().max_examples // 4)
"""A quarter of the profile's examples for each of the many combinations (25 by default, 1,250
with ``HYPOTHESIS_PROFILE=long``: over 10,000 for each format)."""

PAIRINGS = {
    "id": PairingOptions(),
    "question": PairingOptions("question"),
    "field": PairingOptions(case_from="metadata.case"),
}

COMBINATIONS = [
    (layout, writing, pairing)
    for layout in LAYOUTS
    for writing in WRITINGS
    for pairing in PAIRINGS
    if not (layout in BARE and pairing == "id")
]


@functools.cache
def _spec(count: int) -> Spec:
    return parse_spec(_spec_text(count), "cases")


def _spec_text(count: int) -> str:
    return "".join(
        f'case "{_case(number)}" {{\n    question "{_question(number)}"\n    forbid delete_everything\n}}\n'
        for number in range(count)
    )


def _write(records: list[dict[str, Any]], writing: str, folder: Path) -> Path:
    path = folder / ("log.jsonl" if writing == "jsonl" else "log.json")
    if writing == "jsonl":
        text = "".join(json.dumps(record) + "\n" for record in records)
    elif writing == "one-line document":
        text = json.dumps(records) + "\n"
    else:
        text = json.dumps(records, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    return path


def _expected(conversations: list[Conversation]) -> list[tuple[str, list[tuple[str, dict[str, Any]]]]]:
    return [
        (_case(number), [(name, arguments) for turn in turns for name, arguments, _cid in turn])
        for number, turns in enumerate(conversations)
    ]


def _read_back(
    layout: str, writing: str, pairing: str, conversations: list[Conversation]
) -> list[tuple[str | None, list[tuple[str, dict[str, Any]]]]]:
    write, _ids = LAYOUTS[layout]
    records = [record for number, turns in enumerate(conversations) for record in write(number, turns)]
    with tempfile.TemporaryDirectory() as folder:
        reader = open_log(_write(records, writing, Path(folder)))
        spec = _spec(len(conversations))
        runs = list(pair_runs([spec], [reader], PAIRINGS[pairing]))
        errors = [d for d in reader.diagnostics if d.code != "R410"]
        assert errors == []
        counted = reader.records
        assert counted.reported == 0
        assert counted.records == len(records)
    return [(run.id, [(call.name, dict(call.arguments)) for call in run.calls]) for run in runs]


@pytest.mark.parametrize(("layout", "writing", "pairing"), COMBINATIONS)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], max_examples=_EXAMPLES)
@given(data=st.data())
def test_generated_conversations_read_back_exactly(
    layout: str, writing: str, pairing: str, data: st.DataObject
) -> None:
    """Every generated call comes back, in order, in one run per conversation, named after its
    case, whatever the layout, the writing and the pairing."""
    conversations = data.draw(_conversations(LAYOUTS[layout][1]))
    assert _read_back(layout, writing, pairing, conversations) == _expected(conversations)


@pytest.mark.parametrize("layout", STREAMS)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], max_examples=_EXAMPLES)
@given(data=st.data())
def test_generated_streams_read_back_exactly(layout: str, data: st.DataObject) -> None:
    """Streamed turn by turn, a file per conversation named after its case: paired by file,
    every generated call comes back, in order, one run per conversation."""
    write, ids = STREAMS[layout]
    conversations = data.draw(_conversations(ids))
    with tempfile.TemporaryDirectory() as folder:
        readers = []
        for number, turns in enumerate(conversations):
            records = write(number, turns)
            path = Path(folder) / f"{_case(number).replace(' ', '-')}.jsonl"
            path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
            readers.append(open_log(path))
        runs = list(pair_runs([_spec(len(conversations))], readers, PairingOptions("file")))
        for reader, turns in zip(readers, conversations, strict=True):
            assert [d for d in reader.diagnostics if d.code != "R410"] == []
            assert reader.records.reported == 0
            assert reader.records.with_calls >= any(turns)
    got = [(run.id, [(call.name, dict(call.arguments)) for call in run.calls]) for run in runs]
    assert got == _expected(conversations)


def test_the_payloads_are_the_sdks_own() -> None:
    """The generated provider objects are valid for the SDKs' own types."""
    from anthropic.types import Message
    from google.genai import types
    from openai.types.chat import ChatCompletion
    from openai.types.responses import Response

    turn: Turn = [("get_weather", {"city": "Berlin"}, "call_1"), ("search", {}, "call_2")]
    ChatCompletion.model_validate(_chat_completion(0, 0, turn))
    Message.model_validate(_anthropic_message(0, 0, turn))
    types.GenerateContentResponse.model_validate(_gemini_response(0, 0, turn))
    Response.model_validate(_responses_envelopes(0, [turn])[0]["response"])
    from anthropic.types import RawMessageStreamEvent
    from openai.types.chat import ChatCompletionChunk
    from openai.types.responses import ResponseStreamEvent
    from pydantic import TypeAdapter

    for chunk in _chat_stream(0, [turn, []]):
        ChatCompletionChunk.model_validate(chunk)
    for event in _anthropic_stream(0, [turn, []]):
        TypeAdapter(RawMessageStreamEvent).validate_python(event)
    for chunk in _gemini_stream(0, [turn, []]):
        types.GenerateContentResponse.model_validate(chunk)
    for event in _responses_stream(0, [turn, []]):
        TypeAdapter(ResponseStreamEvent).validate_python(event)
