"""The shared real histories (../shared/data/*.bundle, beside the checkout; a worktree sits
one level deeper): where a bundle is, a clone of it, and its import into a new organisation
of the session's embedded FalkorDB. A test module needing one skips, naming it, when absent."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

_ROOT = Path(__file__).resolve().parents[1]


def bundle(name: str) -> Path:
    """`FABRIC_TEST_<NAME>_BUNDLE`, else ../shared/data/<name>.bundle above the checkout."""
    given = os.environ.get(f"FABRIC_TEST_{name.upper()}_BUNDLE")
    if given:
        return Path(given)
    for parent in _ROOT.parents:
        found = parent / "shared" / "data" / f"{name}.bundle"
        if found.exists():
            return found
    return Path(f"{name}.bundle")


def present(*names: str) -> pytest.MarkDecorator:
    """Skips a test module when one of the bundles is absent, naming it."""
    missing = [str(bundle(n)) for n in names if not bundle(n).exists()]
    return pytest.mark.skipif(bool(missing), reason=f"{', '.join(missing)} not present")


def clone(name: str, into: Path) -> Path:
    path = into / name
    subprocess.run(["git", "clone", "-q", str(bundle(name)), str(path)], check=True)
    return path


def git(path: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(path), *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8", "replace")
