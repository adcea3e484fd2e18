"""docs/architecture.md names every engine module, each under its folder, and engine/ keeps
few entries at its top level: a module no one can find is one nobody reuses."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def _section(folder: str) -> str:
    """The doc's lines from the `**engine/FOLDER/**` heading to the next heading."""
    match = re.search(rf"^\*\*engine/{re.escape(folder)}/\*\*.*?(?=^\*\*|^## )", DOC, re.S | re.M)
    return match.group() if match else ""


def test_every_engine_module_is_listed_under_its_folder() -> None:
    missing = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if path.name == "__init__.py":
            continue
        folder = path.parent.relative_to(ROOT / "engine").as_posix()
        if f"`{path.name}`" not in _section(folder):
            missing.append(path.relative_to(ROOT).as_posix())
    assert missing == []


def test_engine_top_level_stays_small() -> None:
    entries = [p for p in (ROOT / "engine").iterdir() if p.name != "__pycache__"]
    assert len(entries) <= 12, sorted(p.name for p in entries)
