"""Validate a document against the published JSON Schema; errors become diagnostics.

The schema (Draft 2020-12) ships in the package as ``schema/spec.schema.json`` and is
printed by ``toolexpect schema``. Every document, parsed from text or read from JSON or
YAML, passes through :func:`validate` before a model is built from it.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.document import without_spans

if TYPE_CHECKING:
    import jsonschema_rs
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

__all__ = [
    "is_valid",
    "locate_in_document",
    "report_problem",
    "report_schema",
    "report_schema_text",
    "schema",
    "schema_text",
    "validate",
]

PathKey = tuple[str | int, ...]
Locate = Callable[[PathKey, bool], Span | None]


def schema_text() -> str:
    """The published JSON Schema of the canonical document, as text."""
    return _packaged("spec.schema.json")


def _packaged(name: str) -> str:
    """The text of the schema file ``name`` shipped in the package."""
    beside = Path(__file__).parent / "schema" / name
    if beside.is_file():  # the usual install; importlib.resources costs start-up time
        return beside.read_text("utf-8")
    from importlib import resources

    return resources.files("toolexpect").joinpath("schema", name).read_text("utf-8")


@functools.cache
def schema() -> dict[str, Any]:
    """The published JSON Schema of the canonical document."""
    loaded: dict[str, Any] = json.loads(schema_text())
    return loaded


@functools.cache
def _checker() -> jsonschema_rs.Draft202012Validator:
    """The validator that decides whether a document is valid (compiled once, in Rust)."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(schema())


