"""A given / when / then API for tests of an agent's tool calls.

::

    (given().question("Weather in Berlin?")
        .expected_tool_call(get_weather).with_argument("city", "Berlin")
        .allowed_tool_call("think")
        .when().answer_from(agent)
        .then().assert_tool_call_accuracy(1.0).assert_no_unexpected_tool_calls())

Misuse (an argument before any expected call, a name that is not a parameter of the tool)
raises ``TypeError`` or ``ValueError`` at once; only ``assert_*`` raise
:class:`~toolexpect.api.ToolCallAssertionError`.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import operator
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, SupportsIndex, cast

from toolexpect.api import Evaluation, ToolCallAssertionError, calls_from
from toolexpect.api.recording import Recording, record, to_json, tool_name
from toolexpect.calls import ToolCall
from toolexpect.diagnostics import Severity
from toolexpect.matching import RunResult, compile_case, evaluate
from toolexpect.model import ArgMatcher, Case, CountRequirement, Expectation, Op, Pattern
from toolexpect.report.explain import explain_run

__all__ = ["Given", "Then", "When", "given"]


def given() -> Given:
    """Start a test: say the question and the tool calls expected."""
    return Given()


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


def _parameters(tool: object) -> list[str] | None:
    """The parameter names of a tool function, or ``None`` when they cannot be known."""
    if isinstance(tool, str):
        return None
    target: Any = tool
    for _ in range(10):
        if isinstance(target, functools.partial):
            target = target.func
        elif not inspect.isroutine(target) and callable(getattr(target, "func", None)):
            target = target.func  # LangChain StructuredTool and similar wrappers
        else:
            break
    schema = getattr(target, "params_json_schema", None)  # OpenAI Agents SDK FunctionTool
    if not inspect.isroutine(target) and isinstance(schema, Mapping):
        properties = schema.get("properties")
        return list(properties) if isinstance(properties, Mapping) else None
    if not callable(target) or isinstance(target, type):
        return None
    try:
        signature = inspect.signature(target)  # follows __wrapped__; drops bound self
    except (TypeError, ValueError):
        return None
    names: list[str] = []
    for param in signature.parameters.values():
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            return None  # any name is accepted
        if param.kind is not inspect.Parameter.VAR_POSITIONAL:
            names.append(param.name)
    if names and names[0] in ("self", "cls") and not inspect.ismethod(target):
        names = names[1:]
    return names


@dataclass(slots=True)
class _Expected:
    tool: str
    parameters: list[str] | None
    args: dict[str, tuple[ArgMatcher, ...]] = field(default_factory=dict)

    def expectation(self) -> Expectation:
        return Expectation(self.tool, tuple(m for matchers in self.args.values() for m in matchers))


class Given:
    """The question, the expected tool calls and the allowed ones."""

    def __init__(self) -> None:
        """An empty setup."""
        self._question: str | None = None
        self._expected: list[_Expected] = []
        self._allowed: list[_Expected] = []
        self._last: _Expected | None = None
        """The call ``with_argument`` adds to: the last expected or allowed one."""

    def question(self, question: str) -> Given:
        """The question put to the agent."""
        if not isinstance(question, str):
            raise TypeError(f"the question must be a string; got {type(question).__name__}")
        self._question = question
        return self

    def expected_tool_call(self, tool: object) -> Given:
        """Expect a call of ``tool``: its name, a function, a method, or a tool object with ``.name``."""
        self._last = _Expected(tool_name(tool), _parameters(tool))
        self._expected.append(self._last)
        return self

    def allowed_tool_call(self, tool: object, **arguments: Any) -> Given:
        """Allow calls of ``tool`` (with these arguments, when given) any number of times, or
        not at all, as ``allow TOOL`` does: a call that matches and that no expected call is
        paired with is neither expected nor unexpected (precision and F1 leave it out)."""
        self._last = _Expected(tool_name(tool), _parameters(tool))
        self._allowed.append(self._last)
        return self.with_arguments(arguments)

    allow_tool_call = allowed_tool_call
    """The same as :meth:`allowed_tool_call`."""

    def with_argument(self, name: str, value: Any) -> Given:
        """The last expected (or allowed) call must carry argument ``name`` equal to ``value``."""
        current = self._last
        if current is None:
            raise TypeError("with_argument() needs an expected_tool_call() or allowed_tool_call() before it")
        if not isinstance(name, str) or not name:
            raise TypeError(f"an argument name must be a non-empty string; got {name!r}")
        if current.parameters is not None and name not in current.parameters:
            known = ", ".join(current.parameters) or "none"
            raise ValueError(f"{current.tool} has no parameter {name!r}; its parameters: {known}")
        plain = to_json(value, strict=True, argument=name)
        current.args[name] = (ArgMatcher(name, Op.EQ, value=cast(Pattern, plain)),)
        return self

    def with_argument_matching(self, matcher: str) -> Given:
        """The last expected call must carry an argument matching ``matcher``, written as in a
        spec: ``'location={city ~ "^Ber", ...}'``, ``'to contains "ops@example.com"'``,
        ``"1 <= days <= 7"``. It replaces what an earlier ``with_argument`` said of that argument;
        a matcher that does not parse is a ``ValueError`` with the spec's diagnostic."""
        if not self._expected:
            raise TypeError("with_argument_matching() needs an expected_tool_call() before it")
        if not isinstance(matcher, str):
            raise TypeError(
                f"with_argument_matching() takes a matcher as a str; got {type(matcher).__name__}"
            )
        from toolexpect.specfiles.stages import parse_spec_source  # loads the parser: only here

        parsed = parse_spec_source(f"expect t({matcher}\n)")
        problem = next((d for d in parsed.diagnostics if d.severity is Severity.ERROR), None)
        case = parsed.spec.cases[0] if parsed.spec is not None and len(parsed.spec.cases) == 1 else None
        # Exactly one expectation and nothing else: the text cannot close the call and go on.
        alone = case is not None and len(case.expectations) == 1 and not (case.forbids or case.counts)
        if problem is not None or case is None or not alone:
            why = f": {problem.message}" if problem is not None else ""
            raise ValueError(f"{matcher!r} is not one argument matcher{why}")
        matchers = case.expectations[0].args
        if len({m.name for m in matchers}) != 1:
            raise ValueError(f"{matcher!r} is not one argument matcher: it names {len(matchers)} arguments")
        current = self._expected[-1]
        name = matchers[0].name
        if current.parameters is not None and name not in current.parameters:
            known = ", ".join(current.parameters) or "none"
            raise ValueError(f"{current.tool} has no parameter {name!r}; its parameters: {known}")
        current.args[name] = tuple(replace(m, span=None) for m in matchers)
        return self

    def with_arguments(self, arguments: Mapping[str, Any]) -> Given:
        """The last expected (or allowed) call must carry each of these arguments with these values."""
        if not isinstance(arguments, Mapping):
            raise TypeError(f"with_arguments() takes a dict; got {type(arguments).__name__}")
        for name, value in arguments.items():
            self.with_argument(name, value)
        return self

    def when(self) -> When:
        """Go on to run the agent (or give its calls)."""
        allows = tuple(a.expectation() for a in self._allowed)
        return When(self._question, tuple(e.expectation() for e in self._expected), allows)


