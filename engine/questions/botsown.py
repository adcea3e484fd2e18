"""The bots' own part of a count or of who committed ("how many bot commits in attrs in
2025?", "how many bots committed to requests?", "which bots committed to click this year?"),
each bot named with its commits, from the contributors' facts (engine/providers/bots.py lists
the bots among everyone who changed the subject, not only its top people). Which people are
bots is engine.domain.bots: a name ending with "[bot]" or whose last word is "Bot".

It asked which bot was meant, "bot" read as a name (attrs' 2025: dependabot[bot] 7 and
pre-commit-ci[bot] 6 offered apart, Step Security Bot 0 beside them), where git counts the
bots' 13 commits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import number, when


def bots_own(
    facts: Sequence[Fact], names: Mapping[str, str], scope: str, window: Window, people: bool
) -> str:
    """The bots' commits (or, with `people`, how many bots), in all and each; over several
    subjects each one's, as a commit or a bot may count in several of them."""
    found = [f for f in facts if f.kind is FactKind.ACTIVE_CONTRIBUTORS]
    if any(k.startswith("person:") for k in names):
        return (
            f"{scope}: the bots' own part is counted of repositories and modules, not of a "
            "person; ask about a repository or module."
        )
    each = [(names.get(f.subject_key, f.subject_key), f) for f in found]
    if len(each) <= 1:
        fact = each[0][1] if each else None
        return _one(fact, scope, window, people)
    parts = [_one(f, name, window, people) for name, f in each]
    return " ".join(parts) + " A bot or a commit may count in several of them: not added up."


def _one(fact: Fact | None, scope: str, window: Window, people: bool) -> str:
    if fact is None or not number(fact.value.get("bots")):
        counted = "bots" if people else "commit(s) by bots"
        return f"No bot changed {scope} {when(window)}: 0 {counted}."
    bots = number(fact.value.get("bots"))
    commits = number(fact.value.get("bot_commits"))
    named = [str(n) for n in _listed(fact.value.get("bot_names"))]
    counts = [number(c) for c in _listed(fact.value.get("bot_commits_each"))]
    shown = ", ".join(f"{n} ({c} commit(s))" for n, c in zip(named, counts, strict=False))
    more = f" and {bots - len(named)} more" if bots > len(named) else ""
    if people:
        return f"{bots} bot(s) changed {scope} {when(window)}: {shown}{more}."
    return f"{commits} commit(s) by bots to {scope} {when(window)}: {shown}{more}."


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []
