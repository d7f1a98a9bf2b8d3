"""Take ``docs/html-report.png``: the example specs' HTML report in headless Chromium.

Run from the repository root after ``.ci/setup-browser``::

    .venv/bin/python scripts/html_report_screenshot.py

It scores ``specs/`` against ``specs/logs/run.jsonl`` with ``--format html`` (as the README
shows), opens the page, expands the failing case ``week in lisbon`` and saves the page.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from toolexpect.cli import main as toolexpect

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "docs" / "html-report.png"


def main() -> int:
    """Write the report, open it in Chromium, save the screenshot."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    os.environ.setdefault("SE_OFFLINE", "true")
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "report.html"
        toolexpect(["score", "specs/", "--log", "specs/logs/run.jsonl", "--format", "html", "-o", str(page)])
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                         "--window-size=1200,900", "--force-device-scale-factor=1"):  # fmt: skip
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
        try:
            driver.get(page.as_uri())
            driver.find_element(By.XPATH, "//button[text()='week in lisbon']").click()
            height = driver.execute_script("return document.documentElement.scrollHeight")
            frame = driver.execute_script("return window.outerHeight - window.innerHeight")
            driver.set_window_size(1200, height + frame)
            driver.execute_script("window.scrollTo(0, 0)")
            driver.save_screenshot(str(TARGET))
        finally:
            driver.quit()
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
