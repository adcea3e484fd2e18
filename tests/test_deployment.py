"""docker-compose.yml and the Dockerfile, checked statically.

No Docker daemon runs here, so nothing is built or started: Compose validates its file
(`config` needs no daemon), the Dockerfile language server's validator (npm `dockerfile-utils`)
checks the Dockerfile, and these tests hold both files to what operations rely on (a non-root user, a readiness health check, Neo4j 5 community with a
volume, memory settings and a health check, configuration only through settings that exist).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from gateway.configuration import env_names
from gateway.settings import Settings
from tests import gitrepo, system_tools

ROOT = Path(__file__).resolve().parent.parent
_DEFAULTED = re.compile(r"\$\{([A-Z0-9_]+):-([^}]*)\}")


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def _interpolate(value: object) -> str:
    """Compose's `${NAME:-default}` with nothing set in the environment."""
    return _DEFAULTED.sub(lambda m: m.group(2), str(value))


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text()
    logical, pending = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#"):
            continue
        pending += " " + stripped.removesuffix("\\").strip() if pending else stripped.rstrip("\\")
        if not stripped.endswith("\\"):
            logical.append(pending.strip())
            pending = ""
    assert not pending, "the Dockerfile ends inside a continued line"
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in logical]


def _final_stage() -> list[tuple[str, str]]:
    instructions = _instructions()
    last_from = max(i for i, (op, _) in enumerate(instructions) if op == "FROM")
    return instructions[last_from:]


def _env(arguments: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in shlex.split(arguments) if "=" in part)


def test_dockerfile_runs_the_gateway_as_a_non_root_user() -> None:
    stage = _final_stage()
    assert stage[0][1].startswith("python:3.11")
    users = [args.split(":")[0] for op, args in stage if op == "USER"]
    assert users and users[-1] not in {"root", "0"}
    # Nothing runs as root after the switch, and the user exists before it.
    after_user = stage[[op for op, _ in stage].index("USER") :]
    assert not any(op == "RUN" for op, _ in after_user)
    assert any(op == "RUN" and "useradd" in args and users[-1] in args for op, args in stage)
    entry = dict(stage)
    assert "fabric" in entry["ENTRYPOINT"] and "serve" in entry["CMD"]


def test_dockerfile_health_check_probes_readyz_on_the_configured_port() -> None:
    stage = _final_stage()
    (check,) = [args for op, args in stage if op == "HEALTHCHECK"]
    assert "/readyz" in check and "FABRIC_PORT" in check
    assert re.search(r"--interval=\d+s", check) and re.search(r"--timeout=\d+s", check)
    env: dict[str, str] = {}
    for op, args in stage:
        if op == "ENV":
            env.update(_env(args))
    exposed = [args for op, args in stage if op == "EXPOSE"]
    assert exposed == [env["FABRIC_PORT"]]
    assert env["FABRIC_HOST"] == "0.0.0.0"  # inside a container, on purpose


def test_dockerfile_configuration_names_exist_and_sources_are_copied() -> None:
    known = set(env_names())
    env: dict[str, str] = {}
    for op, args in _instructions():
        if op == "ENV":
            env.update(_env(args))
        if op == "COPY" and not args.startswith("--from"):
            *sources, _ = shlex.split(args)
            for source in sources:
                assert (ROOT / source).exists(), f"COPY {source}: no such path"
    fabric = {k: v for k, v in env.items() if k.startswith("FABRIC_")}
    assert set(fabric) <= known, set(fabric) - known
    Settings(**{k.removeprefix("FABRIC_").lower(): v for k, v in fabric.items()})
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "fabric-data"} <= set(ignored)


def test_compose_runs_neo4j_5_community_with_volume_memory_and_health_check() -> None:
    neo4j = _compose()["services"]["neo4j"]
    assert re.fullmatch(r"neo4j:5(\.[0-9.]+)?-community", neo4j["image"])
    volumes = _compose()["volumes"]
    data = [v for v in neo4j["volumes"] if v.split(":")[1] == "/data"]
    assert data and data[0].split(":")[0] in volumes, "the database lives on a named volume"
    env = {k: _interpolate(v) for k, v in neo4j["environment"].items()}
    for setting in ("heap_initial__size", "heap_max__size", "pagecache_size"):
        assert env[f"NEO4J_server_memory_{setting}"].endswith(("m", "M", "g", "G"))
    assert neo4j["deploy"]["resources"]["limits"]["memory"]
    user, password = env["NEO4J_AUTH"].split("/", 1)
    assert user == "neo4j" and len(password) >= 8  # Neo4j 5 refuses shorter passwords
    check = neo4j["healthcheck"]
    assert "cypher-shell" in " ".join(check["test"]) and check["retries"] >= 3
    for port in neo4j["ports"]:
        assert port.startswith("127.0.0.1:"), "publish the database on loopback only"


