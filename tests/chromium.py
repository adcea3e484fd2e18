"""Headless Chromium driven by selenium, for the browser tests (GraphiQL, the dashboard).

Chromium is found on PATH (or FABRIC_TEST_CHROMIUM); without it a test fails where
`.ci/deps` installs it and is skipped elsewhere, saying how to enable it
(tests/system_tools.py).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests import system_tools

# Without the background-networking flags chromium keeps dialling Google on a closed network.
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)


@contextmanager
def browser(width: int = 1400, height: int = 900, logs: bool = False) -> Iterator[Any]:
    """A selenium driver of a fresh Chromium profile. logs: keep the console and the network
    (DevTools) logs, read with driver.get_log("browser") and driver.get_log("performance")."""
    from selenium import webdriver
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    binary, chromedriver = system_tools.chromium()
    profile = tempfile.mkdtemp(prefix="fabric-chromium-")
    options = Options()
    options.binary_location = binary
    for flag in (*FLAGS, f"--window-size={width},{height}", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if logs:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    try:
        # Without a chromedriver on PATH, Selenium Manager looks for (or fetches) one.
        driver = webdriver.Chrome(options=options, service=Service(chromedriver))
    except WebDriverException as exc:
        shutil.rmtree(profile, ignore_errors=True)
        system_tools.missing("chromium", f"a chromedriver for {binary} ({exc.msg})")
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
