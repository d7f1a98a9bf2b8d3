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
list under their parameter name. Values are made JSON-like: tuples and sets become lists,
mapping keys become strings, enums become their value, and anything else that is not a JSON
value becomes its ``repr``.
"""

from __future__ import annotations

import enum
import functools
import inspect
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from types import TracebackType
from typing import Any, TypeVar, cast, overload

from toolexpect.calls import ToolCall
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
        call = ToolCall(name, {str(k): to_json(v) for k, v in (arguments or {}).items()})
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


def to_json(value: Any) -> Json:
    """A Python value as a JSON-like value, as the module docstring describes."""
    kind = type(value)
    if kind in _SCALARS:
        return value  # type: ignore[no-any-return]
    # Plain dicts and lists are copied without a call per scalar inside them.
    scalars = _SCALARS
    if kind is dict:
        return {
            k if type(k) is str else str(k): v if type(v) in scalars else to_json(v) for k, v in value.items()
        }
    if kind is list:
        return [v if type(v) in scalars else to_json(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return to_json(value.value)
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, set | frozenset):
        items = [to_json(v) for v in value]
        try:
            return sorted(items)  # type: ignore[type-var]
        except TypeError:
            return items
    return repr(value)
