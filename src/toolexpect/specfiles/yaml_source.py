"""YAML spec files read with PyYAML's safe loader; the composed node tree gives each key and
value its place, and only JSON data is accepted."""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING, Any

from toolexpect.diagnostics import Span, make
from toolexpect.document import Repeat
from toolexpect.language.layout import MAX_DEPTH
from toolexpect.language.strings import MAX_INT_DIGITS, underflows
from toolexpect.lines import LineIndex
from toolexpect.specfiles.located import DOCUMENT_DEPTH, MAX_NODES, Located, PathKey, bad_number

if TYPE_CHECKING:
    import yaml

__all__ = ["read_yaml"]


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
            if underflows(str(node.value), value):
                raise _YamlNumber(str(node.value), "underflow", node)
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
        if visited > MAX_NODES:
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
