"""specs/tools.json: the catalogue of the tools the example specs use."""

from __future__ import annotations

import pytest

from toolexpect.catalogue import load_catalogue
from toolexpect.toolcheck import check_spec

from .tools_support import ROOT, spec_of

CATALOGUE = str(ROOT / "specs" / "tools.json")

EXAMPLE_TOOLS = {
    "get_weather": {"city", "unit", "days"},
    "get_forecast": {"city", "days"},
    "search_flights": {"from", "to", "date", "passengers"},
    "book_flight": {"flight", "passengers"},
    "search_hotels": {"city", "check_in", "check_out", "guests"},
    "book_hotel": {"hotel_id", "nights"},
    "send_confirmation": {"email", "booking_ids"},
    "mcp__fs__read_file": {"path"},
    "mcp__fs__write_file": {"path", "content"},
    "mcp__fs__list_directory": {"path"},
    "github.create_issue": {"repo", "title", "body", "labels"},
    "github.search_issues": {"repo", "query", "state", "limit"},
    "github.add_comment": {"repo", "issue_number", "body"},
    "lookup_order": {"order_id"},
    "lookup_customer": {"email"},
    "refund_order": {"order_id", "amount", "reason"},
    "escalate_ticket": {"ticket_id", "priority"},
    "delete_user": {"user_id"},
    "send_email": {"to", "cc", "subject", "body", "meta"},
}

WEATHER = """
case "berlin tomorrow" {
    question "Wie wird das Wetter morgen in Berlin?"
    expect get_weather(city="Berlin")
    expect get_weather
    expect send_email(to="ops@example.com", cc=["a@example.com"], meta={"priority": 1})
    forbid delete_user
    require accuracy >= 0.75
    require no unexpected calls
}
case "units" {
    expect get_weather(city="Boston", unit in ["celsius", "fahrenheit"], days >= 1)
    expect get_forecast(city ~ "^Bos", days = 7, not unit)
}
case "small talk" {
    require no tool calls
}
"""

TRAVEL = """
case "trip" {
    expect search_flights(from="TXL", to="JFK", date="2025-07-01", passengers >= 1) then
        book_flight(flight="LH123", passengers=2)
    expect search_hotels(city="New York", check_in="2025-07-01", check_out="2025-07-05", guests=2)
    expect book_hotel(hotel_id=any, nights=4)
    expect send_confirmation(email ~ "@example\\\\.com$", booking_ids=["B1", "H7"])
    require order
}
"""

AGENT = """
case "fix the readme" {
    expect mcp__fs__read_file(path="README.md") then
        mcp__fs__write_file(path="README.md", content=any)
    expect mcp__fs__list_directory(path?=".")
    expect github.search_issues(
        repo="acme/widgets", query ~ "readme", state in ["open", "all"], limit <= 50
    )
    expect github.create_issue(repo="acme/widgets", title=any, labels=["docs"], body?=any)
    expect github.add_comment(repo="acme/widgets", issue_number >= 1, body ~ "fixed")
    forbid mcp__fs__write_file(path ~ "^/etc/")
}
"""

SUPPORT = """
case "refund" {
    expect lookup_customer(email="jane@example.com")
    expect lookup_order(order_id="A-1001")
    expect refund_order(order_id="A-1001", amount = 19.99 +- 0.01, reason ~ "damaged")
    expect escalate_ticket(ticket_id=any, priority in ["high", "urgent"])
    expect send_email(to="jane@example.com", subject=any, meta={"priority": 2, ...})
    forbid delete_user
    forbid refund_order(amount > 100)
}
"""


def test_catalogue_declares_every_example_tool_with_its_arguments() -> None:
    """Every tool the example specs use is declared, with exactly the listed parameters."""
    catalogue = load_catalogue(CATALOGUE)
    assert catalogue.format == "openai"
    assert set(catalogue.names) == set(EXAMPLE_TOOLS)
    for name, arguments in EXAMPLE_TOOLS.items():
        tool = catalogue.get(name)
        assert tool is not None and tool.description
        assert set(tool.parameters["properties"]) == arguments, name
        assert tool.parameters["additionalProperties"] is False


@pytest.mark.parametrize(
    "text", [WEATHER, TRAVEL, AGENT, SUPPORT], ids=["weather", "travel", "agent", "support"]
)
def test_example_like_specs_lint_clean(text: str) -> None:
    """Spec snippets like the project's examples raise nothing against specs/tools.json."""
    assert check_spec(spec_of(text), load_catalogue(CATALOGUE)) == []


@pytest.mark.parametrize(
    ("statement", "code"),
    [
        ('expect get_weather(unit="kelvin")', "T502"),
        ("expect get_weather(days=15)", "T502"),
        ("expect search_flights(passengers=0)", "T502"),
        ('expect search_flights(from="Berlin")', "T502"),
        ('expect github.create_issue(repo="widgets")', "T502"),
        ('expect github.search_issues(state="merged")', "T502"),
        ("expect refund_order(amount < 0)", "T502"),
        ('expect escalate_ticket(priority="p1")', "T502"),
        ('expect send_email(meta={"prio": 1, ...})', "T501"),
        ('expect send_confirmation(booking_ids="B1")', "T502"),
        ('expect github.add_comment(issue_number ~ "1")', "T503"),
        ('expect mcp__fs__read_file(file="README.md")', "T501"),
        ("expect mcp__fs__read", "T500"),
    ],
)
def test_example_catalogue_catches_mistakes(statement: str, code: str) -> None:
    """The example schemas are strict enough to catch realistic mistakes."""
    [diagnostic] = check_spec(spec_of(statement), load_catalogue(CATALOGUE))
    assert diagnostic.code == code
