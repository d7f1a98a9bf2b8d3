"""Record the tool calls a Python agent actually makes, from its own tool functions.

Two ways to mark a tool:

* ``@rec.tool`` records every call into that one :class:`Recording`;
* ``@toolexpect.tool`` (optionally ``@toolexpect.tool(name="...")``) records into every
  recording that is active at call time (``with toolexpect.record() as rec:``), and does
  nothing extra when none is.

A call is recorded *before* the function runs (a call that raises was still made). Its
arguments are what the caller passed, bound to parameter names with
``inspect.Signature.bind``; defaults the caller left out are **not** added, ``self``/``cls``
of methods are left out, ``**kwargs`` are spread into the arguments, ``*args`` are kept as a
list under their parameter name. Values are made JSON-like: tuples become lists, sets lists
in an order of their values alone (never the hash order), mapping keys become strings, enums
become their value, and anything else that is not a JSON value becomes its ``repr``. A value
that contains itself, nests lists and objects deeper than a spec may, or has two mapping keys
that become the same string (``1`` and ``"1"``), is a ``ValueError``.
"""

from __future__ import annotations

import enum
import functools
import inspect
import json
import numbers
import operator
from collections import UserString
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from decimal import Decimal
from fractions import Fraction
from types import TracebackType
from typing import Any, TypeVar, cast, overload

from toolexpect.calls import ToolCall
from toolexpect.language.layout import MAX_DEPTH
from toolexpect.model import Json

__all__ = ["Recording", "record", "tool", "tool_name"]

F = TypeVar("F", bound=Callable[..., Any])

_ACTIVE: ContextVar[tuple[Recording, ...]] = ContextVar("toolexpect_recordings", default=())


class Recording:
    """The tool calls made while recording, in the order they were made."""

    def __init__(self) -> None:
        """An empty recording."""
        self.calls: list[ToolCall] = []
        self._token: list[Any] = []

    def __enter__(self) -> Recording:
        """Make this recording active, so that ``@toolexpect.tool`` functions record into it."""
        self._token.append(_ACTIVE.set((*_ACTIVE.get(), self)))
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Stop recording into this recording."""
        _ACTIVE.reset(self._token.pop())

    def __len__(self) -> int:
        """How many calls were recorded."""
        return len(self.calls)

    def __iter__(self) -> Iterator[ToolCall]:
        """The recorded calls, in order."""
        return iter(self.calls)

    def __repr__(self) -> str:
        """The recording with its calls."""
        return f"Recording({self.calls!r})"

    def add(self, name: str, arguments: Mapping[str, Any] | None = None) -> ToolCall:
        """Record one call by hand and return it."""
        plain = argument_names(arguments or {})
        call = ToolCall(name, {k: to_json(v, argument=k) for k, v in plain.items()})
        self.calls.append(call)
        return call

    def clear(self) -> None:
        """Forget every recorded call."""
        self.calls.clear()

    @overload
    def tool(self, fn: F, /) -> F: ...

    @overload
    def tool(self, /, *, name: str | None = None) -> Callable[[F], F]: ...

    def tool(self, fn: F | None = None, /, *, name: str | None = None) -> F | Callable[[F], F]:
        """Decorate a tool function so that each call is recorded into this recording."""
        if fn is not None:
            return _wrap(fn, name, lambda: (self,))
        return lambda f: _wrap(f, name, lambda: (self,))


def record() -> Recording:
    """A new recording; use it as ``with toolexpect.record() as rec:``."""
    return Recording()


@overload
def tool(fn: F, /) -> F: ...


@overload
def tool(*, name: str | None = None) -> Callable[[F], F]: ...


def tool(fn: F | None = None, /, *, name: str | None = None) -> F | Callable[[F], F]:
    """Decorate a tool function so that its calls go into every active recording."""
    if fn is not None:
        return _wrap(fn, name, _ACTIVE.get)
    return lambda f: _wrap(f, name, _ACTIVE.get)


def tool_name(tool: object) -> str:
    """The name a tool is called by: a string, an object's ``name``, a function's name."""
    if isinstance(tool, str):
        if not tool:
            raise ValueError("a tool name must not be empty")
        return tool
    name = getattr(tool, "name", None)
    if isinstance(name, str) and name:
        return name
    func = getattr(tool, "__func__", None)  # a bound method
    target = func if func is not None else tool
    while isinstance(target, functools.partial):
        target = target.func
    found = getattr(target, "__name__", None)
    if isinstance(found, str) and found and found != "<lambda>":
        return found
    raise TypeError(f"cannot tell the name of tool {tool!r}: give its name as a string")


def _wrap(fn: F, name: str | None, targets: Callable[[], tuple[Recording, ...]]) -> F:
    tool_called = name or tool_name(fn)
    try:
        signature: inspect.Signature | None = inspect.signature(fn)
    except (TypeError, ValueError):
        signature = None

    def note(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        recordings = targets()
        if not recordings:
            return
        arguments = bind_arguments(signature, args, kwargs)
        for recording in recordings:
            recording.add(tool_called, arguments)

    wrapper: Any
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
            note(args, kwargs)
            return await fn(*args, **kwargs)

        wrapper = async_wrapper
    else:

        @functools.wraps(fn)
        def sync_wrapper(*args: Any, **kwargs: Any) -> Any:
            note(args, kwargs)
            return fn(*args, **kwargs)

        wrapper = sync_wrapper
    setattr(wrapper, "name", tool_called)  # noqa: B010 - functions take attributes
    return cast(F, wrapper)


def bind_arguments(
    signature: inspect.Signature | None, args: tuple[Any, ...], kwargs: Mapping[str, Any]
) -> dict[str, Any]:
    """Name the passed arguments by parameter; defaults the caller left out are not added."""
    if signature is None:
        return {**{f"arg{i}": v for i, v in enumerate(args)}, **kwargs}
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError:
        return {**{f"arg{i}": v for i, v in enumerate(args)}, **kwargs}
    params = list(signature.parameters.values())
    out: dict[str, Any] = {}
    for key, value in bound.arguments.items():
        param = signature.parameters[key]
        if params and param is params[0] and key in ("self", "cls"):
            continue
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            out.update(value)
        elif param.kind is inspect.Parameter.VAR_POSITIONAL:
            out[key] = list(value)
        else:
            out[key] = value
    return out


_SCALARS: frozenset[type] = frozenset({str, int, float, bool, type(None)})
_PLAIN: frozenset[type] = frozenset({dict, list})
_ARRAY_MODULES = frozenset({"numpy", "pandas"})


class _TooDeep(Exception):
    """Nesting beyond MAX_DEPTH; ``chain`` gathers the containers on the path as it goes up."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.chain = {id(value)}
        self.seen = 1
        self.circular = False