class When:
    """Run the agent, or give the calls it made."""

    def __init__(
        self,
        question: str | None,
        expectations: tuple[Expectation, ...],
        allows: tuple[Expectation, ...] = (),
    ) -> None:
        """What ``given()`` set up."""
        self._question = question
        self._expectations = expectations
        self._allows = allows
        self._calls: list[ToolCall] | None = None
        self._answer: Any = None

    def answer_from(self, agent: Callable[[str], Any]) -> When:
        """Call ``agent(question)`` once (awaited when async) and take the tool calls it made.

        The calls come from what it returns (a list of calls, a ``Recording``, a log object in
        a known format); when it returns text, ``None`` or anything else that holds no calls,
        from the ``@toolexpect.tool`` functions it called.
        """
        if self._question is None:
            raise TypeError("answer_from() needs a question: call given().question(...) first")
        with record() as recording:
            answer = agent(self._question)
            if inspect.isawaitable(answer):
                answer = asyncio.run(_awaited(answer))
        self._answer = answer
        if answer is None or isinstance(answer, str):
            self._calls = list(recording.calls)
            return self
        try:
            self._calls = calls_from(answer)
        except ValueError:
            if not recording.calls:
                raise
            self._calls = list(recording.calls)
        return self

    def tool_calls(self, calls: Sequence[ToolCall | Mapping[str, Any]] | Recording | Any) -> When:
        """Give the recorded calls directly (``ToolCall`` s, dicts, a ``Recording``, a log)."""
        if calls is None:
            raise ValueError("tool_calls() needs the recorded calls; got None (pass [] for none)")
        self._calls = calls_from(calls)
        return self

    def then(self) -> Then:
        """Go on to the assertions."""
        if self._calls is None:
            raise TypeError("then() needs calls: use answer_from(agent) or tool_calls([...]) first")
        return Then(self._question, self._expectations, self._calls, self._answer, self._allows)


