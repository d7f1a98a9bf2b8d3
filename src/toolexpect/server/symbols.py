"""Document symbols for the outline: each case, and in it its expectations, forbidden calls,
requirements and question, at the spans of the parsed document.

The analysis may be of an older text than the document's (the last version that parsed, while
the text as it is now does not): its ranges are then kept within the text as it is now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from toolexpect.diagnostics import Span
from toolexpect.language.write import write_count
from toolexpect.server.analysis import Analysis
from toolexpect.server.positions import Positions

__all__ = ["document_symbols"]

_Kind = types.SymbolKind


def document_symbols(
    analysis: Analysis, positions: Positions, now: Positions | None = None
) -> list[types.DocumentSymbol]:
    """The cases of the analysed document with their statements; none when it does not parse.

    ``positions`` are the places of the analysed text; ``now`` those of the document's text as
    it is now, when that is another (each range then ends by the end of that text at most).
    """
    document = analysis.loaded.document
    if document is None:
        return []
    end = (now or positions).whole().end
    place = _Place(positions, (end.line, end.character))
    return [_case(case, place) for case in document["cases"] if "span" in case]


@dataclass(frozen=True, slots=True)
class _Place:
    """Spans of the analysed text to LSP ranges, none past ``end`` (a line and character)."""

    positions: Positions
    end: tuple[int, int]

    def range(self, span: dict[str, int]) -> types.Range:
        """The range of a document span, cut at the end."""
        found = self.positions.range(Span.from_json(span))
        return types.Range(start=self._within(found.start), end=self._within(found.end))

    def _within(self, position: types.Position) -> types.Position:
        line, character = min((position.line, position.character), self.end)
        return types.Position(line=line, character=character)


def _symbol(
    name: str, kind: types.SymbolKind, span: dict[str, int], place: _Place, **extra: Any
) -> types.DocumentSymbol:
    where = place.range(span)
    return types.DocumentSymbol(name=name, kind=kind, range=where, selection_range=where, **extra)


def _case(case: dict[str, Any], place: _Place) -> types.DocumentSymbol:
    children: list[tuple[tuple[int, int], types.DocumentSymbol]] = []

    def add(span: dict[str, int] | None, symbol: types.DocumentSymbol) -> None:
        if span is not None:
            children.append(((span["line"], span["column"]), symbol))

    if "question_span" in case:
        add(
            case["question_span"],
            _symbol("question", _Kind.String, case["question_span"], place, detail=case.get("question")),
        )
    for word, kind in (("expect", _Kind.Function), ("forbid", _Kind.Event), ("allow", _Kind.Method)):
        for call in case.get(word, ()):
            if "span" in call:
                add(
                    call["span"],
                    _symbol(
                        f"{word} {call['tool']}",
                        kind,
                        call["span"],
                        place,
                        detail=", ".join(arg["name"] for arg in call.get("args", ())),
                    ),
                )
    for requirement in case.get("require", ()):
        if "span" in requirement:
            threshold = requirement.get("threshold")
            name = "require " + requirement["kind"].replace("_", " ")
            detail = None if threshold is None else str(threshold)
            if requirement["kind"] == "count":  # its bounds and tool; the arguments as detail
                call = requirement.get("call")
                bare = {k: v for k, v in requirement.items() if k in ("kind", "at_least", "at_most")}
                name = write_count({**bare, "call": {"tool": call["tool"]}} if call else bare)
                detail = ", ".join(arg["name"] for arg in call.get("args", ())) if call else None
            add(requirement["span"], _symbol(name, _Kind.Property, requirement["span"], place, detail=detail))
    children.sort(key=lambda pair: pair[0])
    return _symbol(
        case["name"],
        _Kind.Namespace,
        case["span"],
        place,
        detail="statements outside any case" if case.get("implicit") else "case",
        children=[symbol for _, symbol in children],
    )
