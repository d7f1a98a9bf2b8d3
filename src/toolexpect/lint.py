"""Semantic checks on a schema-valid document: what parses but cannot be meant.

Each check returns diagnostics with the ``L3xx`` codes of ``toolexpect.diagnostics``.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import re2

from toolexpect.diagnostics import Diagnostic, Span, make
from toolexpect.document import Repeat, without_spans
from toolexpect.lines import visible

__all__ = ["check", "regex_error", "repeat_checks"]

PathKey = tuple[str | int, ...]
Locate = Callable[[PathKey, bool], Span | None]


@functools.cache
def _re2_options() -> Any:
    options = re2.Options()
    options.log_errors = False
    return options


@functools.lru_cache(maxsize=1024)
def regex_error(pattern: str) -> str | None:
    """Why RE2 cannot compile ``pattern``, or ``None`` when it can (kept for repeated patterns)."""
    try:
        re2.compile(pattern, _re2_options())
    except re2.error as error:
        reason = error.args[0] if error.args else str(error)
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        return str(reason)
    return None


_BACKREFERENCE_HELP = (
    "toolexpect runs patterns with RE2 (linear time): backreferences and lookarounds are not "
    "available; rewrite the pattern without them"
)
_REGEX_HELPS = (
    (
        "missing )",
        'a "(" opens a group that is never closed: close it with ")", or write r"\\(" to match "(" itself',
    ),
    ("unexpected )", 'this ")" closes no group: remove it, or write r"\\)" to match ")" itself'),
    (
        "missing ]",
        'a "[" opens a character class that is never closed: close it with "]", or write r"\\[" to match "["',
    ),
    ("trailing \\", 'the pattern ends with a lone backslash: write r"\\\\" to match a backslash'),
    ("invalid escape sequence: \\", _BACKREFERENCE_HELP),  # \1 and the like
    ("invalid perl operator: (?=", _BACKREFERENCE_HELP),
    ("invalid perl operator: (?!", _BACKREFERENCE_HELP),
    ("invalid perl operator: (?<", _BACKREFERENCE_HELP),
    ("invalid perl operator: (?P", _BACKREFERENCE_HELP),
    (
        "bad repetition operator",
        'a repetition ("*", "+", "?") repeats what stands before it, once: write r"\\*" to match "*"',
    ),
    (
        "no argument for repetition operator",
        'a repetition ("*", "+", "?", "{n}") needs something before it to repeat',
    ),
    ("invalid repetition size", "write a repetition as {min,max}, with min <= max <= 1000"),
)
"""The help of L302 by what RE2 says is wrong, first match first."""


def _regex_help(reason: str) -> str:
    """How to fix a pattern RE2 refuses for ``reason``."""
    for start, shown in _REGEX_HELPS:
        if reason.startswith(start):
            return shown
    return (
        "toolexpect runs patterns with RE2 (linear time), whose syntax is Python's without "
        "backreferences and lookarounds: fix the pattern where the message says"
    )


def _key(node: Any) -> str:
    return json.dumps(without_spans(node), sort_keys=True)


def _covers(pattern: dict[str, Any] | None, call: dict[str, Any] | None) -> bool:
    """True when ``pattern`` matches every call that ``call`` matches: the same tool, and each
    argument matcher of the pattern is one of the call's (``f`` holds none). A pattern of
    ``None`` (a count of every call) covers every call."""
    if pattern is None:
        return True
    if call is None or call["tool"] != pattern["tool"]:
        return False
    wanted = sorted(_key(arg) for arg in pattern.get("args", ()))
    have = [_key(arg) for arg in call.get("args", ())]
    return all(have.count(key) >= wanted.count(key) for key in wanted)


def _covered(forbid: dict[str, Any], expects: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The first expect of the forbidden tool whose every matching call the forbid matches too:
    each argument matcher of the forbid is one of the expect's (``forbid f`` holds none)."""
    return next((call for call in expects if _covers(forbid, call)), None)


def _statement(req: dict[str, Any]) -> str:
    """A count requirement as ``format`` writes it: ``require at most 3 calls of search``."""
    from toolexpect.language.write import write_count  # loads the grammar: only for a finding

    return visible(write_count(without_spans(req)))


