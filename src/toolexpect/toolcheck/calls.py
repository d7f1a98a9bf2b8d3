"""Check recorded calls against their tools' schemas: findings kept apart from any accuracy score."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Sequence

from jsonschema.exceptions import ValidationError, best_match
from referencing.exceptions import Unresolvable

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.catalogue import Catalogue
from toolexpect.toolcheck.findings import CallFinding, SampleFinding
from toolexpect.toolcheck.schemas import (
    ToolSchema,
    declared,
    lookup,
    properties_of,
    schema_for,
    unknown_help,
)

__all__ = ["CallFinding", "check_calls", "check_samples"]


def check_calls(calls: Sequence[ToolCall], catalogue: Catalogue) -> list[CallFinding]:
    """Find recorded calls that break their tool's schema (unknown tool or argument, bad value)."""
    schemas: dict[str, ToolSchema] = {}
    findings: list[CallFinding] = []
    for index, call in enumerate(calls):
        findings.extend(_check_call(index, call, catalogue, schemas))
    return findings


def check_samples(
    samples: Iterable[RecordedSample], catalogue: Catalogue, found: list[SampleFinding]
) -> Iterator[RecordedSample]:
    """Pass ``samples`` through as they are read, adding to ``found`` each recorded call that
    breaks its tool's schema, with its sample (what ``score --tools`` reports)."""
    for sample in samples:
        for finding in check_calls(sample.calls, catalogue):
            found.append(SampleFinding(sample.id, sample.path, sample.line, finding))
        yield sample


def _check_call(
    index: int, call: ToolCall, catalogue: Catalogue, schemas: dict[str, ToolSchema]
) -> Iterator[CallFinding]:
    tool = catalogue.get(call.name)
    if tool is None:
        if call.kind == "function":
            close = difflib.get_close_matches(call.name, list(catalogue.names), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            yield CallFinding(index, call.name, None, f"tool {call.name!r} is not in the catalogue" + hint)
        return
    if not call.valid_json:
        yield CallFinding(index, call.name, None, "the arguments are not valid JSON")
        return
    schema = schema_for(tool, schemas)
    arguments = dict(call.arguments)
    try:
        props, extra, is_open = properties_of(schema, schema.root)
    except Unresolvable:
        return
    unknown = [name for name in arguments if lookup(props, extra, is_open, name) is None]
    for name in unknown:
        yield CallFinding(
            index,
            call.name,
            name,
            f"argument {name!r} is not a parameter of {call.name!r}; " + unknown_help(name, declared(props)),
        )
    errors = schema.errors(arguments, schema.root)
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
        if error.validator == "additionalProperties" and not error.absolute_path:
            continue  # the unknown arguments, reported above
        if error.validator == "required" and not error.absolute_path:
            required = error.validator_value if isinstance(error.validator_value, list) else []
            for name in required:
                if isinstance(name, str) and name not in arguments:
                    yield CallFinding(index, call.name, name, f"required argument {name!r} is missing")
            continue
        path = list(error.absolute_path)
        argument = str(path[0]) if path else None
        if argument in unknown:
            continue
        yield CallFinding(index, call.name, argument, _call_message(argument, error))


def _call_message(argument: str | None, error: ValidationError) -> str:
    best = best_match([error]) or error
    if argument is None:
        return best.message
    return f"argument {argument!r} breaks its schema: {best.message}"
