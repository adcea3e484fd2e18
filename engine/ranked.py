"""Subjects ranked by how much they changed ("which modules changed the most?") are not
computed, and an answer says so instead of answering another question.

The stored records the engine could rank by count daily rollups as well as commits, so an
order from them need not be git's commit order; a cohort answer lists the most recently
active subjects (engine.unnamed), which is not a ranking by change either. So the question
ends with a stated limitation naming the phrase, and the questions that are computed.
People ranked by their changes ("who changed X the most?") are computed and not caught here.
"""

from __future__ import annotations

from engine.facts import FactKind
from engine.models import SubjectKind
from engine.vocabulary import CHANGE_KINDS, CHANGE_VERBS

_RANKED_KINDS = frozenset(
    {SubjectKind.MODULE, SubjectKind.REPOSITORY, SubjectKind.SERVICE, SubjectKind.PROJECT}
)
_FILES = frozenset({"file", "files"})
_CHANGE_WORDS = CHANGE_VERBS | {"changes", "commits", "commit", "active", "activity", "churn"}


def ranking_phrase(
    words: list[str], kinds: list[FactKind], kind_hint: SubjectKind | None
) -> str | None:
    """The phrase asking for subjects (not people) ranked by change, verbatim as normalised
    ("the most"), or None: "most" with a change word, about modules, repositories, services,
    projects or files, asking no fact other than changes."""
    if "most" not in words or not _CHANGE_WORDS.intersection(words):
        return None
    if not all(k in CHANGE_KINDS for k in kinds) or words[:1] == ["who"]:
        return None
    if kind_hint not in _RANKED_KINDS and not (kind_hint is None and _FILES.intersection(words)):
        return None
    at = words.index("most")
    return "the most" if at and words[at - 1] == "the" else "most"


def not_ranked(phrase: str) -> str:
    """The limitation a ranking question ends with."""
    return (
        f'"{phrase}": ranking modules, repositories or files by how much they changed is not '
        'computed. Ask about one of them instead: "what changed in X last quarter?", '
        '"how many commits to X last quarter?" or "who changed X?".'
    )
