"""Check a spec against a tool catalogue: what in it can never match a call the catalogue allows
(``T500``-``T504``, each at the span of the expectation or argument it is about)."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from referencing.exceptions import Unresolvable

from toolexpect.catalogue import Catalogue
from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.model import (
    COMPARISONS,
    ArgMatcher,
    Expectation,
    KeyMatch,
    Op,
    PartialObject,
    Pattern,
    Spec,
    holds_matchers,
)
from toolexpect.toolcheck.satisfy import range_problem, show, unmatched_strings
from toolexpect.toolcheck.schemas import (
    MAX_DEPTH,
    NUMBER,
    Node,
    ToolSchema,
    child_of,
    declared,
    describe_types,
    lookup,
    members_of,
    properties_of,
    reason_of,
    schema_for,
    types_of,
    unknown_help,
)

if TYPE_CHECKING:
    from toolexpect.specfiles.stages import SpecFile

__all__ = ["check_spec", "check_spec_file"]


def check_spec(spec: Spec, catalogue: Catalogue) -> list[Diagnostic]:
    """Report what in ``spec`` can never match a call that ``catalogue`` allows."""
    schemas: dict[str, ToolSchema] = {}
    found: list[Diagnostic] = []
    for case in spec.cases:
        for expectation in case.expectations:
            found.extend(_check_expectation(expectation, catalogue, schemas, forbid=False))
        for forbidden in case.forbids:
            found.extend(_check_expectation(forbidden, catalogue, schemas, forbid=True))
        for allowed in case.allows:  # checked as an expectation: a call it allows must be possible
            found.extend(_check_expectation(allowed, catalogue, schemas, forbid=False))
    if spec.path is not None:
        found = [d.with_path(spec.path) for d in found]
    return found


def check_spec_file(loaded: SpecFile, catalogue: Catalogue) -> list[Diagnostic]:
    """A loaded spec file's diagnostics and what ``catalogue`` finds in it, sorted by place.

    The catalogue is checked only against a spec the pipeline could model; what ``lint --tools``
    reports for one file.
    """
    spec = loaded.spec
    if spec is None:
        return list(loaded.diagnostics)
    found = [*loaded.diagnostics, *check_spec(spec, catalogue)]
    found.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return found


def _check_expectation(
    expectation: Expectation,
    catalogue: Catalogue,
    schemas: dict[str, ToolSchema],
    *,
    forbid: bool,
) -> Iterator[Diagnostic]:
    tool = catalogue.get(expectation.tool)
    if tool is None:
        close = difflib.get_close_matches(expectation.tool, list(catalogue.names), n=3)
        help = (
            f"did you mean {' or '.join(repr(c) for c in close)}?"
            if close
            else "add the tool to the catalogue, or check its spelling"
        )
        if forbid:
            yield make(
                "T504",
                f"forbidden tool {expectation.tool!r} is not in the catalogue, so no call can"
                " match this forbid",
                expectation.span,
                help=help,
            )
        else:
            yield make(
                "T500",
                f"tool {expectation.tool!r} is not in the catalogue",
                expectation.span,
                help=help,
            )
        return
    schemas_for_tool = schema_for(tool, schemas)
    try:
        props, extra, is_open = properties_of(schemas_for_tool, schemas_for_tool.root)
    except Unresolvable:
        return
    for arg in expectation.args:
        target = lookup(props, extra, is_open, arg.name)
        if target is None:
            if arg.op is Op.ABSENT:
                continue  # `not x` of an undeclared argument checks it was not hallucinated
            yield make(
                "T501",
                f"tool {tool.name!r} has no argument {arg.name!r}",
                arg.span,
                help=unknown_help(arg.name, declared(props)),
            )
            continue
        if target.schema is True:
            continue
        yield from _check_matcher(arg, tool.name, target, schemas_for_tool)


def _check_matcher(
    arg: ArgMatcher, tool: str, node: Node, schemas: ToolSchema, where: str | None = None
) -> Iterator[Diagnostic]:
    """What can never hold of one matcher against the subschema at ``node``; ``where`` names a
    key inside a value (``key 'city' of argument 'location' of 'get_weather'``)."""
    where = where or f"argument {arg.name!r} of {tool!r}"
    try:
        types = types_of(schemas, node)
        resolved = schemas.deref(node)
    except Unresolvable:
        return
    op = arg.op
    span = arg.span
    if op in (Op.ANY, Op.ABSENT):
        return
    if op is Op.EQ:
        yield from _check_pattern(arg.value, node, where, span, schemas, tool)
    elif op is Op.NE:
        yield from _check_pattern(arg.value, node, where, span, schemas, tool, negated=True)
    elif op is Op.CONTAINS:
        yield from _check_contains(arg, node, where, schemas, tool, types)
    elif op is Op.IN:
        for value in arg.values:
            errors = schemas.errors(value, node)
            if errors:
                yield make(
                    "T503",
                    f"choice {show(value)} of `in` can never match {where}: {reason_of(errors)}",
                    span,
                    help="remove the choice, or fix it to a value the schema allows",
                )
    elif op is Op.REGEX:
        if "string" not in types:
            yield make(
                "T503",
                f"`~` matches only strings, but {where} takes {describe_types(types)}",
                span,
                help="compare with `=`, `in` or a bound instead",
            )
            return
        try:
            listed = unmatched_strings(arg, node, schemas)
        except Unresolvable:
            return
        if listed is not None:
            miss = {
                0: "but the schema lists no string",
                1: "does not match the one string the schema lists",
            }.get(len(listed), f"matches none of the {len(listed)} strings the schema lists")
            yield make(
                "T502",
                f"no value the schema allows for {where} satisfies this matcher:"
                f" `{arg.name} ~ {show(arg.pattern)}` {miss}",
                span,
                help="write a pattern that matches one of the allowed values: " + _some(listed)
                if listed
                else "the schema allows no string: compare with `=` or `in` instead",
            )
    elif op in COMPARISONS or op is Op.APPROX:
        symbol = "+-" if op is Op.APPROX else op.value
        if not types & NUMBER:
            yield make(
                "T503",
                f"`{symbol}` matches only numbers, but {where} takes {describe_types(types)}",
                span,
                help="compare with `=`, `in` or `~` instead",
            )
        else:
            problem = range_problem(arg, resolved.schema)
            if problem:
                yield make(
                    "T502",
                    f"no value the schema allows for {where} satisfies this matcher: {problem}",
                    span,
                    help="change the bound to one inside the parameter's range",
                )
    elif op is Op.PARTIAL:
        yield from _check_pattern(arg.value, node, where, span, schemas, tool)


def _check_contains(
    arg: ArgMatcher, node: Node, where: str, schemas: ToolSchema, tool: str, types: frozenset[str]
) -> Iterator[Diagnostic]:
    """``contains`` on a parameter that is neither an array nor a string, a substring that is
    no string, or an element the array's items never are."""
    span = arg.span
    if not types & {"array", "string"}:
        yield make(
            "T503",
            f"`contains` matches only lists and strings, but {where} takes {describe_types(types)}",
            span,
            help="compare the whole value with `=`, or match a key of an object with "
            f'{arg.name}={{key ~ "..."}}',
        )
        return
    if "array" not in types:
        if not isinstance(arg.value, str):
            yield make(
                "T503",
                f"`contains` looks for a string in {where}, which takes strings, but"
                f" {_show_pattern(arg.value)} is no string",
                span,
                help='write the text to look for as a string: contains "..."',
            )
        return
    resolved = schemas.deref(node)
    schema = resolved.schema if isinstance(resolved.schema, dict) else {}
    if isinstance(schema.get("items"), dict):
        item = child_of(resolved, "items")
        if item.schema is not True:
            found = list(_check_pattern(arg.value, item, f"an item of {where}", span, schemas, tool))
            if found and "string" in types and isinstance(arg.value, str):
                return  # a string parameter may hold it as a substring
            yield from found


