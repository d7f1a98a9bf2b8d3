"""Checking specs and recorded calls against catalogues of every format."""

from __future__ import annotations

import pytest

from toolexpect.calls import ToolCall
from toolexpect.catalogue import catalogue_from_data, load_catalogue
from toolexpect.diagnostics import Severity
from toolexpect.toolcheck import CallFinding, check_calls, check_spec

from .tools_support import FIXTURES, spec_of

ALL_FORMATS = [
    "openai.json",
    "responses.json",
    "anthropic.yaml",
    "mcp.json",
    "mcp_jsonrpc.json",
    "weather_tools.py",
]

# One statement per line; the right-hand side is the set of codes expected on that line.
FINDINGS_IN_EVERY_FORMAT = [
    ('expect get_weather(city="Berlin", unit="celsius", days=3)', set()),
    ("expect get_weather", set()),
    ('expect get_weather(city ~ "^Ber", unit in ["celsius", "fahrenheit"], days >= 2)', set()),
    ('expect send_email(to="a@example.com", meta={"priority": 1, ...})', set()),
    ('expect get_wether(city="Berlin")', {"T500"}),
    ('expect get_weather(cty="Berlin")', {"T501"}),
    ('expect send_email(to="a@example.com", bcc="b@example.com")', {"T501"}),
    ('expect get_weather(unit="kelvin")', {"T502"}),
    ("expect get_weather(city=42)", {"T502"}),
    ('expect get_weather(days ~ "1")', {"T503"}),
    ("expect get_weather(city >= 3)", {"T503"}),
    ("expect get_weather(city = 1.0 +- 0.5)", {"T503"}),
    ('expect get_weather(unit in ["celsius", "K"])', {"T503"}),
    ('expect get_weather(city={"name": "Berlin", ...})', {"T503"}),
    ('expect send_email(meta={"priority": "high", ...})', {"T502"}),
    ('expect get_weather(unit? = "kelvin")', {"T502"}),
    ('expect get_weather(unit != "celsius")', set()),
    ('expect get_weather(unit ~ "^kel")', {"T502"}),
    ('expect get_weather(unit ~ "ahr")', set()),
    ("expect get_weather(unit != 42)", {"T502"}),
    ('expect get_weather(unit? != "kelvin")', {"T502"}),
    ('expect send_email(meta != {"priority": "high", ...})', {"T502"}),
    ("expect get_weather(not hallucinated)", set()),
    ("forbid drop_database", {"T504"}),
    ('forbid get_weather(cty="x")', {"T501"}),
    ("forbid get_weather", set()),
]


def _codes_by_line(diagnostics: list) -> dict[int, set[str]]:  # type: ignore[type-arg]
    found: dict[int, set[str]] = {}
    for diagnostic in diagnostics:
        assert diagnostic.span is not None, diagnostic
        found.setdefault(diagnostic.span.line, set()).add(diagnostic.code)
    return found


@pytest.mark.parametrize("fixture", ALL_FORMATS)
def test_each_finding_from_each_format(fixture: str) -> None:
    """Every check fires at the line of its statement, whatever format the catalogue has."""
    catalogue = load_catalogue(str(FIXTURES / fixture))
    text = "\n".join(line for line, _ in FINDINGS_IN_EVERY_FORMAT) + "\n"
    found = _codes_by_line(check_spec(spec_of(text), catalogue))
    expected = {n: codes for n, (_, codes) in enumerate(FINDINGS_IN_EVERY_FORMAT, 1) if codes}
    assert found == expected


def _check(text: str, fixture: str = "openai.json") -> list:  # type: ignore[type-arg]
    return check_spec(spec_of(text, path="s.expect"), load_catalogue(str(FIXTURES / fixture)))


def test_unknown_tool_suggests_the_closest_name_at_the_call_span() -> None:
    """T500 names the tool, suggests a close catalogue name and sits at the call."""
    [diagnostic] = _check('expect get_wether(city="Berlin")')
    assert diagnostic.code == "T500"
    assert diagnostic.message == "tool 'get_wether' is not in the catalogue"
    assert diagnostic.help == "did you mean 'get_weather'?"
    assert diagnostic.path == "s.expect"
    assert diagnostic.span is not None
    assert (diagnostic.span.column, diagnostic.span.end_column) == (8, 33)


