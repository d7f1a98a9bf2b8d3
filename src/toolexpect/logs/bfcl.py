"""Berkeley Function Calling Leaderboard result files: ``{"id", "result"}`` lines.

``result`` is a list of ``{"func": {"arg": value}}`` (arguments may be a JSON string, as
function-calling models record them), the Python-call string form ``"[func(arg=1), ...]"``,
or, for multi-turn categories, nested lists of either. The string form is parsed with
``ast.parse`` and each keyword value read with ``ast.literal_eval`` of its node: nothing
from the log is ever evaluated or executed. A value that is not a JSON literal (a name,
an expression, a set) keeps the call with its raw text and ``valid_json=False`` (R403).

Prompting-mode results are the model's text, read as BFCL reads it: backticks, new lines and
spaces stripped from both ends (a ```` ```python ```` fence too), ``<TOOLCALL>`` tags
removed, and ``[`` put before and ``]`` after where either is missing. A
```` ```tool_code ```` fence (Gemma's calls) is read wherever it stands, one call per line
or a list. Text that starts like a call but does
not parse is an R404 that says where in the output parsing stopped; text that does not
start like a call (``"I cannot help with that."``) is an answer in words: a sample with no
calls, and no diagnostic.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from typing import Any

from toolexpect.calls import RecordedSample, ToolCall
from toolexpect.logs._base import Context, Record

__all__ = ["NAME", "parse_call_string", "read", "sniff"]

NAME = "bfcl"

_MAX_SOURCE = 1 << 20
_CALL_START = re.compile(r"\[?\s*[A-Za-z_][\w.]*\s*\(")
_FENCE = re.compile(r"^(?:python|py|json|tool_code)?\s*\n")
_TOOL_CODE = re.compile(r"```tool_code[ \t]*\n(.*?)(?:```|\Z)", re.DOTALL)
_TAGS = re.compile(r"</?TOOLCALL>", re.IGNORECASE)


def _prompted(text: str) -> str:
    """Model output as BFCL's prompting decoder sees it, before brackets are added; the
    body of a ```` ```tool_code ```` fence (Gemma's calls) wherever it stands in the text."""
    fenced = _TOOL_CODE.search(text)
    if fenced is not None:
        text = fenced[1]
    body = _TAGS.sub("", text).strip("`\n ")
    return _FENCE.sub("", body, count=1).strip("`\n ")


def _bracketed(source: str) -> str:
    """``source`` with ``[`` put before and ``]`` after where missing, as BFCL's decoder does."""
    start = "" if source.startswith("[") else "["
    return start + source + ("" if source.endswith("]") else "]")


def _malformed(text: str, sid: Any, ctx: Context, line: int | None) -> None:
    """Report call text that does not parse, with the place in the output where it broke."""
    source = _bracketed(_prompted(text))
    try:
        ast.parse(source, mode="eval")
    except SyntaxError as exc:
        where = f" at line {exc.lineno}, column {exc.offset} of the output" if exc.lineno else ""
        why = f"{exc.msg}{where}"
    except (ValueError, RecursionError, MemoryError) as exc:
        why = type(exc).__name__
    else:
        why = "not a list of calls"
    ctx.report(
        "R404",
        f"result of {sid!r} is not Python call text ({why}): {text[:60]!r}; sample has no calls",
        line,
        help="BFCL prompting results are Python calls such as [get_weather(city='Berlin')]",
    )


def sniff(value: Any) -> bool:
    """A result line: ``id`` and a ``result`` that is a string or a list."""
    return (
        isinstance(value, dict)
        and "id" in value
        and isinstance(value.get("result"), str | list)
        and "tool_calls" not in value
    )


class _NotJson(Exception):
    pass


def _to_json(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_to_json(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise _NotJson("a key that is not a string")
            out[k] = _to_json(v)
        return out
    raise _NotJson(f"a {type(value).__name__} value")


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _call_nodes(source: str) -> list[ast.expr] | None:
    """The call nodes of ``source``: as it is, in brackets where missing (BFCL's decoder), or
    one call per line (a ```` ```tool_code ```` block); ``None`` when it is not calls."""
    for text, mode in ((source, "eval"), (_bracketed(source), "eval"), (source, "exec")):
        try:
            tree = ast.parse(text, mode=mode)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if isinstance(tree, ast.Expression):
            body = tree.body
            nodes = body.elts if isinstance(body, ast.List | ast.Tuple) else [body]
        else:
            assert isinstance(tree, ast.Module)
            if not all(isinstance(n, ast.Expr) for n in tree.body):
                return None
            nodes = [n.value for n in tree.body if isinstance(n, ast.Expr)]
        return nodes if nodes and all(isinstance(n, ast.Call) for n in nodes) else None
    return None


def parse_call_string(text: str, ctx: Context, line: int | None) -> list[ToolCall | None] | None:
    """Calls of ``"[f(a=1), g()]"`` (or one bare call), or ``None`` if it is not that form."""
    source = _prompted(text)
    if not source or len(source) > _MAX_SOURCE:
        return None
    nodes = _call_nodes(source)
    if nodes is None:
        return None
    calls: list[ToolCall | None] = []
    for node in nodes:
        assert isinstance(node, ast.Call)
        name = _dotted(node.func)
        raw = ast.get_source_segment(source, node) or ""
        if name is None:
            ctx.report("R404", f"a call whose function is not a plain name was skipped: {raw[:60]!r}", line)
            continue
        if node.args or any(k.arg is None for k in node.keywords):
            calls.append(ctx.invalid(name, raw, None, "function", line, "positional or ** arguments"))
            continue
        arguments: dict[str, Any] = {}
        try:
            for keyword in node.keywords:
                assert keyword.arg is not None
                arguments[keyword.arg] = _to_json(ast.literal_eval(keyword.value))
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError, _NotJson) as exc:
            why = str(exc) if isinstance(exc, _NotJson) else "a value that is not a literal"
            calls.append(ctx.invalid(name, raw, None, "function", line, why))
            continue
        calls.append(ctx.call(name, arguments, None, line))
    return calls


def _collect(value: Any, ctx: Context, line: int | None, sid: Any) -> list[ToolCall | None]:
    if isinstance(value, str):
        parsed = parse_call_string(value, ctx, line)
        if parsed is None:
            if _CALL_START.match(_prompted(value)):
                _malformed(value, sid, ctx, line)
            return []
        return parsed
    if isinstance(value, list):
        calls: list[ToolCall | None] = []
        for item in value:
            calls.extend(_collect(item, ctx, line, sid))
        return calls
    if isinstance(value, dict):
        calls = []
        for name, args in value.items():
            if isinstance(args, str) and not args.lstrip().startswith("{"):
                calls.append(ctx.invalid(name, args, None, "function", line, "not a JSON object"))
            else:
                calls.append(ctx.call(name, args, None, line))
        return calls
    return []


def read(records: Iterable[Record], ctx: Context) -> Iterator[RecordedSample]:
    """One sample per result line, the BFCL ``id`` as sample id."""
    for line, value in records:
        items = value if isinstance(value, list) and not sniff(value) else [value]
        for item in items:
            if not sniff(item):
                ctx.report("R404", "a record that is not a BFCL result was skipped", line)
                continue
            yield ctx.sample(item.get("id"), _collect(item["result"], ctx, line, item.get("id")), line)