def _show_pattern(pattern: Pattern) -> str:
    """A pattern as the reports show it (partial objects and keys' matchers included)."""
    from toolexpect.matching.wording import render_value

    return render_value(pattern)


def _some(values: list[str], most: int = 5) -> str:
    """The first few of ``values`` as the language writes them, saying how many are left out."""
    shown = ", ".join(show(v) for v in values[:most])
    rest = len(values) - most
    return f"{shown}, … ({rest} more)" if rest > 0 else shown


def _check_pattern(
    pattern: Pattern,
    node: Node,
    where: str,
    span: Span | None,
    schemas: ToolSchema,
    tool: str,
    *,
    negated: bool = False,
) -> Iterator[Diagnostic]:
    """Check a literal (which may hold partial objects and keys' matchers) against the
    subschema at ``node``; a key's matchers are checked as an argument's are.

    ``negated`` is the value of a ``!=``: one the schema rejects makes the condition hold for
    every valid call, which is as much a mistake as an ``=`` that can never hold.
    """
    if not holds_matchers(pattern):
        errors = schemas.errors(pattern, node)
        if errors and negated:
            yield make(
                "T502",
                f"`!=` value {show(pattern)} of {where} breaks its schema, so every valid"
                f" call meets the condition: {reason_of(errors)}",
                span,
                help="compare with a value the tool's schema allows, or drop the condition",
            )
        elif errors:
            yield make(
                "T502",
                f"value {show(pattern)} of {where} breaks its schema: {reason_of(errors)}",
                span,
                help="use a value the tool's schema allows",
            )
        return
    types = types_of(schemas, node)
    if isinstance(pattern, PartialObject | dict):
        if "object" not in types:
            yield make(
                "T503",
                f"an object pattern cannot match {where}, which takes {describe_types(types)}",
                span,
                help="compare with a value of the parameter's type",
            )
            return
        entries = pattern.entries if isinstance(pattern, PartialObject) else pattern
        props, extra, is_open = properties_of(schemas, _object_branch(schemas, node))
        for key, value in entries.items():
            target = lookup(props, extra, is_open, key)
            matched = value.matchers if isinstance(value, KeyMatch) else ()
            if target is None:
                if matched and all(m.op is Op.ABSENT for m in matched):
                    continue  # `not key` of an undeclared key checks it was not hallucinated
                yield make(
                    "T501",
                    f"{where} has no key {key!r} in its object schema",
                    (matched[0].span if matched else None) or span,
                    help=unknown_help(key, declared(props)),
                )
            elif target.schema is True:
                continue
            elif matched:
                for matcher in matched:
                    placed = matcher if matcher.span is not None else replace(matcher, span=span)
                    yield from _check_matcher(placed, tool, target, schemas, f"key {key!r} of {where}")
            else:
                yield from _check_pattern(
                    value, target, f"key {key!r} of {where}", span, schemas, tool, negated=negated
                )
    elif isinstance(pattern, list):
        if "array" not in types:
            yield make(
                "T503",
                f"a list pattern cannot match {where}, which takes {describe_types(types)}",
                span,
            )
            return
        resolved = schemas.deref(node)
        schema = resolved.schema if isinstance(resolved.schema, dict) else {}
        prefix_items = schema.get("prefixItems")
        prefix: list[Any] = prefix_items if isinstance(prefix_items, list) else []
        for index, item in enumerate(pattern):
            if index < len(prefix):
                item_node = Node(prefix[index], resolved.resolver)
            elif isinstance(schema.get("items"), dict | bool):
                item_node = child_of(resolved, "items")
            else:
                continue
            if item_node.schema is True:
                continue
            yield from _check_pattern(
                item, item_node, f"item {index} of {where}", span, schemas, tool, negated=negated
            )


def _object_branch(schemas: ToolSchema, node: Node, depth: int = 0) -> Node:
    """The node that describes the object: the node itself, or its only object alternative.

    ``Optional[dict]`` and ``{"anyOf": [{"type": "object", …}, {"type": "null"}]}`` keep
    their properties in one ``anyOf``/``oneOf`` branch.
    """
    resolved = schemas.deref(node)
    schema = resolved.schema
    if (
        not isinstance(schema, dict)
        or {"properties", "additionalProperties"} & set(schema)
        or depth > MAX_DEPTH
    ):
        return resolved
    for key in ("anyOf", "oneOf"):
        branches = [m for m in members_of(resolved, key) if "object" in types_of(schemas, m)]
        if len(branches) == 1:
            return _object_branch(schemas, branches[0], depth + 1)
    return resolved
