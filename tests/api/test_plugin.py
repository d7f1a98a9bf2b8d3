"""The pytest plugin on temporary projects: spec cases as items, explanations, inactivity."""

import pytest

pytest_plugins = ["pytester"]

SPEC = """
case "berlin" {
    expect get_weather(city="Berlin")
}

case "paris" {
    expect get_weather(city="Paris")
    forbid delete_user
}
"""

LOG = "\n".join(
    [
        '{"id": "berlin", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]}',
        '{"id": "paris", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Lyon"}},'
        ' {"name": "delete_user", "arguments": {"id": 7}}]}',
    ]
)


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A project with one spec file and one log."""
    pytester.makefile(".expect", weather=SPEC)
    pytester.makefile(".jsonl", runs=LOG)
    return pytester


def test_cases_become_passing_and_failing_items(project: pytest.Pytester) -> None:
    """Each case is an item named <file>::<case>; the failing one shows the explanation."""
    result = project.runpytest("--toolexpect-specs", "weather.expect", "--toolexpect-log", "runs.jsonl", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*weather.expect::berlin PASSED*",
            "*weather.expect::paris FAILED*",
            '*case "paris" failed: accuracy 0.00*',
            '*city: expected "Paris", got "Lyon"*',
            "*forbidden delete_user was called [[]weather.expect:7:12]*",
            "*at #2 delete_user(id=7)*",
        ]
    )
    assert "pytest_plugin.py" not in result.stdout.str()


def test_folder_of_specs_and_missing_sample(project: pytest.Pytester) -> None:
    """A folder is searched for specs; a case without a sample fails with the reason."""
    project.mkdir("specs")
    (project.path / "specs" / "extra.expect").write_text('case "tokyo" { expect f }\n', encoding="utf-8")
    result = project.runpytest("--toolexpect-specs", "specs", "--toolexpect-log", "runs.jsonl", "-v")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*extra.expect::tokyo FAILED*", '*no recorded sample for case "tokyo"*'])


def test_invalid_spec_is_a_collection_error(project: pytest.Pytester) -> None:
    """A spec that does not parse is a collection error showing its diagnostics."""
    project.makefile(".expect", bad='expect get_weather(city="Berlin"\n')
    result = project.runpytest("--toolexpect-specs", "bad.expect", "--toolexpect-log", "runs.jsonl")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*error[[]P102]*", '*1 | expect get_weather(city="Berlin"*'])


def test_inactive_without_options(project: pytest.Pytester) -> None:
    """Without the options no item comes from the specs."""
    project.makepyfile(test_plain="def test_one():\n    assert True\n")
    result = project.runpytest("-v")
    result.assert_outcomes(passed=1)
    assert "weather.expect" not in result.stdout.str()


def test_specs_without_log_is_a_usage_error(project: pytest.Pytester) -> None:
    """--toolexpect-specs without --toolexpect-log stops with a usage error."""
    result = project.runpytest("--toolexpect-specs", "weather.expect")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*must be given together*"])


def test_tool_calls_fixture_in_user_tests(pytester: pytest.Pytester) -> None:
    """A user test gets a fresh recording and a failing assert shows the explanation."""
    pytester.makepyfile(
        test_agent="""
import toolexpect

@toolexpect.tool
def get_weather(city: str) -> str:
    return "sunny"

def test_first(tool_calls):
    get_weather("Paris")
    toolexpect.assert_tool_calls(tool_calls, 'expect get_weather(city="Berlin")')

def test_second(tool_calls):
    assert tool_calls.calls == []
"""
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*ToolCallAssertionError*", '*city: expected "Berlin", got "Paris"*'])
    assert "api.py" not in result.stdout.str()


def test_unused_samples_are_listed(project: pytest.Pytester) -> None:
    """A sample no case claims is listed in the toolexpect summary section."""
    (project.path / "runs.jsonl").write_text(LOG + '\n{"id": "tokyo", "tool_calls": []}\n', encoding="utf-8")
    result = project.runpytest("--toolexpect-specs", "weather.expect", "--toolexpect-log", "runs.jsonl")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        ["*toolexpect*", '*1 unused samples with id "tokyo" (no case has this name)*']
    )


def test_unreadable_log_fails_items_with_reason(project: pytest.Pytester) -> None:
    """A log that cannot be read fails each item with the reader's diagnostic."""
    result = project.runpytest("--toolexpect-specs", "weather.expect", "--toolexpect-log", "missing.jsonl")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*cannot read the recorded log:*"])
