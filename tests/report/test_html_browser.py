"""The HTML report in a real headless browser: Debian's Chromium, driven by Selenium.

Chromium and its driver come from Debian (``.ci/setup-browser``). Without them these tests
fail in CI (``CI`` set) and are skipped elsewhere, with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from report_support import AFTER, BEFORE, SPEC, record, write_log

from toolexpect.cli import main
from toolexpect.report.html import render_html

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
INJECTED = "<script>window.pwned=1</script>"
EXTRA = 'case "small talk" {\n    require no tool calls\n}\n'


def _require_browser() -> None:
    """Fail (in CI) or skip (elsewhere) when Chromium or its driver is not installed."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]
    if not missing:
        return
    reason = (
        f"Chromium is not installed ({', '.join(missing)} missing): run .ci/setup-browser "
        "(as root; it runs apt-get install -y chromium chromium-driver)"
    )
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    """One headless Chromium for the module, with the browser console recorded."""
    _require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not fetch anything
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1000"):  # fmt: skip
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield browser
    finally:
        browser.quit()


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The ``file://`` address of the report of the run after, with the run before as baseline."""
    folder = tmp_path_factory.mktemp("html")
    (folder / "weather.expect").write_text(SPEC, encoding="utf-8")
    (folder / "extra.expect").write_text(EXTRA, encoding="utf-8")
    specs = [str(folder / "weather.expect"), str(folder / "extra.expect")]
    chat = record("small talk")
    for name, lines in (("before", BEFORE), ("after", AFTER)):
        log = write_log(folder, f"{name}.jsonl", [*lines, chat])
        fmt = "json" if name == "before" else "html"
        extra = ["--baseline", str(folder / "before.json")] if name == "after" else []
        out = folder / f"{name}.{fmt}"
        assert main(["score", *specs, "--log", str(log), "--format", fmt, "-o", str(out), *extra]) in (0, 1)
    return (folder / "after.html").as_uri()


@pytest.fixture
def loaded(driver: Any, page: str) -> Any:
    """The page, freshly loaded, with the console emptied of earlier pages' entries."""
    driver.get_log("browser")
    driver.get(page)
    return driver


_ROWS = """return Array.from(document.querySelectorAll("#case-rows tr.case-row"),
    (row) => Array.from(row.cells).slice(0, 3).map((cell) => cell.textContent));"""


def _rows(driver: Any) -> list[tuple[str, str, str]]:
    """(status, file name, case) of each case row shown."""
    return [(status, Path(file).name, case) for status, file, case in driver.execute_script(_ROWS)]


def _choose(driver: Any, select_id: str, value: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, select_id)).select_by_value(value)


def test_the_page_loads_without_console_errors(loaded: Any) -> None:
    """Every case is drawn and the browser console holds no error or warning."""
    assert len(_rows(loaded)) == 6
    problems = [entry for entry in loaded.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]
    assert problems == []
    assert "showing 6 of 6 matching cases" in loaded.find_element("id", "shown").text


def test_filters_by_status_file_and_change(loaded: Any, page: str) -> None:
    """The status, spec file and change filters keep only the matching rows."""
    _choose(loaded, "filter-status", "fail")
    assert [(status, case) for status, _, case in _rows(loaded)] == [("fail", "breaks")]
    _choose(loaded, "filter-status", "")
    extra = str(Path(page.removeprefix("file://")).parent / "extra.expect")
    _choose(loaded, "filter-file", extra)
    assert _rows(loaded) == [("pass", "extra.expect", "small talk")]
    _choose(loaded, "filter-file", "")
    _choose(loaded, "filter-change", "worse")
    assert sorted(case for _, _, case in _rows(loaded)) == ["drifts", "flaky"]


def test_sorting_by_accuracy(loaded: Any) -> None:
    """A click on the accuracy header sorts by it, a second click reverses the order."""
    from selenium.webdriver.common.by import By

    header = loaded.find_element(By.CSS_SELECTOR, 'th[data-sort="score"]')
    header.click()
    assert _rows(loaded)[0][2] == "breaks"
    assert header.get_attribute("aria-sort") == "ascending"
    header.click()
    assert _rows(loaded)[0][2] != "breaks"
    assert header.get_attribute("aria-sort") == "descending"


