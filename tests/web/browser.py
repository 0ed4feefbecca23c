"""Headless Chromium for the browser tests, and the screenshots they take.

Chromium and its driver come from Debian (``apt-get install chromium chromium-driver``, which
``.ci/run`` does); Selenium drives them. Without them the browser tests skip locally, saying
why, and fail under CI (``CI=true``), where they must run.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)


def find_chromium() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser and driver:
        return browser, driver
    return None


def require_chromium() -> tuple[str, str]:
    found = find_chromium()
    if found is None:
        why = ("chromium and chromedriver are not installed (Debian: apt-get install chromium "
               "chromium-driver)")
        if os.environ.get("CI"):
            pytest.fail(f"{why}: CI must run the browser tests")
        pytest.skip(why)
    return found


@contextmanager
def chromium(profile: Path, width: int = 1280, height: int = 900) -> Iterator[object]:
    """A headless Chromium with a fresh profile, driven by Selenium."""
    browser, driver_path = require_chromium()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    try:
        yield driver
    finally:
        driver.quit()


def full_page_screenshot(driver: object, path: Path, width: int, max_height: int) -> None:
    """The page at ``width`` pixels, as tall as its content (at most ``max_height``)."""
    height = driver.execute_script(  # type: ignore[attr-defined]
        "return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max_height, height + 120))  # type: ignore[attr-defined]
    time.sleep(0.2)
    path.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))  # type: ignore[attr-defined]
