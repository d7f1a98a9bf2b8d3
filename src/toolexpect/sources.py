"""JSON and YAML spec files to documents, with an index from JSON path to source span.

The values come from the standard ``json`` module and PyYAML's safe loader, so integers
stay ``int`` and floats ``float``; a light tokenizer (JSON) or the composed node tree
(YAML) gives each key and value its place, so schema errors point at the source. Numbers
that the text language cannot write are refused where they stand (``P110``): NaN, infinities,
floats beyond the 64-bit range and integers longer than ``MAX_INT_DIGITS``. A key written
twice in one object is kept as a :class:`~toolexpect.document.Repeat` for lint.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.document import Repeat
from toolexpect.language.layout import MAX_DEPTH
from toolexpect.language.strings import MAX_INT_DIGITS, integer_too_long
from toolexpect.lines import LineIndex

if TYPE_CHECKING:
    import yaml

__all__ = ["DOCUMENT_DEPTH", "Located", "read_json", "read_yaml"]

PathKey = tuple[str | int, ...]

DOCUMENT_DEPTH = MAX_DEPTH + 8
"""How deeply a JSON or YAML spec may nest: the value limit plus the document's own levels."""

_MAX_NODES = 200_000


@dataclass(slots=True)
class Located:
    """A document read from JSON or YAML, with spans by JSON path (keys' spans under ``keys``)."""

    document: Any
    spans: dict[PathKey, Span] = field(default_factory=dict)
    keys: dict[PathKey, Span] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    repeats: list[Repeat] = field(default_factory=list)

    def locate(self, path: PathKey, *, key: bool = False) -> Span | None:
        """The span of the node at ``path`` (of its key with ``key``), or of its nearest parent."""
        if key and path in self.keys:
            return self.keys[path]
        current = path
        while True:
            if current in self.spans:
                return self.spans[current]
            if not current:
                return None
            current = current[:-1]


_TOKEN = re.compile(
    r'(?P<ws>[ \t\r\n]+)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<punct>[{}\[\],:])'
    r"|(?P<atom>-?[0-9][0-9eE.+\-]*|true|false|null|NaN|-?Infinity)"
)


def _json_error(error: json.JSONDecodeError) -> Diagnostic:
    return make(
        "P108",
        f"invalid JSON: {error.msg}",
        Span.point(error.lineno, error.colno),
        help='fix the JSON syntax at this place; a JSON spec is one object with a "cases" list',
    )


class _BadNumber(ValueError):
    """A number literal the language cannot hold, raised while ``json`` reads it."""

    def __init__(self, literal: str, kind: str) -> None:
        super().__init__(literal)
        self.literal = literal
        self.kind = kind


def _json_int(literal: str) -> int:
    if len(literal) - literal.startswith("-") > MAX_INT_DIGITS:
        raise _BadNumber(literal, "integer")
    return int(literal)


def _json_float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):
        raise _BadNumber(literal, "float")
    return value


def _json_constant(name: str) -> Any:
    raise _BadNumber(name, "constant")


def bad_number(literal: str, kind: str, span: Span | None) -> Diagnostic:
    """The diagnostic of a number the language cannot hold: ``kind`` is ``"integer"`` (too
    many digits), ``"float"`` (beyond the 64-bit range) or ``"constant"`` (NaN, infinity)."""
    if kind == "integer":
        return integer_too_long(literal, span)
    if kind == "float" and not any(c.isalpha() and c not in "eE" for c in literal):
        return make(
            "P110",
            f"number {literal} is too large to represent",
            span,
            help="use a number within the range of a 64-bit float",
        )
    return make(
        "P110",
        f"{literal} is not a finite number",
        span,
        help="write finite numbers; a spec has no NaN or Infinity",
    )


def read_json(text: str) -> Located:
    """Read a JSON spec; on bad JSON the result has no document and a P108 diagnostic."""
    if text.startswith("\ufeff"):
        text = text[1:]
    depth_error = _json_depth(text)
    if depth_error is not None:
        return Located(None, diagnostics=[depth_error])
    try:
        document = json.loads(
            text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant
        )
    except json.JSONDecodeError as error:
        return Located(None, diagnostics=[_json_error(error)])
    except _BadNumber as bad:
        return Located(None, diagnostics=[_nan_or_huge(text, bad)])
    located = Located(document)
    _index_json(text, located)
    return located


def _nan_or_huge(text: str, bad: _BadNumber) -> Diagnostic:
    """The diagnostic of ``bad``, placed where it is first written outside a string."""
    literal = bad.literal
    lines = LineIndex(text)
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "atom" and match.group() == literal:
            line, column = lines.position(match.start())
            span = Span(line, column, line, column + len(literal))
            if literal.lstrip("-") in ("NaN", "Infinity"):
                return make(
                    "P110",
                    f"{literal} is not a JSON number",
                    span,
                    help="write finite numbers; JSON has no NaN or Infinity",
                )
            return bad_number(literal, bad.kind, span)
    return bad_number(literal, bad.kind, None)


