"""Specs in the Python API: parse and load them, score calls against a case, assert on them."""

from __future__ import annotations

import os
from typing import Any

from toolexpect.api.calls import calls_from
from toolexpect.api.errors import SpecError, ToolCallAssertionError
from toolexpect.api.evaluator import Evaluation
from toolexpect.matching import compile_case
from toolexpect.matching.collector import collector_paused
from toolexpect.model import Case, Spec
from toolexpect.specfiles.stages import SpecFile, load_spec_file, parse_cached

__all__ = ["assert_tool_calls", "load_spec", "parse_spec", "score"]


def _checked(loaded: SpecFile) -> Spec:
    if not loaded.ok or loaded.spec is None:
        raise SpecError(loaded.diagnostics, loaded.text)
    return loaded.spec


def parse_spec(text: str, name: str = "spec") -> Spec:
    """Parse spec text; ``name`` names its implicit case. ``SpecError`` when invalid.

    Text parsed before (the same text and name) is read from the spec cache, as spec files are
    (docs/cli.md, "The cache"; off with ``TOOLEXPECT_NO_CACHE=1``)."""
    if not isinstance(text, str):
        raise TypeError(f"parse_spec() takes the spec text as a str; got {type(text).__name__}")
    if not isinstance(name, str):
        raise TypeError(f"parse_spec() takes the case name as a str; got {type(name).__name__}")
    return _checked(parse_cached(text, "text", name=name))


def load_spec(path: str | os.PathLike[str]) -> Spec:
    """Load a spec file (text, JSON or YAML form). ``SpecError`` when invalid or unreadable."""
    return _checked(load_spec_file(path))


def _case(spec_or_case: Spec | Case | str, case: str | None) -> tuple[Case, str | None]:
    if not isinstance(spec_or_case, Spec | Case | str):
        raise TypeError(
            f"spec_or_case must be a Spec, a Case or spec text; got {type(spec_or_case).__name__}"
        )
    if case is not None and not isinstance(case, str):
        raise TypeError(f"case must be a case name (str); got {type(case).__name__}")
    if isinstance(spec_or_case, str):
        spec_or_case = parse_spec(spec_or_case)
    if isinstance(spec_or_case, Case):
        if case is not None and case != spec_or_case.name:
            raise ValueError(f"case {case!r} asked for, but the case given is {spec_or_case.name!r}")
        return spec_or_case, None
    if case is not None:
        try:
            return spec_or_case.case(case), spec_or_case.path
        except KeyError:
            names = ", ".join(repr(c.name) for c in spec_or_case.cases)
            raise ValueError(f"the spec has no case {case!r}; its cases: {names}") from None
    if len(spec_or_case.cases) != 1:
        names = ", ".join(repr(c.name) for c in spec_or_case.cases)
        raise ValueError(f"the spec has {len(spec_or_case.cases)} cases ({names}); say which with case=")
    return spec_or_case.cases[0], spec_or_case.path


def score(spec_or_case: Spec | Case | str, calls: Any, *, case: str | None = None) -> Evaluation:
    """Score recorded calls against a case (a spec of one case, or ``case=`` picks one).

    ``spec_or_case`` may be spec text; ``calls`` anything :func:`calls_from` takes, or
    ``None`` for "nothing recorded" (an error result, never a score).
    """
    chosen, path = _case(spec_or_case, case)
    with collector_paused():
        kept = None if calls is None else tuple(calls_from(calls))
        result = compile_case(chosen).evaluate(kept, explain_later=True)
    return Evaluation("Tool Call Accuracy", result.score, result, chosen, kept, path=path)


def assert_tool_calls(calls: Any, spec_or_text: Spec | Case | str, *, case: str | None = None) -> Evaluation:
    """Assert that ``calls`` pass the case; ``ToolCallAssertionError`` explains a failure."""
    __tracebackhide__ = True
    if calls is None:
        raise TypeError(
            "assert_tool_calls() needs the recorded calls; got None (pass [] for a run that called no tools)"
        )
    evaluation = score(spec_or_text, calls, case=case)
    if not evaluation.passed:
        raise ToolCallAssertionError(evaluation.explanation)
    return evaluation