def test_unknown_argument_names_the_parameters_at_the_argument_span() -> None:
    """T501 lists what the tool takes, suggests the near miss and sits at the argument."""
    [diagnostic] = _check('expect get_weather(city="B", cty="Berlin")')
    assert diagnostic.code == "T501"
    assert diagnostic.message == "tool 'get_weather' has no argument 'cty'"
    assert diagnostic.help == "did you mean 'city'? it takes: city, unit, days"
    assert diagnostic.span is not None
    assert (diagnostic.span.column, diagnostic.span.end_column) == (30, 42)


def test_schema_rejection_gives_the_schemas_reason() -> None:
    """T502 quotes jsonschema's own reason."""
    [diagnostic] = _check('expect get_weather(unit="kelvin")')
    assert diagnostic.code == "T502"
    assert "'kelvin' is not one of ['celsius', 'fahrenheit']" in diagnostic.message


def test_eq_value_out_of_range_is_t502() -> None:
    """An integer above the schema's maximum is rejected."""
    [diagnostic] = _check("expect get_weather(days=20)")
    assert diagnostic.code == "T502"
    assert "20 is greater than the maximum of 14" in diagnostic.message


def test_top_level_float_equal_to_an_integer_fits_an_integer_parameter() -> None:
    """``days=3.0`` matches an actual 3, and the integer schema accepts it."""
    assert _check("expect get_weather(days=3.0)") == []


def test_boolean_is_not_an_integer() -> None:
    """``days=true`` breaks an integer schema."""
    [diagnostic] = _check("expect get_weather(days=true)")
    assert diagnostic.code == "T502"


@pytest.mark.parametrize(
    ("matcher", "limit"),
    [
        ("days >= 15", "maximum is 14"),
        ("days > 14", "maximum is 14"),
        ("days < 1", "minimum is 1"),
        ("days <= 0", "minimum is 1"),
        ("days = 30 +- 1", "maximum is 14"),
    ],
)
def test_comparison_no_allowed_value_can_satisfy_is_t502(matcher: str, limit: str) -> None:
    """A bound outside the parameter's range can never be met."""
    [diagnostic] = _check(f"expect get_weather({matcher})")
    assert diagnostic.code == "T502"
    assert limit in diagnostic.message


@pytest.mark.parametrize("matcher", ["days >= 14", "days > 13", "days < 2", "days = 15 +- 1"])
def test_comparison_at_the_edge_of_the_range_is_fine(matcher: str) -> None:
    """Bounds that some allowed value meets are not reported."""
    assert _check(f"expect get_weather({matcher})") == []


def test_ne_value_the_schema_rejects_is_t502() -> None:
    """A ``!=`` value no valid call can hold makes the condition always true: T502 says so."""
    [diagnostic] = _check("expect get_weather(unit != 42)")
    assert diagnostic.code == "T502"
    assert diagnostic.message == (
        "`!=` value 42 of argument 'unit' of 'get_weather' breaks its schema, so every valid"
        " call meets the condition: 42 is not of type 'string'"
    )
    assert diagnostic.help == "compare with a value the tool's schema allows, or drop the condition"
    assert diagnostic.span is not None
    assert (diagnostic.span.column, diagnostic.span.end_column) == (20, 30)


def test_ne_value_beyond_the_range_and_inside_it() -> None:
    """``!=`` values are checked against bounds as ``=`` values are; an allowed one is fine."""
    [diagnostic] = _check("expect get_weather(days >= 2, days != 20)")
    assert diagnostic.code == "T502"
    assert "20 is greater than the maximum of 14" in diagnostic.message
    assert _check("expect get_weather(days >= 2, days != 3)") == []


def test_both_bounds_of_a_range_are_checked() -> None:
    """A range outside the parameter's bounds is reported at whichever bound cannot be met."""
    [above] = _check("expect get_weather(20 <= days <= 30)")
    assert above.code == "T502"
    assert "`days >= 20`, but the maximum is 14" in above.message
    [below] = _check("expect get_weather(-5 < days < 1)")
    assert below.code == "T502"
    assert "`days < 1`, but the minimum is 1" in below.message
    assert _check("expect get_weather(0 <= days <= 3)") == []


_LEVELS = [
    {
        "name": "t",
        "input_schema": {
            "type": "object",
            "properties": {
                "level": {"type": "integer", "enum": [1, 2, 3]},
                "ratio": {"const": 0.5},
            },
        },
    }
]