def _json_depth(text: str) -> Diagnostic | None:
    depth = 0
    in_string = False
    escaped = False
    line, column = 1, 0
    for ch in text:
        column += 1
        if ch == "\n":
            line, column = line + 1, 0
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > DOCUMENT_DEPTH:
                return make(
                    "P104",
                    f"values nest deeper than {MAX_DEPTH} levels",
                    Span.point(line, column),
                    help=f"flatten the value; toolexpect reads at most {MAX_DEPTH} levels of [] and {{}}",
                )
        elif ch in "]}":
            depth -= 1
    return None


def _index_json(text: str, located: Located) -> None:
    lines = LineIndex(text)

    def span(start: int, end: int) -> Span:
        line, column = lines.position(start)
        end_line, end_column = lines.position(end)
        return Span(line, column, end_line, end_column)

    # Each frame: [kind, path, next index or pending key, start offset]
    stack: list[list[Any]] = []
    pos = 0
    expecting_key = False
    pending_key: str | None = None

    def value_path() -> PathKey:
        if not stack:
            return ()
        frame = stack[-1]
        if frame[0] == "list":
            return (*frame[1], frame[2])
        return (*frame[1], pending_key if pending_key is not None else "")

    for match in _TOKEN.finditer(text, pos):
        kind = match.lastgroup
        if kind == "ws":
            continue
        token = match.group()
        start, end = match.start(), match.end()
        if kind == "punct":
            if token in "{[":
                path = value_path()
                stack.append(["dict" if token == "{" else "list", path, 0, start])
                expecting_key = token == "{"
            elif token in "}]":
                frame = stack.pop()
                located.spans[frame[1]] = span(frame[3], end)
                if stack and stack[-1][0] == "list":
                    stack[-1][2] += 1
                expecting_key = False
            elif token == ",":
                expecting_key = bool(stack) and stack[-1][0] == "dict"
            elif token == ":":
                expecting_key = False
            continue
        if expecting_key and kind == "string":
            pending_key = json.loads(token)
            assert stack
            where = (*stack[-1][1], pending_key)
            here = span(start, end)
            if where in located.keys:
                located.repeats.append(Repeat("key", pending_key, here, located.keys[where]))
            else:
                located.keys[where] = here
            continue
        path = value_path()
        located.spans[path] = span(start, end)
        if stack and stack[-1][0] == "list":
            stack[-1][2] += 1


class _YamlNumber(Exception):
    """A YAML number the language cannot hold, raised while its node is constructed."""

    def __init__(self, literal: str, kind: str, node: yaml.Node) -> None:
        super().__init__(literal)
        self.literal = literal
        self.kind = kind
        self.node = node


class _YamlValue(Exception):
    """A YAML node whose value is not JSON data (a date, bytes, a set, a key that is not text)."""

    def __init__(self, message: str, node: yaml.Node | None) -> None:
        super().__init__(message)
        self.message = message
        self.node = node


_NOT_JSON = {
    "tag:yaml.org,2002:timestamp": "a YAML date or time",
    "tag:yaml.org,2002:binary": "YAML binary data",
    "tag:yaml.org,2002:set": "a YAML set",
    "tag:yaml.org,2002:omap": "a YAML ordered map",
    "tag:yaml.org,2002:pairs": "a YAML list of pairs",
}
"""The tags of PyYAML's safe loader whose values JSON cannot hold, so a spec cannot either."""

_KEY_TAGS = frozenset({"tag:yaml.org,2002:str", "tag:yaml.org,2002:merge"})