class Then:
    """Assertions on the calls made; each returns ``self`` so they chain."""

    def __init__(
        self,
        question: str | None,
        expectations: tuple[Expectation, ...],
        calls: list[ToolCall],
        answer: Any = None,
        allows: tuple[Expectation, ...] = (),
    ) -> None:
        """The expectations, the allowed calls and the calls to check."""
        self._case = Case(
            name=question or "fluent",
            expectations=expectations,
            question=question,
            threshold=0.0,
            allows=allows,
        )
        self.calls: list[ToolCall] = calls
        """The calls the agent made."""
        self.answer: Any = answer
        """What ``answer_from``'s agent returned."""

    @property
    def tool_call_accuracy(self) -> float:
        """The accuracy of the calls; ``ValueError`` when no call was expected."""
        return self.evaluation().value or 0.0

    def evaluation(self) -> Evaluation:
        """The plain score of the calls against the expected calls."""
        if not self._case.expectations:
            raise ValueError("no expected tool calls: add expected_tool_call(...) to given()")
        case = replace(self._case, threshold=1.0)
        calls = tuple(self.calls)
        result = compile_case(case).evaluate(calls, explain_later=True)
        return Evaluation("Tool Call Accuracy", result.score, result, case, calls)

    def _check(self, case: Case) -> RunResult:
        __tracebackhide__ = True
        result = evaluate(case, self.calls)
        if result.status != "pass":
            raise ToolCallAssertionError(explain_run(case, result, self.calls))
        return result

    def assert_tool_call_accuracy(self, minimum: float = 1.0) -> Then:
        """Assert that at least ``minimum`` of the expected calls were made."""
        __tracebackhide__ = True
        if isinstance(minimum, bool) or not isinstance(minimum, int | float) or not 0 <= minimum <= 1:
            raise ValueError(f"the accuracy must be a number from 0 to 1; got {minimum!r}")
        if not self._case.expectations:
            raise ValueError("no expected tool calls: add expected_tool_call(...) to given()")
        self._check(replace(self._case, threshold=float(minimum)))
        return self

    def assert_no_unexpected_tool_calls(self) -> Then:
        """Assert that every call made is paired with an expected call or allowed."""
        __tracebackhide__ = True
        self._check(replace(self._case, no_unexpected_calls=True))
        return self

    def assert_tool_call_order(self) -> Then:
        """Assert that the expected calls were made in the order given."""
        __tracebackhide__ = True
        if not self._case.expectations:
            raise ValueError("no expected tool calls: add expected_tool_call(...) to given()")
        self._check(replace(self._case, ordered=True))
        return self

    def assert_no_tool_call(self, tool: object | None = None) -> Then:
        """Assert that no tool was called at all, or (given ``tool``) that it was not called."""
        __tracebackhide__ = True
        if tool is None:
            self._check(Case(name=self._case.name, question=self._case.question, no_tool_calls=True))
        else:
            forbid = Expectation(tool_name(tool))
            self._check(Case(name=self._case.name, question=self._case.question, forbids=(forbid,)))
        return self

    def assert_tool_called(
        self,
        tool: object,
        *,
        at_least: int | None = None,
        at_most: int | None = None,
        exactly: int | None = None,
    ) -> Then:
        """Assert how often ``tool`` was called, whatever its arguments, as ``require at most 3
        calls of search`` does: ``at_least``, ``at_most`` (both, for between) or ``exactly``
        times; at least once when no bound is given."""
        __tracebackhide__ = True
        if at_least is None and at_most is None and exactly is None:
            at_least = 1
        count = _count(Expectation(tool_name(tool)), at_least, at_most, exactly)
        self._check(Case(name=self._case.name, question=self._case.question, counts=(count,)))
        return self

    def assert_tool_call_count(
        self, *, at_least: int | None = None, at_most: int | None = None, exactly: int | None = None
    ) -> Then:
        """Assert how many calls were made in all, as ``require at most 10 calls`` does:
        ``at_least``, ``at_most`` (both, for between) or ``exactly``."""
        __tracebackhide__ = True
        if at_least is None and at_most is None and exactly is None:
            raise TypeError("assert_tool_call_count() needs at_least=, at_most= or exactly=")
        count = _count(None, at_least, at_most, exactly)
        self._check(Case(name=self._case.name, question=self._case.question, counts=(count,)))
        return self


def _bound(name: str, value: object) -> int | None:
    """A bound of a count: ``None``, or a whole number of calls from 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name}= must be a whole number of calls; got {value!r}")
    number = operator.index(cast(SupportsIndex, value))
    if number < 0:
        raise ValueError(f"{name}= must not be negative; got {number}")
    return number


def _count(call: Expectation | None, at_least: object, at_most: object, exactly: object) -> CountRequirement:
    """The count requirement of the bounds given, refused when no number of calls meets them."""
    low, high, both = _bound("at_least", at_least), _bound("at_most", at_most), _bound("exactly", exactly)
    if both is not None:
        if low is not None or high is not None:
            raise TypeError("exactly= cannot be given with at_least= or at_most=")
        low = high = both
    if low is not None and high is not None and low > high:
        raise ValueError(f"at_least={low} is above at_most={high}: no number of calls meets both")
    return CountRequirement(at_least=low, at_most=high, call=call)