def test_a_failing_case_expands_and_log_script_stays_text(loaded: Any) -> None:
    """Expanding the failing case shows the expectation's source line and the closest call
    argument by argument; the ``<script>`` recorded in its argument is shown, not run."""
    from selenium.webdriver.common.by import By

    button = loaded.find_element(By.XPATH, "//button[contains(@class, 'expand') and text()='breaks']")
    button.click()
    detail = loaded.find_element(By.CSS_SELECTOR, "#case-rows tr.detail")
    text = detail.text
    assert 'expect get_weather(city="Rome")' in text
    assert "Closest call #1: 0 of 1 argument match" in text
    got = detail.find_element(By.CSS_SELECTOR, "table.closest td.got")
    assert got.text == f'"{INJECTED}"'
    assert loaded.execute_script("return typeof window.pwned") == "undefined"
    running = "//script[not(@type='application/json') and contains(., 'pwned')]"
    assert loaded.find_elements(By.XPATH, running) == []
    button = loaded.find_element(By.XPATH, "//button[contains(@class, 'expand') and text()='breaks']")
    assert button.get_attribute("aria-expanded") == "true"
    button.click()
    assert loaded.find_elements(By.CSS_SELECTOR, "#case-rows tr.detail") == []


def test_a_failing_run_of_several_expands(loaded: Any) -> None:
    """A case of several runs lists its failing run by number."""
    from selenium.webdriver.common.by import By

    loaded.find_element(By.XPATH, "//button[contains(@class, 'expand') and text()='flaky']").click()
    detail = loaded.find_element(By.CSS_SELECTOR, "#case-rows tr.detail")
    assert "Run 5" in detail.text
    assert 'expect get_weather(city="Lima")' in detail.text


def test_many_cases_are_drawn_a_page_at_a_time(driver: Any, tmp_path: Path) -> None:
    """450 cases: 200 rows at first, then 200 more a click, then the rest; the page says which
    failing runs it left out."""
    from selenium.webdriver.common.by import By

    case = {"file": "a.expect", "status": "pass", "score": 1.0, "matched": 1, "expected": 1,
            "precision": 1.0, "f1": 1.0, "failures": []}  # fmt: skip
    failure = {"kind": "unexpected", "message": "unexpected call", "line": 1, "column": 1, "details": {}}
    flaky = {
        **case,
        "case": "flaky",
        "status": "fail",
        "pass_rate": 0.0,
        "runs": [{**case, "status": "fail", "failures": [failure]}] * 7,
    }
    document = {"cases": [flaky, *({**case, "case": f"case {n}"} for n in range(449))],
                "summary": {"cases": 450, "passed": 449, "failed": 1, "errors": 0}}  # fmt: skip
    target = tmp_path / "many.html"
    target.write_text(render_html(document), encoding="utf-8")
    driver.get(target.as_uri())
    counts = []
    more = driver.find_element(By.ID, "show-more")
    while True:
        counts.append(len(driver.execute_script(_ROWS)))
        if driver.execute_script('return document.getElementById("show-more").hidden'):
            break
        more.click()
    assert counts == [200, 400, 450]
    note = driver.find_element(By.ID, "cut-note").text
    assert note.startswith("Not embedded, to keep this page small: 2 failing runs beyond 5 per case.")


def test_the_change_column_names_calls_that_appeared(loaded: Any) -> None:
    """With a baseline, a case's change cell lists the tools called now and not before, and its
    lower precision; the recorded text is shown as text."""
    from selenium.webdriver.common.by import By

    _choose(loaded, "filter-change", "worse")
    row = loaded.find_element(By.XPATH, "//tr[contains(@class, 'case-row')][.//button[text()='flaky']]")
    lines = [item.text for item in row.find_elements(By.CSS_SELECTOR, "td.change ul.calls-changed li")]
    assert "called now, not before: send_sms (1 call in 1 run)" in lines
    assert any(line.startswith("precision 1.00 → ") for line in lines)
    assert loaded.find_elements(By.ID, "tools-unknown") == []