@functools.cache
def _loader() -> type[yaml.SafeLoader]:
    """PyYAML's safe loader, refusing numbers the language cannot hold."""
    import yaml

    class Loader(yaml.SafeLoader):
        def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
            literal = str(node.value)
            try:
                value = int(super().construct_yaml_int(node))
            except ValueError as error:  # not an integer, or more digits than Python converts
                if len(literal.lstrip("+-").replace("_", "")) > MAX_INT_DIGITS:
                    raise _YamlNumber(literal, "integer", node) from None
                raise _YamlValue(f"invalid value: {error}", node) from None
            if abs(value) >= _INT_BOUND:
                raise _YamlNumber(literal, "integer", node)
            return value

        def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
            value = float(super().construct_yaml_float(node))
            if not math.isfinite(value):
                raise _YamlNumber(str(node.value), "float", node)
            return value

        def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
            try:
                return super().construct_object(node, deep)
            except (ValueError, TypeError, OverflowError) as error:  # !!float abc, month 13
                raise _YamlValue(f"invalid value: {error}", node) from None

    def refuse(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        raise _YamlValue(f"{_NOT_JSON[node.tag]} is not a JSON value", node)

    Loader.add_constructor("tag:yaml.org,2002:int", Loader.construct_yaml_int)
    Loader.add_constructor("tag:yaml.org,2002:float", Loader.construct_yaml_float)
    for tag in _NOT_JSON:
        Loader.add_constructor(tag, refuse)
    return Loader


_INT_BOUND = 10**MAX_INT_DIGITS


def read_yaml(text: str) -> Located:
    """Read a YAML spec with the safe loader; errors become P109 diagnostics with a place.

    Places are counted by :mod:`toolexpect.lines` from PyYAML's character offsets (PyYAML
    itself also ends lines at a lone ``"\\r"``, ``"\\x85"``, U+2028 and U+2029).
    """
    import yaml  # only YAML specs need it; imported here to keep start-up short

    if text.startswith("\ufeff"):
        text = text[1:]
    lines = LineIndex(text)
    loader: yaml.SafeLoader | None = None
    try:
        loader = _loader()(text)  # reading starts here: a control character fails already
        node = loader.get_single_node()
        if node is None:
            return Located({})
        located = Located(None)
        if not _index_yaml(node, located, lines):
            return Located(
                None,
                diagnostics=[
                    make(
                        "P105",
                        "YAML document expands to too many nodes",
                        None,
                        help="avoid aliases that repeat large parts of the document",
                    )
                ],
            )
        located.document = loader.construct_document(node)
        return located
    except _YamlNumber as bad:
        return Located(None, diagnostics=[bad_number(bad.literal, bad.kind, _node_span(bad.node, lines))])
    except _YamlValue as bad:
        span = _node_span(bad.node, lines) if bad.node is not None else None
        return Located(
            None,
            diagnostics=[
                make(
                    "P109",
                    f"invalid YAML: {bad.message}",
                    span,
                    help="a spec holds JSON data: quote the value to write a string",
                )
            ],
        )
    except (ValueError, TypeError, OverflowError) as error:  # a value built after its node
        return Located(None, diagnostics=[make("P109", f"invalid YAML: invalid value: {error}", None)])
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        span = _mark_span(mark, lines) if mark else None
        return Located(
            None,
            diagnostics=[
                make(
                    "P109",
                    f"invalid YAML: {error.problem or error.context}",
                    span,
                    help="fix the YAML syntax at this place",
                )
            ],
        )
    except yaml.reader.ReaderError as error:
        return Located(
            None,
            diagnostics=[
                make(
                    "P109",
                    f"invalid YAML: character {chr(error.character)!r} is not allowed",
                    Span.point(*lines.position(error.position)),
                    help="YAML allows no control characters but tab and line breaks; "
                    "write them as escapes in a double-quoted string",
                )
            ],
        )
    except yaml.YAMLError as error:
        return Located(None, diagnostics=[make("P109", f"invalid YAML: {error}", None)])
    except RecursionError:
        return Located(
            None,
            diagnostics=[
                make(
                    "P104",
                    f"values nest deeper than {MAX_DEPTH} levels",
                    None,
                    help=f"flatten the value; toolexpect reads at most {MAX_DEPTH} levels",
                )
            ],
        )
    finally:
        if loader is not None:
            loader.dispose()


def _mark_span(mark: yaml.Mark, lines: LineIndex) -> Span:
    return Span.point(*lines.position(mark.index))


def _node_span(node: yaml.Node, lines: LineIndex) -> Span:
    line, column = lines.position(node.start_mark.index)
    end_line, end_column = lines.position(node.end_mark.index)
    return Span(line, column, end_line, end_column)


def _index_yaml(root: yaml.Node, located: Located, lines: LineIndex) -> bool:
    import yaml

    stack: list[tuple[yaml.Node, PathKey, int]] = [(root, (), 0)]
    visited = 0
    while stack:
        node, path, depth = stack.pop()
        visited += 1
        if visited > _MAX_NODES:
            return False
        if depth > DOCUMENT_DEPTH:
            raise RecursionError
        located.spans[path] = _node_span(node, lines)
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, Span] = {}
            for key_node, value_node in node.value:
                if key_node.tag not in _KEY_TAGS:
                    raise _YamlValue("an object key must be a string", key_node)
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
                key_span = _node_span(key_node, lines)
                if key in seen:
                    located.repeats.append(Repeat("key", str(key), key_span, seen[key]))
                else:
                    seen[key] = key_span
                    located.keys[(*path, key)] = key_span
                stack.append((value_node, (*path, key), depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                stack.append((item, (*path, index), depth + 1))
    return True