class _Refused(Exception):
    """A value refused (``error`` is the exception to raise); ``path`` gathers the keys and
    indexes above it, innermost first, as it goes up."""

    def __init__(self, error: type[TypeError] | type[ValueError], reason: str) -> None:
        super().__init__(reason)
        self.error = error
        self.reason = reason
        self.path: list[str | int] = []


class _Walk:
    """One conversion: what to do with an unknown value, and what to name in errors."""

    __slots__ = ("argument", "strict")

    def __init__(self, strict: bool, argument: str | None) -> None:
        self.strict = strict
        self.argument = argument

    def where(self, path: Sequence[str | int] = ()) -> str:
        named = f"argument {self.argument!r}" if self.argument is not None else "the value"
        if not path:
            return named
        steps = "".join(
            f"[{step}]" if type(step) is int else f"[{json.dumps(step, ensure_ascii=False)}]" for step in path
        )
        return f"{named} at {steps}"


def to_json(value: Any, *, strict: bool = False, argument: str | None = None) -> Json:
    """A Python value as a JSON-like value, as the module docstring describes.

    Numbers (``numbers.Integral`` as ``int``, ``numbers.Real`` as ``float``; ``Decimal`` and
    ``Fraction`` when an ``int`` or ``float`` holds them exactly), ``str`` subclasses and
    ``UserString`` (as ``str``), enums (their value), numpy and pandas scalars and arrays
    (``tolist()``), tuples and other sequences (as lists), mappings (keys as text). With
    ``strict`` a set is a ``TypeError`` (it has no order), and so is anything else, naming
    ``argument``, the place inside it and the type; without, a set becomes a list in an order
    of its values alone and anything else its ``repr``. A cycle, lists and objects nested
    deeper than the spec language allows (:data:`~toolexpect.language.layout.MAX_DEPTH`),
    mapping keys that become the same text (``1`` and ``"1"``), a signaling NaN and a
    ``Decimal`` or ``Fraction`` no JSON number holds are a ``ValueError``. A plain value is
    returned as it is, not copied.
    """
    if type(value) in _SCALARS:
        return value  # type: ignore[no-any-return]
    walk = _Walk(strict, argument)
    try:
        converted: Json = _container(value, 0, walk) if type(value) in _PLAIN else _convert(value, 0, walk)
    except _TooDeep as error:
        if error.circular:
            raise ValueError(f"{walk.where()} contains itself (a circular reference)") from None
        raise ValueError(f"{walk.where()} nests lists and objects deeper than {MAX_DEPTH} levels") from None
    except _Refused as refused:
        raise refused.error(f"{walk.where(refused.path[::-1])}: {refused.reason}") from None
    return converted