def _count_checks(case: dict[str, Any], path: PathKey, locate: Locate) -> Iterator[Diagnostic]:
    """Count requirements that no run can meet, or that say what another statement says."""
    counts = [(index, req) for index, req in enumerate(case.get("require", ())) if req["kind"] == "count"]
    expects = case.get("expect", ())
    threshold, strict = 1.0, False
    for req in case.get("require", ()):
        if req["kind"] == "accuracy":
            threshold, strict = req["threshold"], req.get("op") == ">"
    for number, (index, req) in enumerate(counts):
        here = (*path, "require", index)
        low, high = req.get("at_least"), req.get("at_most")
        if low is not None and high is not None and low > high:
            yield make(
                "L312",
                f"{_statement(req)} can never hold: no number of calls is at least {low} and at most {high}",
                _at(locate, here),
                help="write the bounds from low to high: "
                + _statement(dict(req, at_least=high, at_most=low)),
            )
            continue
        # An earlier count that counts every call this one counts, or that this one counts
        # every call of, with bounds that leave no number between them.
        for earlier_index, earlier in counts[:number]:
            if _exclusive(earlier, req) or _exclusive(req, earlier):
                line = (_at(locate, (*path, "require", earlier_index)) or Span(0, 0, 0, 0)).line
                yield make(
                    "L312",
                    f"{_statement(req)} contradicts {_statement(earlier)}"
                    + (f" at line {line}" if line else "")
                    + ": no number of calls meets both",
                    _at(locate, here),
                    help="keep one of the two counts, or bounds that some number of calls meets",
                )
                break
        call = req.get("call")
        if high == 0 and not low:
            same = f"forbid {visible(_written(call))}" if call is not None else "require no tool calls"
            yield make(
                "L313",
                f"{_statement(req)} says the same as {same}",
                _at(locate, here),
                help=f"write {same}",
            )
        if high is not None and expects:
            needed = [e for e in expects if _covers(call, e)]
            if len(needed) <= high:
                continue
            best = (len(expects) - len(needed) + high) / len(expects)  # the most a run can meet
            if best <= threshold if strict else best < threshold:
                line = needed[0].get("span", {}).get("line")
                fewer = dict(req, at_most=len(needed))
                if low == high:  # exactly n: exactly as many as the expectations need
                    fewer["at_least"] = len(needed)
                yield make(
                    "L314",
                    f"{_statement(req)} allows fewer calls than the {len(needed)} expect statements "
                    "that only such calls meet"
                    + (f" (the first at line {line})" if line else "")
                    + ", so no run reaches the accuracy the case requires",
                    _at(locate, here),
                    help=f"write {_statement(fewer)}, or remove the expectations it rules out",
                )


def _exclusive(wide: dict[str, Any], narrow: dict[str, Any]) -> bool:
    """True when ``wide`` counts every call that ``narrow`` counts but allows fewer than
    ``narrow`` requires."""
    most, least = wide.get("at_most"), narrow.get("at_least")
    return (
        most is not None
        and least is not None
        and least > most
        and _covers(wide.get("call"), narrow.get("call"))
    )


def _written(call: dict[str, Any]) -> str:
    from toolexpect.language.write import write_call  # loads the grammar: only for a finding

    return write_call(call)


def _at(locate: Locate, path: PathKey) -> Span | None:
    return locate(path, False)


CONDITIONS = frozenset({"<", "<=", ">", ">=", "ne", "regex", "contains"})
"""The matchers that are conditions: one argument may carry several, all of which must hold
(``1 <= days <= 7``, ``x >= 1, x != 5``). Any other matcher says all there is to say about
its argument, which it must then be the only matcher of."""


def _empty_ranges(
    args: Sequence[dict[str, Any]],
    path: PathKey,
    locate: Locate,
    *,
    what: str = "argument",
    step: str = "args",
) -> Iterator[Diagnostic]:
    """The arguments whose bounds no number meets (``5 < x < 3``, ``x > 1, x <= 1``); ``what``
    and ``step`` name a key's matchers inside a value instead (``key``, ``$match``)."""
    bounds: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for index, arg in enumerate(args):
        if arg["op"] in ("<", "<=", ">", ">=") and isinstance(arg.get("value"), int | float):
            bounds.setdefault(arg["name"], []).append((index, arg))
    for name, found in bounds.items():
        lows = [(a["value"], a["op"] == ">") for _, a in found if a["op"] in (">", ">=")]
        highs = [(a["value"], a["op"] == "<") for _, a in found if a["op"] in ("<", "<=")]
        if not lows or not highs:
            continue
        low, low_strict = max(lows, key=lambda b: (b[0], b[1]))
        high, high_strict = min(highs, key=lambda b: (b[0], not b[1]))
        if low > high or (low == high and (low_strict or high_strict)):
            last = found[-1][0]
            yield make(
                "L307",
                f"no number is {'>' if low_strict else '>='} {low} and {'<' if high_strict else '<='} "
                f'{high}: {what} "{name}" can never match',
                _at(locate, (*path, step, last)),
                help="make the lower bound at most the upper bound, as in "
                f"1 <= {name.rsplit('.', 1)[-1]} <= 9",
            )


