"""What the tests of spreading the work share: one spec and random canonical log lines."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

SPEC = """
case "a" {
    expect f(x=1)
    expect g
    require accuracy >= 0.5
}
case "b" {
    expect f(x="s", y=[1, 2])
    forbid h
    require pass rate >= 0.5
}
case "c" {
    expect g(z ~ "^o")
    require no unexpected calls
}
"""


def random_line(rng: random.Random, ids: Sequence[str] = ("a", "b", "c", "a", "b", "c", "nobody")) -> str:
    """One canonical JSON line: up to four calls of f, g, h or k with mixed values, an id from
    ``ids`` (cases of SPEC and names of none), and now and then no id at all."""
    case = rng.choice(ids)
    calls = []
    for _ in range(rng.randrange(5)):
        name = rng.choice("fghk")
        args = {"x": rng.choice([1, 1.0, "s", True]), "y": rng.choice([[1, 2], [1.0, 2]]), "z": "ok"}
        calls.append({"name": name, "arguments": args})
    record: dict[str, object] = {"tool_calls": calls}
    if rng.random() < 0.97:
        record["id"] = case
    return json.dumps(record)


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": name,
            "parameters": {
                "type": "object",
                "properties": {
                    "x": {"type": "integer"},
                    "y": {"type": "array", "items": {"type": "integer"}},
                },
                "additionalProperties": False,
            },
        },
    }
    for name in ("f", "g", "h")
]
"""A catalogue of the spec's tools, in OpenAI's form, for ``--tools``: integers only, so that
the log lines' string values break their schemas."""