@pytest.mark.parametrize(
    ("matcher", "allowed"),
    [
        ("level > 3", "1, 2, 3"),
        ("5 <= level <= 9", "1, 2, 3"),
        ("level = 5 +- 1", "1, 2, 3"),
        ("ratio < 0.5", "0.5"),
        ("ratio = 0.7 +- 0.1", "0.5"),
    ],
)
def test_comparison_no_listed_number_satisfies_is_t502(matcher: str, allowed: str) -> None:
    """A bound or tolerance that no number of the ``enum`` or ``const`` meets is T502."""
    [diagnostic] = check_spec(spec_of(f"expect t({matcher})"), catalogue_from_data(_LEVELS))
    assert diagnostic.code == "T502"
    assert f"but the numbers the schema allows are {allowed}" in diagnostic.message


@pytest.mark.parametrize(
    "matcher", ["level >= 3", "1 < level < 3", "level = 4 +- 1", "ratio <= 0.5", "ratio = 0.6 +- 0.1"]
)
def test_comparison_some_listed_number_satisfies_is_fine(matcher: str) -> None:
    """A comparison that one listed number meets (compared exactly) is not reported."""
    assert check_spec(spec_of(f"expect t({matcher})"), catalogue_from_data(_LEVELS)) == []


_PICKS = [
    {
        "name": "t",
        "input_schema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "enum": ["Berlin", "Paris", "Rome"]},
                "mode": {"const": "fast"},
                "mixed": {"enum": ["a1", 1, None, True]},
                "maybe": {"anyOf": [{"enum": ["red", "blue"]}, {"type": "null"}]},
                "picked": {"anyOf": [{"$ref": "#/$defs/Colour"}, {"const": "green"}]},
                "open": {"anyOf": [{"enum": ["red"]}, {"type": "string"}]},
                "free": {"type": "string"},
                "many": {"enum": ["a", "b", "c", "d", "e", "f", "g"]},
            },
            "$defs": {"Colour": {"enum": ["red", "blue"]}},
        },
    }
]


def _picks(matcher: str) -> list:  # type: ignore[type-arg]
    return check_spec(spec_of(f"expect t({matcher})"), catalogue_from_data(_PICKS))


@pytest.mark.parametrize(
    "matcher",
    [
        'city ~ "^Ber"',
        'city ~ "erl"',  # found anywhere, as re.search would
        'city ~ "(?i)^ROME$"',  # RE2's flags, as the matcher compiles the pattern
        'city? ~ "Par"',
        'mode ~ "^f"',
        'mixed ~ "^a"',
        'maybe ~ "^bl"',
        'picked ~ "een$"',
        'picked ~ "^r"',
        'open ~ "^x"',  # the branch without a list allows any string
        'free ~ "^x"',
        'city ~ "("',  # not RE2: lint's L302, not a catalogue finding
    ],
)
def test_pattern_some_listed_string_matches_is_fine(matcher: str) -> None:
    """A ``~`` that some string of the ``enum``/``const`` matches, or that meets no list, passes."""
    assert _picks(matcher) == []


@pytest.mark.parametrize(
    ("matcher", "miss"),
    [
        ('city ~ "^ber"', "matches none of the 3 strings the schema lists"),
        ('city ~ "^Berlin.$"', "matches none of the 3 strings the schema lists"),
        ('city? ~ "Madrid"', "matches none of the 3 strings the schema lists"),
        ('mode ~ "slow"', "does not match the one string the schema lists"),
        ('mixed ~ "^1$"', "does not match the one string the schema lists"),
        ('mixed ~ "true|null"', "does not match the one string the schema lists"),
        ('maybe ~ "green"', "matches none of the 2 strings the schema lists"),
        ('picked ~ "^x"', "matches none of the 3 strings the schema lists"),
    ],
)
def test_pattern_no_listed_string_matches_is_t502(matcher: str, miss: str) -> None:
    """A ``~`` that no string member of the ``enum``/``const`` matches is T502 at the argument;
    members that are not strings never match."""
    [diagnostic] = _picks(matcher)
    assert diagnostic.code == "T502"
    assert diagnostic.message.endswith(miss)
    assert diagnostic.span is not None
    assert (diagnostic.span.line, diagnostic.span.column) == (1, 10)
    assert (diagnostic.span.end_line, diagnostic.span.end_column) == (1, 10 + len(matcher))


def test_pattern_finding_names_the_pattern_and_a_few_allowed_values() -> None:
    """The message quotes the matcher; the help lists the first allowed values, then a count."""
    [city] = _picks('city ~ "^Ber$"')
    assert city.message == (
        "no value the schema allows for argument 'city' of 't' satisfies this matcher:"
        ' `city ~ "^Ber$"` matches none of the 3 strings the schema lists'
    )
    assert city.help == ('write a pattern that matches one of the allowed values: "Berlin", "Paris", "Rome"')
    [many] = _picks('many ~ "z"')
    assert many.help == (
        'write a pattern that matches one of the allowed values: "a", "b", "c", "d", "e", … (2 more)'
    )


