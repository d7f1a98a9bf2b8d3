"""The pytest plugin's options: one value per flag, repeatable, ini options, [tool.toolexpect]."""

import pytest

pytest_plugins = ["pytester"]

SPEC = 'case "berlin" {\n    expect get_weather(city="Berlin")\n}\n'
OTHER_SPEC = 'case "paris" {\n    expect get_weather(city="Paris")\n}\n'
BERLIN = '{"id": "berlin", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Berlin"}}]}\n'
PARIS = '{"id": "paris", "tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}]}\n'


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """specs/weather.expect, runs/berlin.jsonl, runs/paris.jsonl and tests/test_x.py."""
    for name, text in {
        "specs/weather.expect": SPEC,
        "more/paris.expect": OTHER_SPEC,
        "runs/berlin.jsonl": BERLIN,
        "runs/paris.jsonl": PARIS,
        "tests/test_x.py": "def test_x():\n    assert True\n",
    }.items():
        path = pytester.path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return pytester


def test_a_test_path_after_the_flags_stays_a_test_path(project: pytest.Pytester) -> None:
    """`--toolexpect-specs specs/ --toolexpect-log run.jsonl tests/test_x.py` runs tests/test_x.py."""
    result = project.runpytest(
        "--toolexpect-specs", "specs/", "--toolexpect-log", "runs/berlin.jsonl", "tests/test_x.py", "-v"
    )
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines_random(
        ["*tests/test_x.py::test_x PASSED*", "*weather.expect::berlin PASSED*"]
    )


def test_each_flag_repeats_for_more_values(project: pytest.Pytester) -> None:
    """Specs and logs given by repeating the flags are all used."""
    result = project.runpytest(
        "--toolexpect-specs", "specs",
        "--toolexpect-specs", "more/paris.expect",
        "--toolexpect-log", "runs/berlin.jsonl",
        "--toolexpect-log", "runs/paris.jsonl",
        "-v", "-p", "no:cacheprovider", "tests",
    )  # fmt: skip
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines_random(["*weather.expect::berlin PASSED*", "*paris.expect::paris PASSED*"])


def test_ini_options_need_no_flags(project: pytest.Pytester) -> None:
    """toolexpect_specs and toolexpect_logs in the ini file make the case items, relative to it."""
    project.makeini(
        "[pytest]\n"
        "toolexpect_specs = specs more/paris.expect\n"
        "toolexpect_logs = runs/berlin.jsonl runs/paris.jsonl\n"
    )
    result = project.runpytest("-v", "tests")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines_random(["*weather.expect::berlin PASSED*", "*paris.expect::paris PASSED*"])


def test_the_flags_win_over_the_ini_options(project: pytest.Pytester) -> None:
    """A flag replaces its ini option (here lists in pyproject.toml): only the log given on the
    command line is read."""
    project.makepyprojecttoml(
        '[tool.pytest.ini_options]\ntoolexpect_specs = ["specs", "more"]\n'
        'toolexpect_logs = ["runs/berlin.jsonl"]\n'
    )
    result = project.runpytest("--toolexpect-log", "runs/paris.jsonl", "-v", "tests")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(['*no recorded sample for case "berlin"*'])


def test_tool_toolexpect_settings_are_read_too(project: pytest.Pytester) -> None:
    """specs and logs of [tool.toolexpect] in pyproject.toml make the case items."""
    project.makepyprojecttoml('[tool.toolexpect]\nspecs = ["specs"]\nlogs = ["runs/berlin.jsonl"]\n')
    result = project.runpytest("-v", "tests")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*weather.expect::berlin PASSED*"])


def test_specs_alone_in_tool_toolexpect_leave_the_plugin_inactive(project: pytest.Pytester) -> None:
    """specs in [tool.toolexpect] without logs (set for lint) add no items and are no error."""
    project.makepyprojecttoml('[tool.toolexpect]\nspecs = ["specs"]\n')
    result = project.runpytest("-v", "tests")
    result.assert_outcomes(passed=1)
    assert "weather.expect" not in result.stdout.str()


def test_a_flag_without_its_partner_is_a_usage_error(project: pytest.Pytester) -> None:
    """--toolexpect-log without any specs stops with a usage error that names the ways to give them."""
    result = project.runpytest("--toolexpect-log", "runs/berlin.jsonl", "tests")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*toolexpect_specs and toolexpect_logs in the ini file*"])


def test_log_format_of_tool_toolexpect_is_used(project: pytest.Pytester) -> None:
    """log-format in [tool.toolexpect] forces the format the logs are read in, as for score."""
    project.makepyprojecttoml('[tool.toolexpect]\nlog-format = "anthropic"\n')
    result = project.runpytest(
        "--toolexpect-specs", "specs", "--toolexpect-log", "runs/berlin.jsonl", "tests"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*cannot read the recorded log*", "*R402*"])


def test_a_repeated_case_name_and_log_are_warnings(project: pytest.Pytester) -> None:
    """A case name in two spec files, and one log given twice, are warned about in the summary."""
    (project.path / "more" / "berlin.expect").write_text(SPEC, encoding="utf-8")
    result = project.runpytest(
        "--toolexpect-specs", "specs", "--toolexpect-specs", "more/berlin.expect",
        "--toolexpect-log", "runs/berlin.jsonl", "--toolexpect-log", "./runs/berlin.jsonl", "tests",
    )  # fmt: skip
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(
        [
            '*warning: case "berlin" is in both specs/weather.expect and more/berlin.expect*',
            "*warning: the log ./runs/berlin.jsonl is given twice (as runs/berlin.jsonl); it is read once*",
        ]
    )


def test_an_unknown_tool_toolexpect_key_is_a_usage_error(project: pytest.Pytester) -> None:
    """A typo in [tool.toolexpect] (``speks``) stops pytest with the key, its line and the closest
    setting, rather than leaving the plugin inactive in silence."""
    project.makepyprojecttoml('[tool.toolexpect]\nspeks = ["specs"]\nlogs = ["runs/berlin.jsonl"]\n')
    result = project.runpytest("tests")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*pyproject.toml:2: [[]tool.toolexpect] has no setting 'speks'; did you mean 'specs'?"]
    )


@pytest.mark.parametrize(
    ("ini", "line"),
    [
        (
            "[pytest]\ntoolexpect_spec = specs\ntoolexpect_logs = runs/berlin.jsonl\n",
            "*tox.ini: 'toolexpect_spec' is not an ini option of the toolexpect plugin; "
            "did you mean 'toolexpect_specs'?",
        ),
        (
            "[pytest]\ntoolexpect-logs = runs/berlin.jsonl\n",
            "*tox.ini: 'toolexpect-logs' is not an ini option of the toolexpect plugin; "
            "did you mean 'toolexpect_logs'?",
        ),
    ],
)
def test_an_unknown_toolexpect_ini_option_is_a_usage_error(
    project: pytest.Pytester, ini: str, line: str
) -> None:
    """An ini option that starts with toolexpect and is not the plugin's is a usage error naming
    the closest option (pytest alone would only warn, and the items would be missing)."""
    project.makefile(".ini", tox=ini)
    result = project.runpytest("tests")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([line])


def test_an_unknown_toolexpect_option_of_pyproject_is_a_usage_error(project: pytest.Pytester) -> None:
    """The same for [tool.pytest.ini_options] of pyproject.toml."""
    project.makepyprojecttoml('[tool.pytest.ini_options]\ntoolexpect_log = ["runs/berlin.jsonl"]\n')
    result = project.runpytest("tests")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*'toolexpect_log' is not an ini option*; did you mean 'toolexpect_logs'?"])