def _matched_keys(value: Any, path: PathKey, place: str) -> Iterator[tuple[str, list[Any], PathKey]]:
    """Each key's matchers inside a value: its place (``location.city``), the ``$match`` list
    and the list's path; an object taken literally (``$literal``) holds none."""
    stack: list[tuple[Any, PathKey, str]] = [(value, path, place)]
    while stack:
        node, where, name = stack.pop()
        if isinstance(node, list):
            stack.extend((item, (*where, i), f"{name}[{i}]") for i, item in reversed(list(enumerate(node))))
        elif isinstance(node, dict) and not ("$literal" in node and len(node) == 1):
            entries, inner = node, where
            if len(node) == 1 and isinstance(node.get("$partial"), dict):
                entries, inner = node["$partial"], (*where, "$partial")
            for key, entry in reversed(list(entries.items())):
                here = (*inner, key)
                if isinstance(entry, dict) and len(entry) == 1 and isinstance(entry.get("$match"), list):
                    matchers = entry["$match"]
                    yield f"{name}.{key}", matchers, (*here, "$match")
                    for index, matcher in enumerate(matchers):
                        if isinstance(matcher, dict) and "value" in matcher:
                            stack.append(
                                (matcher["value"], (*here, "$match", index, "value"), f"{name}.{key}")
                            )
                else:
                    stack.append((entry, here, f"{name}.{key}"))


def _value_checks(arg: dict[str, Any], path: PathKey, locate: Locate) -> Iterator[Diagnostic]:
    """The matchers inside an argument's value: bounds no number meets, bad patterns, and
    matchers of one key that cannot stand together (a JSON or YAML spec may list them)."""
    if "value" not in arg or not isinstance(arg["value"], dict | list):
        return
    for place, matchers, here in _matched_keys(arg["value"], (*path, "value"), arg["name"]):
        named = [dict(m, name=place) for m in matchers]
        yield from _empty_ranges(named, here[:-1], locate, what="key", step="$match")
        for index, matcher in enumerate(named):
            spot = (*here, index)
            if index and not (matcher["op"] in CONDITIONS and named[0]["op"] in CONDITIONS):
                yield make(
                    "L301",
                    f'key "{place}" has more than one matcher, and not all are conditions',
                    _at(locate, spot),
                    help="only conditions (<, <=, >, >=, !=, ~, contains) may be combined on one key; "
                    "give it one matcher otherwise",
                )
            if matcher["op"] == "regex":
                reason = regex_error(matcher["pattern"])
                if reason is not None:
                    yield make(
                        "L302",
                        f'pattern {json.dumps(matcher["pattern"])} of key "{place}" is not a valid RE2 '
                        f"regular expression: {reason}",
                        _at(locate, spot),
                        help=_regex_help(reason),
                    )


def _call_checks(call: dict[str, Any], path: PathKey, locate: Locate) -> Iterator[Diagnostic]:
    seen: dict[str, int] = {}
    args = call.get("args", ())
    yield from _empty_ranges(args, path, locate)
    for index, arg in enumerate(args):
        name = arg["name"]
        here = (*path, "args", index)
        yield from _value_checks(arg, here, locate)
        if name not in seen:
            seen[name] = index
        else:
            earlier = args[seen[name]]
            first = _at(locate, (*path, "args", seen[name]))
            if arg["op"] in CONDITIONS and earlier["op"] in CONDITIONS:
                if bool(arg.get("optional")) != bool(earlier.get("optional")):
                    yield make(
                        "L301",
                        f'conditions on argument "{name}" disagree on "?": some allow it to be absent',
                        _at(locate, here),
                        help=f'write "{name}?" in every condition on it, or in none',
                    )
                continue
            where = f" (first at line {first.line}, column {first.column})" if first else ""
            yield make(
                "L301",
                f'argument "{name}" is given twice in this call to {call["tool"]}{where}',
                _at(locate, here),
                help=f"give each argument once; to allow several values write {name} in [...]"
                + (
                    "; only conditions (<, <=, >, >=, !=, ~, contains) may be combined on one argument"
                    if arg["op"] in CONDITIONS or earlier["op"] in CONDITIONS
                    else ""
                ),
            )
        if arg["op"] == "regex":
            reason = regex_error(arg["pattern"])
            if reason is not None:
                yield make(
                    "L302",
                    f"pattern {json.dumps(arg['pattern'])} is not a valid RE2 regular expression: {reason}",
                    _at(locate, here),
                    help=_regex_help(reason),
                )


