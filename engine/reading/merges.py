"""Merge commits: the git import leaves them out (docs/git-import.md), and answers say so.

A commit count, a ranking by commits or a list of commits from git data counts the commits
that are not merges; `git log` without `--no-merges` counts more (Rowlando13: 6 commits in
2026 by the import, 128 by `git log`, 122 of them merges), and the newest commit `git log -1`
shows may be a merge. So such an answer states, once, that merges are not counted.

The question's own words about merges are read here (never as a name, never as unread):
"excluding merges", "without merges", "non-merge commits" ask what the import does, and the
answer says it is done; "including merges", "merges", "merged", "what did X merge" ask for
what is not recorded, and the answer says so in its judgment, never giving the merge-free
number as the answer. Only for git data: where pull requests are recorded, "merged" is
about them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.domain.facts import Fact, FactKind
from engine.domain.models import SourceRecordKind
from engine.reading.vocabulary import Intent

if TYPE_CHECKING:  # engine.reading.references reads MERGE_WORDS: no import back at run time
    from engine.ports import OrgGraph
    from engine.reading.references import Token

MERGE_WORDS = frozenset({"merge", "merges", "merged", "merging"})
_WITHOUT = frozenset({"excluding", "exclude", "without", "except", "ignoring", "ignore",
                      "minus", "no", "non", "not", "skipping", "skip"})  # fmt: skip
_WITH = frozenset({"including", "include", "with", "plus", "counting", "incl"})
WITHOUT, WITH, ASKED = "without", "with", "asked"
COUNTED = frozenset({FactKind.COMMIT_ACTIVITY, FactKind.ACTIVE_CONTRIBUTORS, FactKind.CHANGES})
LEFT_OUT = (
    "Merge commits are not counted: the git import records only commits that are not "
    "merges (as git log --no-merges counts them)."
)
# Which of git's line counts the import's is (docs/git-import.md): with its rename detection
# a moved file's edited lines count, not its whole text (click's 2025: 19,091 lines where
# --no-renames counts 25,655), so the answer says so.
LINES = (
    "Lines are counted as git log --no-merges --numstat counts them with git's rename "
    "detection (-M, its default): a renamed file counts the lines edited in it, not its whole "
    "text as removed and added."
)


@dataclass(frozen=True, slots=True)
class Merges:
    """How the question spoke of merges: `mode` WITHOUT, WITH or ASKED, `phrase` verbatim."""

    mode: str
    phrase: str


def read_merges(
    text: str, tokens: list[Token], readable: list[Token] | None = None
) -> Merges | None:
    """The first merge word of the free tokens and the word qualifying it ("excluding
    merges", "non-merge"), consumed: neither is a name nor unread. `readable`: a copy of
    the tokens (by position) the words are taken in too (engine/reading/claims.py)."""
    found = _merges(text, tokens)
    if found is None:
        return None
    merges, taken = found
    for i in taken:
        tokens[i].free = False
        if readable is not None and i < len(readable):
            readable[i].free = False  # "except merges" is read here, never a negation
    return merges


def _merges(text: str, tokens: list[Token]) -> tuple[Merges, list[int]] | None:
    """The merges read, and the positions of the tokens reading them."""
    for i, token in enumerate(tokens):
        words = token.norm.split()  # "non-merge" is one token
        if not (token.free and MERGE_WORDS.intersection(words)):
            continue
        inner = words[: next(j for j, w in enumerate(words) if w in MERGE_WORDS)]
        if inner and inner[-1] in _WITHOUT | _WITH:
            mode = WITHOUT if inner[-1] in _WITHOUT else WITH
            return Merges(mode, text[token.start : token.end]), [i]
        before = tokens[i - 1] if i else None
        if before is None or not before.free or before.norm not in _WITHOUT | _WITH:
            return Merges(ASKED, text[token.start : token.end]), [i]
        negated = i > 1 and tokens[i - 2].norm in {"not", "without", "no"}
        mode = WITHOUT if before.norm in _WITHOUT or negated else WITH
        first = i - 2 if negated else i - 1
        return Merges(mode, text[tokens[first].start : token.end]), list(range(first, i + 1))
    return None


def from_git(facts: Sequence[Fact]) -> bool:
    """Commits counted from a git import (its record keys say so)."""
    return any(
        f.kind in COUNTED and any(e.startswith(("metric_rollup:git:", "commit:git:"))
                                  for e in f.evidence)
        for f in facts
    )  # fmt: skip


def _git_lines(facts: Sequence[Fact]) -> bool:
    """Lines changed counted from a git import's daily rollups."""
    return any(
        f.kind is FactKind.CHURN and any(e.startswith("metric_rollup:git:") for e in f.evidence)
        for f in facts
    )


async def merge_notes(
    graph: OrgGraph, intent: Intent, merges: Merges | None, facts: Sequence[Fact]
) -> tuple[tuple[str, ...], str | None]:
    """The limitations and, when merges were asked for, the judgment (None: the answer
    stands)."""
    git = from_git(facts)
    lines = (LINES,) if _git_lines(facts) else ()
    if merges is None or merges.mode == WITHOUT:
        counting = intent in {Intent.COUNT, Intent.WHO, Intent.WHAT_CHANGED}
        return ((LEFT_OUT,) if git and counting else ()) + lines, None
    if not git:
        held = await graph.record_kinds()
        if SourceRecordKind.COMMIT not in held or SourceRecordKind.PULL_REQUEST in held:
            return (), None  # "merged" pull requests, or nothing git here
    said = (
        f'Merge commits are not imported (the git import records only commits that are not '
        f'merges), so "{merges.phrase}" cannot be answered: no count or list here includes '
        "merges."
    )
    judgment = (
        f'Merge commits are not recorded here, so "{merges.phrase}" cannot be answered from '
        "this organisation's data."
    )
    return (said,), judgment