@functools.cache
def _validator() -> Draft202012Validator:
    """The validator that finds and words the errors of an invalid document."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


@functools.cache
def _shallow_validator() -> Draft202012Validator:
    """:func:`_validator` that does not look inside argument values (``$defs`` ``pattern`` and
    ``entry`` allow anything): the document's other errors, found without walking a long
    value node by node in Python."""
    from jsonschema import Draft202012Validator

    shallow = dict(schema())
    shallow["$defs"] = dict(shallow["$defs"], pattern=True, entry=True)  # the cached schema stays
    return Draft202012Validator(shallow)


def _inside_values(document: Any) -> bool:
    """True when an error of ``document`` lies at or inside an argument's value (a ``$match``
    list that breaks the schema), or when the compiled validator cannot tell."""
    try:
        errors = list(_checker().iter_errors(document))
    except (TypeError, ValueError, OverflowError):
        return True
    for error in errors:
        path = list(error.instance_path)
        if "value" in path:
            return True
    return False


def is_valid(document: Any) -> bool:
    """True when ``document`` satisfies the published schema."""
    try:
        return _checker().is_valid(document)
    except (TypeError, ValueError, OverflowError):
        # Not JSON data (a YAML date, a key that is not a string, a huge integer): let
        # ``jsonschema`` find and word what is wrong with it.
        return False


def locate_in_document(document: Any) -> Locate:
    """A locator for parser-made documents: the span of the nearest node that has one."""

    def locate(path: PathKey, key: bool = False) -> Span | None:
        node = document
        best: Span | None = None
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                break
            if isinstance(node, dict) and isinstance(node.get("span"), dict):
                with contextlib.suppress(KeyError, TypeError):
                    best = Span.from_json(node["span"])
        if best is None and isinstance(document, dict) and isinstance(document.get("span"), dict):
            return None
        return best

    return locate


def _where(path: PathKey) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the document"


def _what(path: PathKey) -> str:
    """Name the node at ``path`` in the words of the language."""
    parts = [p for p in path if isinstance(p, str)]
    last = parts[-1] if parts else ""
    if last == "args":
        return "argument"
    if last in ("expect", "forbid", "allow"):
        return f"{last} call"
    if last == "require":
        return "requirement"
    if last == "cases":
        return "case"
    return f'"{last}"' if last else "the document"


def _op_of(document: Any, path: PathKey) -> str | None:
    node = document
    try:
        for part in path:
            node = node[part]
    except (KeyError, IndexError, TypeError):
        return None
    if isinstance(node, dict) and isinstance(node.get("op"), str):
        return str(node["op"])
    return None


def _refused_key(error: ValidationError, document: Any, path: PathKey) -> str | None:
    """The key of the object at ``path`` that a ``false`` property schema refused."""
    root = schema()
    node: Any = root
    for part in error.schema_path:
        if isinstance(node, dict) and part not in node and "$ref" in node:
            node = root["$defs"].get(str(node["$ref"]).removeprefix("#/$defs/"))  # the schema's own refs
        if not isinstance(node, dict | list):
            return None
        node = node[int(part)] if isinstance(node, list) else node.get(part)
    target: Any = document
    for part in path:
        target = target[part]
    if not isinstance(node, dict) or not isinstance(target, dict):
        return None
    return next((k for k, sub in node.items() if sub is False and k in target), None)


def _diagnostic(error: ValidationError, document: Any, locate: Locate) -> Diagnostic:
    path: PathKey = tuple(error.absolute_path)
    validator = error.validator
    instance = error.instance
    where = _where(path)
    field_name = path[-1] if path else ""
    span = locate(path, False)

    if validator == "additionalProperties":
        subschema = error.schema if isinstance(error.schema, dict) else {}
        known = sorted(subschema.get("properties", {}))
        extra = sorted(set(instance) - set(known)) if isinstance(instance, dict) else []
        key = extra[0] if extra else "?"
        return make(
            "V201",
            f'unknown key "{key}" in ' + (f"{_what(path)} at {where}" if path else "the document"),
            locate((*path, key), True) or span,
            help="known keys: " + ", ".join(known),
        )
    refused = validator is None or validator == "false"
    if refused and error.schema_path and error.schema_path[-1] == "properties":
        # jsonschema leaves the key out of a ``false`` property schema's paths: find it.
        key = _refused_key(error, document, path)
        if key is not None:
            path = (*path, key)
            field_name = key
    if validator is None or validator == "false":
        op = _op_of(document, path[:-1])
        context = f' for op "{op}"' if op else ""
        return make(
            "V201",
            f'key "{field_name}" is not allowed{context} at {where}',
            locate(path, True) or span,
            help=f'remove "{field_name}"',
        )
    if validator == "required":
        missing = str(error.message).split("'")[1] if "'" in error.message else str(error.message)
        op = _op_of(document, path)
        context = f' with op "{op}"' if op else ""
        return make(
            "V203",
            f'{_what(path) if path else "the document"}{context} at {where} is missing "{missing}"',
            span,
            help=f'add "{missing}"',
        )
    if validator in ("minimum", "maximum") and field_name == "threshold":
        return make(
            "V204",
            f"threshold must be between 0 and 1, got {json.dumps(instance)}",
            span,
            help="write a fraction, for example require accuracy >= 0.75",
        )
    if validator == "minimum" and field_name in ("at_least", "at_most"):
        return make(
            "V200",
            f"a count of calls must not be negative, got {json.dumps(instance)}",
            span,
            help="write a whole number of calls, for example require at most 3 calls of search",
        )
    if validator == "anyOf" and isinstance(instance, dict) and instance.get("kind") == "count":
        return make(
            "V203",
            f'count requirement at {where} is missing "at_least" or "at_most"',
            span,
            help='add "at_least", "at_most" or both',
        )
    if validator == "minimum" and field_name == "tolerance":
        return make(
            "V205",
            f"tolerance must not be negative, got {json.dumps(instance)}",
            span,
            help="write the allowed distance as a positive number, for example temp = 20.5 +- 0.1",
        )
    if validator == "minItems" and field_name == "values":
        return make(
            "V206",
            "the list after in is empty, so no value can match",
            span,
            help="list at least one value, or use name=any",
        )
    if validator == "minLength" and field_name in ("name", "tool"):
        return make("V207", f"{field_name} at {where} is empty", span, help="write a name")
    if validator == "type":
        wanted = error.validator_value
        wanted_text = " or ".join(wanted) if isinstance(wanted, list) else str(wanted)
        return make(
            "V202",
            f"{where} must be {_article(wanted_text)}, got {_json_type(instance)} {_short(instance)}",
            span,
            help=f"write {_article(wanted_text)} here",
        )
    if validator == "enum":
        options = error.validator_value if isinstance(error.validator_value, list) else []
        choices = ", ".join(json.dumps(c) for c in options)
        return make(
            "V200",
            f"{where} must be one of {choices}, got {_short(instance)}",
            span,
            help=f"use one of {choices}",
        )
    if validator == "not" and isinstance(instance, dict) and "$match" in instance:
        return make(
            "V200",
            f'{where}: a "$match" list stands only as the value of an object\'s key',
            span,
            help='put it under the key it matches, {"city": {"$match": [...]}}; for an object '
            'whose only key is "$match", write {"$literal": {"$match": ...}}',
        )
    if validator == "const" and path == ("version",):
        return make(
            "V200",
            f"unsupported document version {_short(instance)}; this toolexpect reads version 1",
            span,
            help='write "version": 1 or leave it out',
        )
    return make("V200", f"{where}: {error.message}", span)


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _short(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def validate(document: Any, locate: Locate | None = None, *, trusted_spans: bool = False) -> list[Diagnostic]:
    """Check ``document`` against the schema; one diagnostic per distinct problem, in order.

    ``jsonschema_rs`` decides validity; only an invalid document goes to ``jsonschema``, whose
    errors, ranked by relevance, are worded as diagnostics at their source spans.
    ``trusted_spans``: the parser wrote the document's spans, so the errors are found in what
    the user wrote, the document without its spans.
    """
    if is_valid(document):
        return []
    from jsonschema.exceptions import relevance

    where = locate or locate_in_document(document)
    if trusted_spans:
        document = without_spans(document)
    errors: Iterable[ValidationError] = []
    if not _inside_values(document):
        errors = list(_shallow_validator().iter_errors(document))
    if not errors:  # inside a value, or only there: the whole schema words it
        errors = _validator().iter_errors(document)
    seen: set[tuple[PathKey, str]] = set()
    result: list[tuple[tuple[int, int], Diagnostic]] = []
    for error in sorted(errors, key=relevance):
        path = tuple(error.absolute_path)
        mark = (path, str(error.validator))
        if mark in seen:
            continue
        seen.add(mark)
        diagnostic = _diagnostic(error, document, where)
        place = (diagnostic.span.line, diagnostic.span.column) if diagnostic.span else (0, 0)
        result.append((place, diagnostic))
    result.sort(key=lambda item: item[0])
    return [d for _, d in result]


def report_schema_text() -> str:
    """The published JSON Schema of the ``score --format json`` report, as text."""
    return _packaged("report.schema.json")


@functools.cache
def report_schema() -> dict[str, Any]:
    """The published JSON Schema of the ``score --format json`` report."""
    loaded: dict[str, Any] = json.loads(report_schema_text())
    return loaded


@functools.cache
def _report_checker() -> jsonschema_rs.Draft202012Validator:
    """The validator that decides whether a report is valid (compiled once, in Rust)."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(report_schema())


def report_problem(document: Any) -> str | None:
    """``None`` when ``document`` satisfies the report schema, else its most relevant error
    in a sentence (``jsonschema``'s ``best_match``), naming where it is."""
    decided = True
    try:
        if _report_checker().is_valid(document):
            return None
    except (TypeError, ValueError, OverflowError):
        # Text the Rust validator cannot take (a lone surrogate, which a log may hold and a
        # report then repeats): jsonschema decides alone.
        decided = False
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(report_schema()).iter_errors(document))
    if error is None:
        return "the document breaks the report schema" if decided else None
    path: PathKey = tuple(error.absolute_path)
    return f"{_where(path)}: {error.message}"
