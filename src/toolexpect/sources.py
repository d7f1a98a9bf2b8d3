"""JSON and YAML spec files to documents, with an index from JSON path to source span.

The values come from the standard ``json`` module and PyYAML's safe loader, so integers
stay ``int`` and floats ``float``; a light tokenizer (JSON) or the composed node tree
(YAML) gives each key and value its place, so schema errors point at the source.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.language.layout import MAX_DEPTH

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


def _position(text: str, offset: int, line_starts: list[int]) -> tuple[int, int]:
    lo, hi = 0, len(line_starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if line_starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1, offset - line_starts[lo] + 1


def _json_error(error: json.JSONDecodeError) -> Diagnostic:
    return make(
        "P108",
        f"invalid JSON: {error.msg}",
        Span.point(error.lineno, error.colno),
        help='fix the JSON syntax at this place; a JSON spec is one object with a "cases" list',
    )


def read_json(text: str) -> Located:
    """Read a JSON spec; on bad JSON the result has no document and a P108 diagnostic."""
    if text.startswith("\ufeff"):
        text = text[1:]
    depth_error = _json_depth(text)
    if depth_error is not None:
        return Located(None, diagnostics=[depth_error])
    try:
        document = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        return Located(None, diagnostics=[_json_error(error)])
    except ValueError as error:
        return Located(
            None,
            diagnostics=[
                make(
                    "P110",
                    str(error),
                    _constant_span(text),
                    help="write finite numbers; JSON has no NaN or Infinity",
                )
            ],
        )
    located = Located(document)
    _index_json(text, located)
    return located


def _constant_span(text: str) -> Span | None:
    """Where the first NaN or Infinity outside a string is written."""
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    for match in _TOKEN.finditer(text):
        if match.lastgroup == "atom" and match.group().lstrip("-") in ("NaN", "Infinity"):
            line, column = _position(text, match.start(), line_starts)
            return Span(line, column, line, column + len(match.group()))
    return None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


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
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def span(start: int, end: int) -> Span:
        line, column = _position(text, start, line_starts)
        end_line, end_column = _position(text, end, line_starts)
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
            located.keys[(*stack[-1][1], pending_key)] = span(start, end)
            continue
        path = value_path()
        located.spans[path] = span(start, end)
        if stack and stack[-1][0] == "list":
            stack[-1][2] += 1


def read_yaml(text: str) -> Located:
    """Read a YAML spec with the safe loader; errors become P109 diagnostics with a place."""
    import yaml  # only YAML specs need it; imported here to keep start-up short

    if text.startswith("\ufeff"):
        text = text[1:]
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Located({})
        located = Located(None)
        if not _index_yaml(node, located):
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
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        span = Span.point(mark.line + 1, mark.column + 1) if mark else None
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
        loader.dispose()


def _node_span(node: yaml.Node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def _index_yaml(root: yaml.Node, located: Located) -> bool:
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
        located.spans[path] = _node_span(node)
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node)
                located.keys[(*path, key)] = _node_span(key_node)
                stack.append((value_node, (*path, key), depth + 1))
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                stack.append((item, (*path, index), depth + 1))
    return True