def _requirement_checks(case: dict[str, Any], path: PathKey, locate: Locate) -> Iterator[Diagnostic]:
    first: dict[str, tuple[int, Any]] = {}
    for index, req in enumerate(case.get("require", ())):
        kind = req["kind"]
        here = (*path, "require", index)
        if kind == "count":  # a case may count many calls
            continue
        if kind in first:
            earlier_index, earlier_threshold = first[kind]
            earlier = _at(locate, (*path, "require", earlier_index))
            where = f" at line {earlier.line}" if earlier else ""
            words = kind.replace("_", " ")
            if "threshold" in req and req["threshold"] == earlier_threshold:
                yield make(
                    "L308",
                    f'require {words} is written twice in case "{case["name"]}" (first{where})',
                    _at(locate, here),
                    help="a case has one threshold: remove the repeated requirement",
                )
            elif req.get("threshold") != earlier_threshold:
                yield make(
                    "L305",
                    f"{words} is required twice with different thresholds "
                    f"({earlier_threshold}{where} and {req.get('threshold')})",
                    _at(locate, here),
                    help="keep one threshold",
                )
            else:
                yield make(
                    "L306",
                    f"require {words} is written twice (first{where})",
                    _at(locate, here),
                    help="remove the repeated requirement",
                )
        else:
            first[kind] = (index, req.get("threshold"))
    for index, req in enumerate(case.get("require", ())):
        if req.get("op") == ">" and req.get("threshold", 0) >= 1:
            words = req["kind"].replace("_", " ")
            yield make(
                "L307",
                f"require {words} > {req['threshold']} can never hold: no {words} is above 1",
                _at(locate, (*path, "require", index)),
                help=f"write require {words} >= 1 to require every one",
            )
    kinds = {req["kind"] for req in case.get("require", ())}
    if "no_tool_calls" in kinds and case.get("expect"):
        index = next(i for i, r in enumerate(case["require"]) if r["kind"] == "no_tool_calls")
        yield make(
            "L305",
            f'case "{case["name"]}" expects calls but also requires no tool calls',
            _at(locate, (*path, "require", index)),
            help="remove either the expect statements or require no tool calls",
        )


def _chain_checks(case: dict[str, Any], path: PathKey, locate: Locate) -> Iterator[Diagnostic]:
    count = len(case.get("expect", ()))
    used: set[int] = set()
    for index, chain in enumerate(case.get("chains", ())):
        here = (*path, "chains", index)
        consecutive = all(b == a + 1 for a, b in itertools.pairwise(chain))
        in_range = all(0 <= i < count for i in chain)
        if not (consecutive and in_range) or used & set(chain):
            yield make(
                "L307",
                f"chain {chain} must name consecutive expectations of this case "
                f"(0 to {count - 1}), each in at most one chain",
                _at(locate, here),
                help="list the indices of expectations written one after another, as `a then b` does",
            )
        used |= set(chain)


def _allow_checks(case: dict[str, Any], path: PathKey, locate: Locate) -> Iterator[Diagnostic]:
    """An ``allow`` that a ``forbid`` of the case makes void: the same call pattern, or a forbid
    that matches every call the allow matches (forbid wins where both match)."""
    forbidden = case.get("forbid", ())
    if not forbidden:
        return
    for index, call in enumerate(case.get("allow", ())):
        covering = next((f for f in forbidden if _covers(f, call)), None)
        if covering is None:
            continue
        shown = visible(_written(without_spans(call)))
        line = covering.get("span", {}).get("line")
        at = f" at line {line}" if line else ""
        if _key(covering) == _key(call):
            message = f"allow {shown} is also forbidden{at}: forbid wins, so the allow lets no call pass"
            help = "remove the allow or the forbid: a call cannot be both allowed and forbidden"
        else:
            forbid = visible(_written(without_spans(covering)))
            message = (
                f"forbid {forbid}{at} matches every call that allow {shown} matches: "
                "forbid wins, so the allow lets no call pass"
            )
            help = "remove the allow, or narrow the forbid to the calls that must not happen"
        yield make("L315", message, _at(locate, (*path, "allow", index)), help=help)


