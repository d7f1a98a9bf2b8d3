"""OpenAI Batch API files: input lines (``custom_id`` + request ``body``) and output lines.

Output lines carry ``response.body`` (a chat completion or a Responses object). A request
that failed (``error`` set, as for an expired request, or a response whose ``status_code`` is
400 or more, its ``body.error`` saying why) is a sample that failed (``RecordedSample.error``),
so that its case is an error rather than a run without calls; a line with neither a body nor
an error is an R404. Input lines yield the calls in the request's conversation history. The
``custom_id`` is the sample id.
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
        failure = _failure(value.get("error"), status, body)
        if failure is not None:
            yield ctx.failed(sid, failure, line)
        elif isinstance(body, dict):
            yield from _body_samples(body, sid, ctx, line)
        else:
            ctx.report(
                "R404",
                f"batch line {sid!r} has neither a response body nor an error; it was skipped",
                line,
                help="a batch output line holds response.body, or error for a request that failed",
            )


def _failure(error: Any, status: Any, body: Any) -> str | None:
    """Why a batch request failed, in the API's words (``None`` when it did not): the line's
    ``error`` (``{"code", "message"}``), else a status code of 400 or more with the body's
    ``error``."""
    failed_status = isinstance(status, int) and not isinstance(status, bool) and status >= 400
    if not error and not failed_status:
        return None
    detail = error if error else body.get("error") if isinstance(body, dict) else None
    words = [f"HTTP {status}"] if failed_status else []
    if isinstance(detail, dict):
        words.extend(str(detail[key]) for key in ("code", "type", "message") if detail.get(key))
    elif detail:
        words.append(str(detail))
    return ": ".join(words) or "the request failed"
