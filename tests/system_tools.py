"""Tools from outside Python that some tests need (chromium, Node, Compose, git), and what a
test does when one is missing.

`.ci/deps` installs them with apt-get where it can: on a Debian-like machine when run as
root (as in CI). There a missing tool means the install step broke, so the test fails.
Anywhere else (macOS, a non-root shell, another distribution) the test is skipped, with the
reason and the command that would enable it; `FABRIC_TEST_TOOLS=require` makes every such
test fail instead, `FABRIC_TEST_TOOLS=skip` skips them even in CI.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

# The install hint for each tool, by platform.
HINTS = {
    "chromium": {
        "debian": "sudo apt-get install chromium chromium-driver",
        "darwin": "brew install --cask chromium && brew install --cask chromedriver",
        "other": "install Chromium or Google Chrome and a matching chromedriver",
    },
    "node": {
        "debian": "sudo apt-get install nodejs npm",
        "darwin": "brew install node",
        "other": "install Node.js 20+ (https://nodejs.org)",
    },
    "compose": {
        "debian": "sudo apt-get install docker-compose",
        "darwin": "brew install docker-compose",
        "other": "install Docker Compose",
    },
    "git": {"debian": "sudo apt-get install git", "darwin": "xcode-select --install",
            "other": "install git"},
    "registry": dict.fromkeys(
        ("debian", "darwin", "other"),
        "let this machine reach https://registry.npmjs.org (or set FABRIC_GRAPHIQL_REGISTRY "
        "to an npm mirror)",
    ),
}
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
MAC_CHROMES = (
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)


def debian_like() -> bool:
    try:
        release = Path("/etc/os-release").read_text()
    except OSError:
        return Path("/etc/debian_version").exists()
    fields = dict(line.split("=", 1) for line in release.splitlines() if "=" in line)
    ids = {fields.get("ID", "").strip('"'), *fields.get("ID_LIKE", "").strip('"').split()}
    return "debian" in ids


def deps_installs_system_packages() -> bool:
    """What `.ci/deps` decides too: apt-get, as root, on a Debian-like machine."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    return sys.platform == "linux" and root and debian_like() and shutil.which("apt-get") is not None


def _platform() -> str:
    if sys.platform == "darwin":
        return "darwin"
    return "debian" if sys.platform == "linux" and debian_like() else "other"


def missing(tool: str, what: str) -> None:
    """A test cannot run without `tool`: fail where .ci/deps installs it, else skip, saying
    how to enable it."""
    mode = os.environ.get("FABRIC_TEST_TOOLS", "auto")
    hint = HINTS[tool][_platform()]
    if mode == "require" or (mode != "skip" and deps_installs_system_packages()):
        pytest.fail(f"{what} is missing, on a machine where .ci/deps installs what the suite "
                    f"needs (Debian-like, root: CI); did `.ci/deps` run and succeed? ({hint})")
    pytest.skip(f"{what} is missing: to run this test, {hint}, then `.ci/deps && python3 -m pytest`")


def chromium() -> tuple[str, str | None]:
    """(browser, chromedriver or None for Selenium Manager to find one): FABRIC_TEST_CHROMIUM
    and FABRIC_TEST_CHROMEDRIVER when set, else the usual names on PATH."""
    browser = os.environ.get("FABRIC_TEST_CHROMIUM") or next(
        (found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None
    ) or next((p for p in MAC_CHROMES if sys.platform == "darwin" and Path(p).exists()), None)
    if browser is None:
        missing("chromium", "Chromium (chromium, chromium-browser or google-chrome on PATH, "
                            "or FABRIC_TEST_CHROMIUM)")
    assert browser is not None
    driver = os.environ.get("FABRIC_TEST_CHROMEDRIVER") or shutil.which("chromedriver")
    return browser, driver


def node() -> str:
    found = shutil.which("node")
    if found is None:
        missing("node", "Node.js 20+ (`node`)")
    assert found is not None
    return found


def git() -> str:
    found = shutil.which("git")
    if found is None:
        missing("git", "git")
    assert found is not None
    return found
