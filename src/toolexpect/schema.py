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
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

__all__ = ["schema", "schema_text", "validate"]

PathKey = tuple[str | int, ...]
Locate = Callable[[PathKey, bool], Span | None]


def schema_text() -> str:
    """The published JSON Schema of the canonical document, as text."""
    beside = Path(__file__).parent / "schema" / "spec.schema.json"
    if beside.is_file():  # the usual install; importlib.resources costs start-up time
        return beside.read_text("utf-8")
    from importlib import resources

    return resources.files("toolexpect").joinpath("schema", "spec.schema.json").read_text("utf-8")


@functools.cache
def schema() -> dict[str, Any]:
    """The published JSON Schema of the canonical document."""
    loaded: dict[str, Any] = json.loads(schema_text())
    return loaded


@functools.cache
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


FAST = True
"""Let ``jsonschema_rs`` (a dependency; absent only after ``--no-deps``) recognise valid documents.

Either way a document that is not plainly valid goes to ``jsonschema``, which finds and words
the errors. Set to ``False`` to use only ``jsonschema``.
"""


@functools.cache
def _native(trusted_spans: bool) -> Any:
    """A ``jsonschema_rs`` validator of the published schema, or ``None`` when it is not installed.

    With ``trusted_spans`` the schema takes any span, as the parser wrote the spans itself.
    """
    try:
        import jsonschema_rs
    except ImportError:
        return None
    published = json.loads(json.dumps(schema()))
    if trusted_spans:
        published["$defs"]["span"] = True
    return jsonschema_rs.Draft202012Validator(published)


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
    if last in ("expect", "forbid"):
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


@functools.cache
def _parts(
    trusted_spans: bool,
) -> tuple[Draft202012Validator, Draft202012Validator, Draft202012Validator, Draft202012Validator]:
    """The schema cut in four: the document with any call and requirement, one call with any
    argument, one argument, one requirement.

    A document is valid exactly when it is valid with ``$defs/call`` and ``$defs/requirement``
    replaced by ``true``, each of its calls is valid with ``$defs/arg`` replaced by ``true``, and
    each argument and requirement is valid against its definition (nothing else refers to
    them), so calls, arguments and requirements can be checked one distinct value at a time.
    With ``trusted_spans`` (documents the parser wrote) ``$defs/span`` is ``true`` as well: the
    parser writes the spans itself.
    """
    from jsonschema import Draft202012Validator

    published = schema()
    defs = json.loads(json.dumps(published["$defs"]))
    if trusted_spans:
        defs["span"] = True

    def cut(root: str | None, **whole: bool) -> Draft202012Validator:
        top: dict[str, Any] = dict(published) if root is None else {"$schema": published["$schema"]}
        top["$defs"] = {**defs, **whole}
        if root is not None:
            top["$ref"] = f"#/$defs/{root}"
        return Draft202012Validator(top)

    return cut(None, call=True, requirement=True), cut("call", arg=True), cut("arg"), cut("requirement")


_VALID: dict[bool, tuple[dict[str, None], dict[str, None], dict[str, None]]] = {
    False: ({}, {}, {}),
    True: ({}, {}, {}),
}
"""Per trust of spans: the keys of calls, arguments and requirements found valid in this process."""
_VALID_LIMIT = 4096


def _remember(known: dict[str, None], key: str) -> None:
    if len(known) >= _VALID_LIMIT:
        known.clear()
    known[key] = None


def _quickly_valid(document: Any, trusted_spans: bool = False) -> bool:
    """True when ``document`` is valid; checks each distinct call, argument and requirement once.

    False: look closer. A call's key leaves out its arguments but for their number (the cut
    schema of a call accepts any argument), and with ``trusted_spans`` keys leave out spans.
    Where ``jsonschema_rs`` is installed (it is a dependency), it checks the whole document instead.
    """
    native = _native(trusted_spans) if FAST else None
    if native is not None:
        try:
            return bool(native.is_valid(document))
        except (TypeError, ValueError, OverflowError):
            return False
    skeleton, one_call, one_arg, one_requirement = _parts(trusted_spans)
    if not skeleton.is_valid(document):
        return False
    calls_known, args_known, requirements_known = _VALID[trusted_spans]
    dumps = json.dumps
    try:
        for case in document["cases"]:
            for requirement in case.get("require", ()):
                key = dumps(
                    [[k, v] for k, v in requirement.items() if not (trusted_spans and k == "span")],
                    allow_nan=False,
                )
                if key not in requirements_known:
                    if not one_requirement.is_valid(requirement):
                        return False
                    _remember(requirements_known, key)
            for kind in ("expect", "forbid"):
                for call in case.get(kind, ()):
                    args = call.get("args", ())
                    key = dumps(
                        [
                            [k, ["#args", len(v)] if k == "args" and type(v) is list else v]
                            for k, v in call.items()
                            if not (trusted_spans and k == "span")
                        ],
                        allow_nan=False,
                    )
                    if key not in calls_known:
                        if not one_call.is_valid(call):
                            return False
                        _remember(calls_known, key)
                    for arg in args:
                        key = dumps(
                            [[k, v] for k, v in arg.items() if not (trusted_spans and k == "span")],
                            allow_nan=False,
                        )
                        if key in args_known:
                            continue
                        if not one_arg.is_valid(arg):
                            return False
                        _remember(args_known, key)
    except (TypeError, ValueError, AttributeError):
        return False
    return True


def validate(document: Any, locate: Locate | None = None, *, trusted_spans: bool = False) -> list[Diagnostic]:
    """Check ``document`` against the schema; one diagnostic per distinct problem, in order.

    ``trusted_spans``: the parser wrote the document's spans, so they are not checked (what the
    user wrote is everything else).
    """
    if _quickly_valid(document, trusted_spans):
        return []
    from jsonschema.exceptions import relevance

    where = locate or locate_in_document(document)
    if trusted_spans:
        document = without_spans(document)
    errors: Iterable[ValidationError] = _validator().iter_errors(document)
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
