"""Document symbols for the outline: each case, and in it its expectations, forbidden calls,
requirements and question, at the spans of the parsed document."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from toolexpect.diagnostics import Span
from toolexpect.server.analysis import Analysis
from toolexpect.server.positions import Positions

__all__ = ["document_symbols"]

_Kind = types.SymbolKind


def document_symbols(analysis: Analysis, positions: Positions) -> list[types.DocumentSymbol]:
    """The cases of the document with their statements; none when it does not parse."""
    document = analysis.loaded.document
    if document is None:
        return []
    return [_case(case, positions) for case in document["cases"] if "span" in case]


def _symbol(
    name: str, kind: types.SymbolKind, span: dict[str, int], positions: Positions, **extra: Any
) -> types.DocumentSymbol:
    where = positions.range(Span.from_json(span))
    return types.DocumentSymbol(name=name, kind=kind, range=where, selection_range=where, **extra)


def _case(case: dict[str, Any], positions: Positions) -> types.DocumentSymbol:
    children: list[tuple[tuple[int, int], types.DocumentSymbol]] = []

    def add(span: dict[str, int] | None, symbol: types.DocumentSymbol) -> None:
        if span is not None:
            children.append(((span["line"], span["column"]), symbol))

    if "question_span" in case:
        add(
            case["question_span"],
            _symbol("question", _Kind.String, case["question_span"], positions, detail=case.get("question")),
        )
    for word, kind in (("expect", _Kind.Function), ("forbid", _Kind.Event)):
        for call in case.get(word, ()):
            if "span" in call:
                add(
                    call["span"],
                    _symbol(
                        f"{word} {call['tool']}",
                        kind,
                        call["span"],
                        positions,
                        detail=", ".join(arg["name"] for arg in call.get("args", ())),
                    ),
                )
    for requirement in case.get("require", ()):
        if "span" in requirement:
            threshold = requirement.get("threshold")
            add(
                requirement["span"],
                _symbol(
                    "require " + requirement["kind"].replace("_", " "),
                    _Kind.Property,
                    requirement["span"],
                    positions,
                    detail=None if threshold is None else str(threshold),
                ),
            )
    children.sort(key=lambda pair: pair[0])
    return _symbol(
        case["name"],
        _Kind.Namespace,
        case["span"],
        positions,
        detail="statements outside any case" if case.get("implicit") else "case",
        children=[symbol for _, symbol in children],
    )
