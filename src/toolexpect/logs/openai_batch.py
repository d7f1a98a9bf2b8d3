"""OpenAI Batch API files: input lines (``custom_id`` + request ``body``) and output lines.

Output lines carry ``response.body`` (a chat completion or a Responses object); an errored
request (``error`` set, no body) is an R404 and yields a sample with no calls, so that its
case is scored rather than reported missing. Input lines yield the calls in the request's
conversation history. The ``custom_id`` is the sample id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample
from toolexpect.logs import openai_chat, openai_responses
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "read", "sniff"]

NAME = "openai-batch"


def sniff(value: Any) -> bool:
    """A batch input or output line (``custom_id`` with ``body`` or ``response``/``error``)."""
    return (
        isinstance(value, dict)
        and "custom_id" in value
        and (
            isinstance(value.get("body"), dict)
            or (isinstance(value.get("response"), dict) and "body" in value["response"])
            or ("error" in value and "response" in value)
        )
    )


def _body_samples(body: Any, sid: Any, ctx: Context, line: int | None) -> list[RecordedSample]:
    if not isinstance(body, dict):
        return []
    if isinstance(body.get("choices"), list):
        samples = openai_chat.completion_samples(body, ctx, line)
        return [ctx.sample(sid, s.calls, line) for s in samples]
    if isinstance(body.get("output"), list):
        return [openai_responses.response_sample(body, ctx, line, sid)]
    if isinstance(body.get("messages"), list):
        return [ctx.sample(sid, openai_chat.conversation_calls(body["messages"], ctx, line), line)]
    if isinstance(body.get("input"), list):
        calls = [openai_responses.item_call(i, ctx, line) for i in body["input"]]
        return [ctx.sample(sid, calls, line)]
    return [ctx.sample(sid, [], line)]


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per line (per choice for ``n`` > 1), ``custom_id`` as id."""
    for line, value in records:
        if not isinstance(value, dict):
            ctx.report("R404", "a batch line that is not an object was skipped", line)
            continue
        sid = value.get("custom_id")
        if "body" in value and "response" not in value:
            yield from _body_samples(value["body"], sid, ctx, line)
            continue
        response = value.get("response")
        body = response.get("body") if isinstance(response, dict) else None
        status = response.get("status_code") if isinstance(response, dict) else None
        error = value.get("error")
        if error or not isinstance(body, dict) or (isinstance(status, int) and status >= 400):
            detail = error if error else (body or {}).get("error") if isinstance(body, dict) else None
            message = detail.get("message") if isinstance(detail, dict) else detail
            ctx.report(
                "R404",
                f"batch request {sid!r} failed: {message or 'no response body'}; "
                "read as a sample with no calls",
                line,
            )
            yield ctx.sample(sid, [], line)
            continue
        yield from _body_samples(body, sid, ctx, line)
