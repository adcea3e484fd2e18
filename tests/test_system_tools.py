"""What a test does when a tool from outside Python is missing: fail where .ci/deps installs
it, skip elsewhere with the command that enables it; and where Chromium is looked for."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from tests import system_tools


def _fake(directory: Path, name: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.mark.parametrize("name", system_tools.CHROMIUM_NAMES)
def test_chromium_is_found_under_each_usual_name_on_path(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    browser = _fake(tmp_path / "bin", name)
    driver = _fake(tmp_path / "bin", "chromedriver")
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.delenv("FABRIC_TEST_CHROMIUM", raising=False)
    monkeypatch.delenv("FABRIC_TEST_CHROMEDRIVER", raising=False)
    assert system_tools.chromium() == (str(browser), str(driver))


def test_settings_name_the_browser_and_driver(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setenv("FABRIC_TEST_CHROMIUM", "/opt/chrome/chrome")
    monkeypatch.setenv("FABRIC_TEST_CHROMEDRIVER", "/opt/chrome/chromedriver")
    assert system_tools.chromium() == ("/opt/chrome/chrome", "/opt/chrome/chromedriver")


def test_a_missing_tool_skips_with_the_command_or_fails_where_deps_installs_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.delenv("FABRIC_TEST_CHROMIUM", raising=False)
    monkeypatch.setattr(system_tools, "MAC_CHROMES", ())
    monkeypatch.setenv("FABRIC_TEST_TOOLS", "skip")
    with pytest.raises(pytest.skip.Exception) as skipped:
        system_tools.node()
    reason = str(skipped.value)
    assert "Node.js" in reason and ".ci/deps && python3 -m pytest" in reason
    assert any(hint in reason for hint in system_tools.HINTS["node"].values())
    monkeypatch.setenv("FABRIC_TEST_TOOLS", "require")
    with pytest.raises(pytest.fail.Exception, match=r"did `\.ci/deps` run"):
        system_tools.chromium()
    # By default the machine decides, as .ci/deps does: root on a Debian-like system fails.
    monkeypatch.setenv("FABRIC_TEST_TOOLS", "auto")
    expected = pytest.fail.Exception if system_tools.deps_installs_system_packages() \
        else pytest.skip.Exception
    with pytest.raises(expected):
        system_tools.git()


def test_deps_and_the_tests_agree_on_where_system_packages_are_installed() -> None:
    """.ci/deps installs with apt-get exactly where tests/system_tools.py fails instead of
    skipping: Linux, root, apt-get, a Debian-like /etc/os-release."""
    deps = (Path(__file__).resolve().parent.parent / ".ci" / "deps").read_text()
    for condition in ('"$(uname -s)" = Linux', '"$(id -u)" -eq 0', "command -v apt-get",
                      "debian' /etc/os-release"):
        assert condition in deps
    assert "sudo" not in deps  # never escalates on its own
