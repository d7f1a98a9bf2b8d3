"""record(), Recording.tool and toolexpect.tool: which calls are recorded, and how."""

import asyncio
import enum

import pytest

import toolexpect
from toolexpect import Recording, ToolCall, record


class Unit(enum.Enum):
    """An enum argument."""

    C = "celsius"


@toolexpect.tool
def get_weather(city: str, unit: str = "celsius", *, days: int = 1) -> str:
    """A tool recorded into every active recording."""
    return city


def test_records_only_while_active() -> None:
    """Calls outside ``with record()`` are not recorded; inside they are, by parameter name."""
    get_weather("Paris")
    with record() as rec:
        get_weather("Berlin", days=3)
    get_weather("Rome")
    assert rec.calls == [ToolCall("get_weather", {"city": "Berlin", "days": 3})]
    assert len(rec) == 1


def test_defaults_are_not_added() -> None:
    """Arguments the caller left out are not recorded; ones passed are, even when default."""
    with record() as rec:
        get_weather("Berlin")
        get_weather(city="Berlin", unit="celsius")
    assert [dict(c.arguments) for c in rec] == [{"city": "Berlin"}, {"city": "Berlin", "unit": "celsius"}]


def test_nested_recordings_both_record() -> None:
    """A call is recorded into every active recording."""
    with record() as outer:
        with record() as inner:
            get_weather("Berlin")
        get_weather("Rome")
    assert len(inner) == 1
    assert len(outer) == 2


def test_recording_tool_decorator_with_name_and_values() -> None:
    """``@rec.tool(name=...)`` records always, under the name given, with JSON-like values."""
    rec = Recording()

    @rec.tool(name="search")
    def find(query: str, *tags: str, **options: object) -> None:
        raise RuntimeError("tool failed")

    with pytest.raises(RuntimeError):
        find("weather", "a", "b", unit=Unit.C, limits=(1, 2))
    assert find.name == "search"  # type: ignore[attr-defined]
    assert rec.calls == [
        ToolCall("search", {"query": "weather", "tags": ["a", "b"], "unit": "celsius", "limits": [1, 2]})
    ]


def test_methods_leave_out_self() -> None:
    """A decorated method records its arguments without ``self``."""
    rec = Recording()

    class Service:
        @rec.tool
        def lookup(self, order_id: str) -> str:
            return order_id

    Service().lookup("A1")
    assert rec.calls == [ToolCall("lookup", {"order_id": "A1"})]


def test_async_tools_are_recorded() -> None:
    """An async tool is recorded when called."""
    rec = Recording()

    @rec.tool
    async def fetch(url: str) -> str:
        return url

    assert asyncio.run(fetch("https://example.com")) == "https://example.com"
    assert rec.calls == [ToolCall("fetch", {"url": "https://example.com"})]


def test_tool_calls_fixture_records(tool_calls: Recording) -> None:
    """The plugin's tool_calls fixture is an active, fresh recording."""
    assert tool_calls.calls == []
    get_weather("Berlin")
    assert tool_calls.calls == [ToolCall("get_weather", {"city": "Berlin"})]