def _convert(value: Any, depth: int, walk: _Walk) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict or kind is list or kind is tuple:
        return _container(value, depth, walk)
    if isinstance(value, enum.Enum):
        return _convert(value.value, depth, walk)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    if kind.__module__.partition(".")[0] in _ARRAY_MODULES:  # numpy.bool_ too: not a number
        tolist = getattr(value, "tolist", None)
        if callable(tolist):
            return _convert(tolist(), depth, walk)
    if isinstance(value, numbers.Integral):
        return int.__int__(operator.index(value))
    if isinstance(value, Decimal | numbers.Rational):
        return _exact(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, UserString):
        return str.__str__(value.data)
    if isinstance(value, set | frozenset):
        if walk.strict:
            raise _Refused(
                TypeError,
                f"a {kind.__name__} has no order, and a JSON value is a list; "
                "give a list (sorted(...) when the order does not matter)",
            )
        return _container(value, depth, walk)
    if isinstance(value, Mapping | Sequence) and not isinstance(value, bytes | bytearray | memoryview):
        return _container(value, depth, walk)
    if walk.strict:
        raise _Refused(
            TypeError,
            f"a value of type {kind.__name__} has no JSON form; "
            "give numbers, strings, booleans, None, lists or dicts",
        )
    return repr(value.tobytes() if isinstance(value, memoryview) else value)


def _exact(value: Decimal | numbers.Rational) -> int | float:
    """A ``Decimal`` or ``Fraction`` as the ``int``, or the ``float`` whose shortest decimal
    is exactly its value (``Decimal("1.5")``, ``Fraction(1, 4)``); else refused."""
    if isinstance(value, Decimal):
        if value.is_snan():
            raise _Refused(
                ValueError,
                f"{value!r} is a signaling NaN, which no JSON number holds; give a float or a string",
            )
        if not value.is_finite():
            return float(value)
        exact = Fraction(value)
    else:
        exact = Fraction(operator.index(value.numerator), operator.index(value.denominator))
    if exact.denominator == 1:
        return int(exact)
    number = float(exact)
    if Fraction(repr(number)) == exact:
        return number
    raise _Refused(ValueError, f"{value!r} is not exactly a JSON number; give a float or a string")


def _container(value: Any, depth: int, walk: _Walk) -> Any:
    """A list or dict of converted items; the very value when it needs no change.

    A value that contains itself nests without end, so the depth bound stops it too; the
    containers on the way down are gathered as :class:`_TooDeep` goes up, to tell the two
    apart in the message.
    """
    depth += 1
    if depth > MAX_DEPTH:
        raise _TooDeep(value)
    try:
        return _items(value, depth, walk)
    except _TooDeep as error:
        error.chain.add(id(value))
        error.seen += 1
        if len(error.chain) < error.seen:  # a container met twice on one path
            error.circular = True
        raise


def _items(value: Any, depth: int, walk: _Walk) -> Any:
    kind = type(value)
    if kind is dict or (kind is not list and kind is not tuple and isinstance(value, Mapping)):
        if kind is dict:
            for name, item in value.items():
                if type(name) is not str or type(item) not in _SCALARS:
                    break
            else:
                return value
        out: dict[str, Any] = {}
        changed = kind is not dict
        for name, item in value.items():
            if type(name) is not str:
                name = _key(name)
                changed = True
            if name in out:
                raise _Refused(ValueError, _collision(value, name, "key"))
            if type(item) in _SCALARS:
                out[name] = item
                continue
            try:
                converted = _convert(item, depth, walk)
            except _Refused as refused:
                refused.path.append(name)
                raise
            changed = changed or converted is not item
            out[name] = converted
        return out if changed else value
    if isinstance(value, set | frozenset):  # only without ``strict``
        return sorted((_convert(item, depth, walk) for item in value), key=_order)
    listed = []
    changed = kind is not list
    for index, item in enumerate(value):
        if type(item) in _SCALARS:
            listed.append(item)
            continue
        try:
            converted = _convert(item, depth, walk)
        except _Refused as refused:
            refused.path.append(index)
            raise
        changed = changed or converted is not item
        listed.append(converted)
    return listed if changed else value


def _order(item: Any) -> tuple[int, Any]:
    """Where a converted item of a set goes in its list: by its value alone, never by the
    set's hash order (None, booleans, numbers, NaN, text, then lists and dicts by JSON text)."""
    kind = type(item)
    if item is None:
        return (0, 0)
    if kind is bool:
        return (1, item)
    if kind is int or kind is float:
        return (2, item) if item == item else (3, 0)
    if kind is str:
        return (4, item)
    return (5, json.dumps(item, sort_keys=True, ensure_ascii=False))


def _key(key: Any) -> str:
    return str.__str__(key) if isinstance(key, str) else str(key)


def _collision(mapping: Mapping[Any, Any], name: str, what: str) -> str:
    """Why keys of ``mapping`` that become the same text ``name`` are refused."""
    first, second = [key for key in mapping if _key(key) == name][:2]
    return f"{what}s {first!r} and {second!r} both become the {what} {name!r}; give distinct text {what}s"


def argument_names(arguments: Mapping[Any, Any]) -> dict[str, Any]:
    """``arguments`` with every name as text (``str(name)``); ``ValueError`` when two names
    become the same text (``1`` and ``"1"``)."""
    plain: dict[str, Any] = {}
    for key, item in arguments.items():
        name = key if type(key) is str else _key(key)
        if name in plain:
            raise ValueError(_collision(arguments, name, "argument name"))
        plain[name] = item
    return plain