def test_type_mismatch_messages_name_the_parameter_type() -> None:
    """T503 says which matcher needs which type and what the parameter takes."""
    [regex] = _check('expect get_weather(days ~ "1")')
    assert regex.message == "`~` matches only strings, but argument 'days' of 'get_weather' takes integer"
    [compare] = _check("expect get_weather(unit >= 1)")
    assert compare.message == "`>=` matches only numbers, but argument 'unit' of 'get_weather' takes string"


def test_each_rejected_in_choice_is_reported() -> None:
    """Every ``in`` choice the schema rejects is one T503."""
    found = _check('expect get_weather(unit in ["K", "celsius", "F"])')
    assert [d.code for d in found] == ["T503", "T503"]
    assert '"K"' in found[0].message and '"F"' in found[1].message


def test_forbid_of_an_unknown_tool_is_a_warning() -> None:
    """T504 is a warning, not an error."""
    [diagnostic] = _check("forbid drop_database")
    assert diagnostic.code == "T504"
    assert diagnostic.severity is Severity.WARNING


def test_partial_object_keys_are_checked_against_the_nested_schema() -> None:
    """An unknown key of a partial object is T501 naming the nested properties."""
    [diagnostic] = _check('expect send_email(meta={"prio": 1, ...})')
    assert diagnostic.code == "T501"
    assert diagnostic.message == "argument 'meta' of 'send_email' has no key 'prio' in its object schema"
    assert diagnostic.help == "did you mean 'priority'? it takes: priority"


def test_list_value_items_are_checked() -> None:
    """A list literal whose item breaks ``items`` is rejected."""
    [diagnostic] = _check('expect send_email(cc=["a@example.com", 5])')
    assert diagnostic.code == "T502"
    assert "5 is not of type 'string'" in diagnostic.message


def test_open_schema_allows_undeclared_arguments() -> None:
    """With ``additionalProperties: true`` an undeclared argument is not reported."""
    catalogue = catalogue_from_data(
        [
            {
                "name": "f",
                "input_schema": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "additionalProperties": True,
                },
            }
        ]
    )
    assert check_spec(spec_of('expect f(a="x", b=1)'), catalogue) == []
    [diagnostic] = check_spec(spec_of("expect f(a=1)"), catalogue)
    assert diagnostic.code == "T502"


def test_schema_without_properties_says_nothing_about_names() -> None:
    """An object schema without ``properties`` lets any argument through."""
    catalogue = catalogue_from_data([{"name": "f", "input_schema": {"type": "object"}}])
    assert check_spec(spec_of('expect f(anything="x")'), catalogue) == []


def test_additional_properties_schema_checks_undeclared_values() -> None:
    """``additionalProperties`` given as a schema validates undeclared arguments."""
    catalogue = catalogue_from_data(
        [
            {
                "name": "f",
                "input_schema": {"type": "object", "additionalProperties": {"type": "integer"}},
            }
        ]
    )
    assert check_spec(spec_of("expect f(x=1)"), catalogue) == []
    [diagnostic] = check_spec(spec_of('expect f(x="1")'), catalogue)
    assert diagnostic.code == "T502"


def test_nullable_and_any_of_types() -> None:
    """``nullable`` (OpenAPI style) and ``anyOf`` widen the types a matcher may need."""
    catalogue = catalogue_from_data(
        [
            {
                "name": "f",
                "input_schema": {
                    "type": "object",
                    "properties": {
                        "n": {"type": "string", "nullable": True},
                        "v": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    },
                },
            }
        ]
    )
    assert check_spec(spec_of('expect f(v ~ "x", v >= 1)'), catalogue) == []
    [diagnostic] = check_spec(spec_of("expect f(n >= 1)"), catalogue)
    assert diagnostic.code == "T503"
    assert "takes null or string" in diagnostic.message


# -- $ref / $defs -------------------------------------------------------------------------


def test_refs_resolve_for_values_types_and_nested_keys() -> None:
    """``$ref`` into ``$defs`` is followed for validation, matcher types and partial keys."""
    found = _check(
        "\n".join(
            [
                'expect create_ticket(title="t", priority="high", tags=["low"])',
                'expect create_ticket(priority="critical")',
                "expect create_ticket(priority >= 1)",
                'expect create_ticket(customer={"id": "c1", ...})',
                'expect create_ticket(customer={"name": "x", ...})',
                'expect create_ticket(customer={"tier": 9, ...})',
                'expect create_ticket(tags=["low", "someday"])',
                'expect create_ticket(customer={"id": "c1", "tier": 2})',
            ]
        ),
        "refs.json",
    )
    assert [(d.span.line, d.code) for d in found if d.span] == [
        (2, "T502"),
        (3, "T503"),
        (5, "T501"),
        (6, "T502"),
        (7, "T502"),
    ]
    assert "'critical' is not one of ['low', 'normal', 'high']" in found[0].message
    assert "9 is greater than the maximum of 3" in found[3].message


