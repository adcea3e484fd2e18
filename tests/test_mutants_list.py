"""bench/mutants.json stays true as the code moves: every mutation's original text is in its
file exactly once, every mutation names tests that exist, and every row of the rules table in
docs/architecture.md that has code has mutants (bench/mutants.py runs them)."""

from __future__ import annotations

import re
from pathlib import Path

from bench.mutants import MUTATIONS, check, load

ROOT = Path(__file__).resolve().parent.parent


def test_every_mutation_applies_to_the_code_as_it_is() -> None:
    mutations = load(MUTATIONS)
    assert len(mutations) >= 60
    assert check(mutations, ROOT) == []
    assert len({m.id for m in mutations}) == len(mutations)
    assert all(m.original != m.replacement and m.tests for m in mutations)
    assert all((ROOT / t.split("::")[0]).is_file() for m in mutations for t in m.tests)


def test_every_rule_with_code_has_mutants_named_in_the_rules_table() -> None:
    table = (ROOT / "docs" / "architecture.md").read_text().split("## The engine rules")[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    named = [re.findall(r"`([a-z-]+)-\*`", row) for row in rows[1:]]
    rules = {m.rule for m in load(MUTATIONS)}
    assert {r for found in named for r in found} == rules
    assert all(found or "not built" in row for found, row in zip(named, rows[1:], strict=True))