def _place(span: Span | None) -> str:
    return f"line {span.line}, column {span.column}" if span else "earlier"


def repeat_checks(repeats: Sequence[Repeat]) -> Iterator[Diagnostic]:
    """The keys and statements written twice, that the reader found and the document lost
    (``L309``, ``L308``); they need no document, so they are reported beside a problem of a
    value that refuses it (a ``...`` in an ``in`` list)."""
    for found in repeats:
        if found.what == "key":
            yield make(
                "L309",
                f'key "{found.name}" is written twice in this object (first at {_place(found.first)})',
                found.span,
                help="write each key once: only the last value of a repeated key would count",
            )
        else:
            yield make(
                "L308",
                f'{found.what} is written twice in case "{found.name}" (first at {_place(found.first)})',
                found.span,
                help=f"a case has one {found.what}: remove one of them, or merge them into one",
            )


def check(document: dict[str, Any], locate: Locate, repeats: Sequence[Repeat] = ()) -> list[Diagnostic]:
    """Run every semantic check on a schema-valid document.

    ``repeats`` are what the reader found written twice where the document holds one.
    """
    found: list[Diagnostic] = list(repeat_checks(repeats))
    if not document["cases"]:
        found.append(
            make(
                "L310",
                "this spec holds no case, so it checks nothing",
                _at(locate, ("cases",)) or Span.point(1, 1),
                help='write an expect statement, or a case block: case "name" { expect tool(...) }',
            )
        )
    names: dict[str, int] = {}
    for case_index, case in enumerate(document["cases"]):
        path: PathKey = ("cases", case_index)
        name = case["name"]
        if name in names:
            earlier = _at(locate, ("cases", names[name]))
            where = f" (first at line {earlier.line})" if earlier else ""
            found.append(
                make(
                    "L300",
                    f'case "{name}" is defined twice in this file{where}',
                    _at(locate, path),
                    help="give every case of a file its own name; a recorded sample is paired "
                    "with its case by name",
                )
            )
        else:
            names[name] = case_index
        for kind in ("expect", "forbid", "allow"):
            for index, call in enumerate(case.get(kind, ())):
                found.extend(_call_checks(call, (*path, kind, index), locate))
        for index, req in enumerate(case.get("require", ())):
            if req["kind"] == "count" and "call" in req:
                found.extend(_call_checks(req["call"], (*path, "require", index, "call"), locate))
        found.extend(_requirement_checks(case, path, locate))
        found.extend(_count_checks(case, path, locate))
        found.extend(_chain_checks(case, path, locate))
        found.extend(_allow_checks(case, path, locate))
        kinds = {req["kind"] for req in case.get("require", ())}
        if (
            not case.get("expect")
            and not case.get("forbid")
            and not (kinds & {"no_tool_calls", "no_unexpected_calls", "count"})
        ):
            found.append(
                make(
                    "L303",
                    f'case "{name}" has no expect statement and no requirement to check',
                    _at(locate, path),
                    help=(
                        "an allow only lets calls pass: add an expect statement, a forbid, a count "
                        'or "require no unexpected calls"'
                        if case.get("allow")
                        else 'add an expect statement, a forbid, or "require no tool calls"'
                    ),
                )
            )
        forbidden = case.get("forbid", ())
        # Only an expectation of a forbidden tool can be identical to a forbid.
        tools = {call["tool"] for call in forbidden}
        expected = {_key(call) for call in case.get("expect", ()) if call["tool"] in tools}
        for index, call in enumerate(forbidden):
            if expected and _key(call) in expected:
                found.append(
                    make(
                        "L304",
                        f"forbid {call['tool']} is identical to an expect of the same case, "
                        "so the case can never pass",
                        _at(locate, (*path, "forbid", index)),
                        help="remove the forbid, or make it differ from the expectation",
                    )
                )
                continue
            covered = _covered(call, case.get("expect", ()))
            if covered is not None:
                tool = visible(call["tool"])
                line = covered.get("span", {}).get("line")
                found.append(
                    make(
                        "L311",
                        f"forbid {tool} matches every call that the expect of {tool}"
                        + (f" at line {line}" if line else "")
                        + " matches, so that expectation cannot be met in a passing run",
                        _at(locate, (*path, "forbid", index)),
                        help="narrow the forbid to the calls that must not happen (for example "
                        f'forbid {tool}(x="other")), or remove it or the expect',
                    )
                )
    found.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
    return found