def test_draft7_schema_is_honoured() -> None:
    """A draft-07 schema with ``definitions`` resolves and validates."""
    found = _check(
        "expect set_level(level=3, note=null)\n"
        "expect set_level(level=9)\n"
        'expect set_level(level ~ "1")\n'
        "expect set_level(lvl=1)\n",
        "draft7.json",
    )
    assert [(d.span.line, d.code) for d in found if d.span] == [
        (2, "T502"),
        (3, "T503"),
        (4, "T501"),
    ]


# -- check_calls --------------------------------------------------------------------------


@pytest.mark.parametrize("fixture", ALL_FORMATS)
def test_check_calls_flags_schema_breaking_calls(fixture: str) -> None:
    """Unknown tools, hallucinated arguments, wrong types and missing arguments are found."""
    catalogue = load_catalogue(str(FIXTURES / fixture))
    calls = [
        ToolCall("get_weather", {"city": "Berlin", "unit": "celsius"}),
        ToolCall("get_weather", {"city": "Berlin", "country": "DE"}),
        ToolCall("get_weather", {"city": 5}),
        ToolCall("send_email", {"cc": ["a@example.com"]}),
        ToolCall("get_wether", {"city": "Berlin"}),
        ToolCall("get_weather", {}, raw_arguments="{city", valid_json=False),
    ]
    findings = check_calls(calls, catalogue)
    assert [(f.index, f.tool, f.argument) for f in findings] == [
        (1, "get_weather", "country"),
        (2, "get_weather", "city"),
        (3, "send_email", "to"),
        (4, "get_wether", None),
        (5, "get_weather", None),
    ]
    assert "5 is not of type 'string'" in findings[1].message
    assert findings[2].message == "required argument 'to' is missing"
    assert findings[3].message == "tool 'get_wether' is not in the catalogue (did you mean 'get_weather'?)"


def test_check_calls_range_and_enum_errors() -> None:
    """A value outside the schema's range or enum is reported with jsonschema's reason."""
    catalogue = load_catalogue(str(FIXTURES / "openai.json"))
    findings = check_calls([ToolCall("get_weather", {"city": "Berlin", "days": 0, "unit": "K"})], catalogue)
    assert findings == [
        CallFinding(
            0,
            "get_weather",
            "days",
            "argument 'days' breaks its schema: 0 is less than the minimum of 1",
        ),
        CallFinding(
            0,
            "get_weather",
            "unit",
            "argument 'unit' breaks its schema: 'K' is not one of ['celsius', 'fahrenheit']",
        ),
    ]


def test_check_calls_ignores_provider_executed_tools_missing_from_the_catalogue() -> None:
    """A provider-executed call (web_search_call) is not a function of the catalogue."""
    catalogue = load_catalogue(str(FIXTURES / "openai.json"))
    assert check_calls([ToolCall("web_search", {}, kind="web_search_call")], catalogue) == []


def test_check_calls_with_refs() -> None:
    """Recorded calls are validated with ``$ref`` resolved."""
    catalogue = load_catalogue(str(FIXTURES / "refs.json"))
    findings = check_calls(
        [ToolCall("create_ticket", {"title": "t", "customer": {"id": "c", "tier": 7}})], catalogue
    )
    assert [(f.argument, "7 is greater than the maximum of 3" in f.message) for f in findings] == [
        ("customer", True)
    ]


def test_looping_references_do_not_crash_the_checks() -> None:
    """A schema whose ``$ref`` points back at itself yields no findings and no crash."""
    catalogue = catalogue_from_data(
        [
            {
                "name": "f",
                "input_schema": {
                    "type": "object",
                    "properties": {
                        "a": {"anyOf": [{"$ref": "#/properties/a"}]},
                        "b": {"$ref": "#/properties/b"},
                    },
                },
            }
        ]
    )
    spec = spec_of('expect f(a={"x": 1, ...}, a ~ "x", b=1)')
    assert check_spec(spec, catalogue) == []
    assert check_calls([ToolCall("f", {"a": 1, "b": 2})], catalogue) == []