def test_compose_gateway_is_built_here_and_configured_through_settings() -> None:
    services = _compose()["services"]
    gateway = services["gateway"]
    assert gateway["build"] == "." and (ROOT / "Dockerfile").exists()
    assert gateway["depends_on"]["neo4j"]["condition"] == "service_healthy"
    env = {k: _interpolate(v) for k, v in gateway["environment"].items()}
    fabric = {k: v for k, v in env.items() if k.startswith("FABRIC_")}
    assert set(fabric) <= set(env_names()), set(fabric) - set(env_names())
    settings = Settings(**{k.removeprefix("FABRIC_").lower(): v for k, v in fabric.items()})
    scheme, _, rest = settings.graph_uri.partition("://")
    assert scheme in {"bolt", "neo4j"} and rest.split(":")[0] == "neo4j", settings.graph_uri
    # The gateway's Neo4j password is the one the database was given.
    neo4j_auth = _interpolate(services["neo4j"]["environment"]["NEO4J_AUTH"])
    assert settings.neo4j_password is not None
    assert neo4j_auth == f"{settings.neo4j_user}/{settings.neo4j_password.get_secret_value()}"
    assert str(settings.port) in gateway["ports"][0].split(":")[-1]


def _compose_command() -> list[str]:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    if legacy:
        return [legacy]
    system_tools.missing("compose", "Docker Compose (`docker compose` or `docker-compose`)")
    raise AssertionError("unreachable")


def test_compose_itself_accepts_the_file() -> None:
    """Compose's own validation (schema, types, interpolation), which needs no daemon."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NEO4J_", "FABRIC_", "OTEL_"))}
    result = subprocess.run(
        [*_compose_command(), "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)
    assert set(resolved["services"]) == {"neo4j", "gateway"}
    assert resolved["services"]["gateway"]["environment"]["FABRIC_GRAPH_URI"] == "bolt://neo4j:7687"
    # A pass-through variable unset in the shell stays unset (null), never an empty string.
    assert resolved["services"]["gateway"]["environment"].get("OTEL_EXPORTER_OTLP_ENDPOINT") is None


LINTER = ROOT / "tests" / "docker" / "node_modules" / ".bin" / "dockerfile-utils"


def _lint(path: Path) -> subprocess.CompletedProcess[str]:
    system_tools.node()
    if not LINTER.exists():
        pytest.fail("dockerfile-utils is missing: .ci/deps installs it "
                    "(npm ci --prefix tests/docker)")
    return subprocess.run([str(LINTER), "lint", str(path)], capture_output=True, text=True,
                          timeout=120)


def test_dockerfile_passes_the_dockerfile_validator(tmp_path: Path) -> None:
    result = _lint(ROOT / "Dockerfile")
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout
    # The validator is not a no-op: a misspelt health check flag is an error.
    broken = tmp_path / "Dockerfile"
    broken.write_text("FROM python:3.11-slim\nHEALTHCHECK --intervall=5s CMD true\n")
    refused = _lint(broken)
    assert refused.returncode != 0 and "Unknown flag: intervall" in refused.stdout


def test_the_image_has_git_for_the_git_import() -> None:
    """`fabric import git` runs git: the final stage installs it (as root, before the user
    switch), without recommended packages, and leaves no package lists behind."""
    stage = _final_stage()
    user_at = [op for op, _ in stage].index("USER")
    installs = [args for op, args in stage[:user_at] if op == "RUN" and "apt-get install" in args]
    assert installs, "the final stage installs no system package (git)"
    (install,) = installs
    words = shlex.split(install.replace("&&", " && "))
    packages = words[words.index("install") + 1 : words.index("&&", words.index("install"))]
    assert [p for p in packages if not p.startswith("-")] == ["git"]
    assert "--no-install-recommends" in packages and "-y" in packages
    assert "apt-get update" in install and "rm -rf /var/lib/apt/lists/*" in install


def _docker() -> str:
    docker = shutil.which("docker")
    if docker is None:
        pytest.skip("no docker command here: this test builds the image and runs it")
    if subprocess.run([docker, "info"], capture_output=True, timeout=60).returncode != 0:
        pytest.skip("no Docker daemon answers here (`docker info` fails): this test builds "
                    "the image and runs `fabric import git` in it")
    return docker


def test_fabric_import_git_runs_inside_the_built_image(tmp_path: Path) -> None:
    """Where a Docker daemon runs: the image is built and imports a repository mounted into
    it, as docs/git-import.md shows (its own user, the mounted path trusted)."""
    docker = _docker()
    repo = gitrepo.build(tmp_path / "shop")
    tag = f"context-fabric-gateway-test:{os.getpid()}"
    built = subprocess.run([docker, "build", "-q", "-t", tag, str(ROOT)], capture_output=True,
                           text=True, timeout=1800)  # fmt: skip
    assert built.returncode == 0, built.stderr
    try:
        ran = subprocess.run(
            [docker, "run", "--rm", "-v", f"{repo.path}:/repo:ro",
             "-e", "GIT_CONFIG_COUNT=1", "-e", "GIT_CONFIG_KEY_0=safe.directory",
             "-e", "GIT_CONFIG_VALUE_0=/repo",
             tag, "import", "git", "/repo", "--org", "acme"],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert ran.returncode == 0, ran.stderr
        summary = json.loads(ran.stdout.strip().splitlines()[-1])
        assert summary["org"] == "acme" and summary["commits"] > 0 and summary["invalid"] == 0
    finally:
        subprocess.run([docker, "image", "rm", "-f", tag], capture_output=True, timeout=120)
