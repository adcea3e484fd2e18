"""The project's own rules, enforced as tests: layering, exported schema, lint, types."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_import_layering_contracts_hold() -> None:
    result = _run(shutil.which("lint-imports") or "lint-imports", "--no-cache")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" not in result.stdout.lower().replace("0 broken", "")


def test_engine_imports_no_driver_even_transitively() -> None:
    code = (
        "import sys, engine.domain.models, engine.domain.principal, engine.domain.errors;"
        "bad = [m for m in ('strawberry', 'starlette', 'neo4j', 'falkordb', 'redis') "
        "if m in sys.modules]; print(bad)"
    )
    result = _run(sys.executable, "-c", code)
    assert result.stdout.strip() == "[]", result.stderr


def test_schema_file_matches_the_code() -> None:
    from resolvers.schema import sdl

    exported = (ROOT / "schema.graphql").read_text()
    assert exported == sdl(), "schema.graphql is stale: run `fabric schema > schema.graphql`"


def test_federated_schema_file_matches_the_code() -> None:
    from resolvers.schema import federated_sdl

    exported = (ROOT / "schema.federated.graphql").read_text()
    assert exported == federated_sdl(), (
        "schema.federated.graphql is stale: run "
        "`fabric schema --federated > schema.federated.graphql`"
    )


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed")
def test_ruff_is_clean() -> None:
    result = _run("ruff", "check", "gateway", "resolvers", "engine", "graph", "sources", "tests", "bench")
    assert result.returncode == 0, result.stdout


@pytest.mark.skipif(shutil.which("mypy") is None, reason="mypy is not installed")
def test_mypy_strict_is_clean() -> None:
    result = _run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout[-5000:]


def test_no_module_imports_a_private_name_of_another() -> None:
    """A name with a leading underscore is its module's business: shared helpers go in a
    plainly named module (gateway/cli/common.py), never reached into (the CLI once imported
    `_settings` and `_with_store` of another module, which imported it back)."""
    import ast

    found = []
    for package in ("gateway", "engine", "graph", "resolvers", "sources"):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    private = [a.name for a in node.names if a.name.startswith("_")]
                    if private and node.module.split(".")[0] in (
                        "gateway", "resolvers", "engine", "graph", "sources"
                    ):
                        found.append(f"{path.relative_to(ROOT)}: {node.module} {private}")
    assert found == []
