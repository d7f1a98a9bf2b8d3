"""The one rule for a call logged twice: every reader, and the runs put together from several
records, count each call once by it (:class:`CallList`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolexpect.calls import ToolCall
from toolexpect.matching.values import strict_equal

__all__ = ["CallList", "same_call"]


def same_call(a: ToolCall, b: ToolCall) -> bool:
    """Whether ``a`` and ``b`` are one call logged twice: the same kind, tool and arguments
    (equal with their types; the same raw text when it could not be decoded), and the same id or one of them
    without an id (a client gives its own id to a call that came back without one, and
    sends that id back in the next request's history)."""
    return (
        a.name == b.name
        and a.kind == b.kind
        and (a.id == b.id or a.id is None or b.id is None)
        and a.valid_json == b.valid_json
        and (a.valid_json or a.raw_arguments == b.raw_arguments)
        and a.arguments == b.arguments
        and _strictly_equal(a.arguments, b.arguments)
    )


def _strictly_equal(first: Mapping[str, Any], second: Mapping[str, Any]) -> bool:
    """Arguments equal with their types (``1`` is not ``True``, nor ``1.0``): the nested rule of
    :func:`toolexpect.matching.values.strict_equal`."""
    return strict_equal(dict(first), dict(second))


class CallList:
    """Calls gathered in order, each call counted once: the one rule of every reader and of
    the runs put together from several records.

    A call whose id names a call held already is that call again only when it is the same
    call (:func:`same_call`); another call under a used id (a server that numbers its ids per
    response, ``call_0`` in each) is another call, and is kept. Calls without an id are all
    kept.
    """

    __slots__ = ("_ids", "calls")

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []
        self._ids: dict[tuple[str, str], list[ToolCall]] = {}

    def add(self, call: ToolCall) -> ToolCall | None:
        """Add ``call``; ``None`` when it was added, else the held call it repeats (dropped)."""
        if call.id is not None:
            key = (call.kind, call.id)
            held = self._ids.get(key)
            if held is not None:
                for earlier in held:
                    if same_call(earlier, call):
                        return earlier
                held.append(call)
            else:
                self._ids[key] = [call]
        self.calls.append(call)
        return None

    def extend(self, calls: tuple[ToolCall, ...], replays: bool = True) -> list[tuple[ToolCall, ToolCall]]:
        """Add the calls of a record that may log the calls held so far again (``replays``: it
        holds its request's history or the conversation so far) before its own: when its first
        calls are the held ones, one by one the same call (:func:`same_call`), only the rest
        are added; the others, and every call of a record that holds no history (a response
        alone: the same call made again is another call), are added one by one. Gives the
        dropped calls, each with the held call it repeats."""
        held = len(self.calls)
        if replays and held and len(calls) >= held and all(map(same_call, self.calls, calls[:held])):
            for earlier, copy in zip(self.calls, calls[:held], strict=True):
                if earlier.id is None and copy.id is not None:
                    self._ids.setdefault((copy.kind, copy.id), []).append(earlier)
            calls = calls[held:]
        dropped = []
        for call in calls:
            repeated = self.add(call)
            if repeated is not None:
                dropped.append((call, repeated))
        return dropped
