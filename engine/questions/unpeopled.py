"""A "who" question about subjects with no contributor records in the window, while other
records show them changing: a stated limitation, never "No one changed X".

People are ranked from contributor records alone (engine/questions/who.py). The demo's
payments-api has no contributor record over the last 90 days, yet 7 pull requests merged,
2 open and 3 commits: "who has driven changes to payments-api lately?" answered "No one
changed payments-api", a confident wrong answer. Here, when the contributor facts name
nobody, the subjects' pull requests and commits are read too (`Unpeopled.read`, only the
kinds the question did not read already); if any is recorded, the judgment says the people
are unknown and what activity there was, each figure a claimed fact.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from engine.domain.contract import ClaimedFact
from engine.domain.facts import Fact, FactKind
from engine.domain.models import StoredSubject
from engine.providers import Window
from engine.questions.base import (
    Asked,
    Case,
    Found,
    Question,
    Reader,
    claim_also,
    number,
    when,
)
from engine.questions.who import people
from engine.reading.vocabulary import Intent

# The activity that shows a subject changed, in the order the judgment says it.
OTHER = (FactKind.THROUGHPUT, FactKind.OPEN_PULL_REQUESTS, FactKind.COMMIT_ACTIVITY)


class Unpeopled(Question):
    """A question about people that no contributor record answers (the pipeline judged it:
    `unanswerable`): the activity it says instead, each figure claimed."""

    name = "unpeopled"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        """The subjects' pull requests and commits over the window, only the kinds in OTHER
        the question did not read already ("did anyone commit to X?" read X's commits, and
        reading them again said and claimed them twice), and the judgment they give."""
        if not wanted(asked.intent, asked.named, asked.facts, asked.asked):
            return None
        if await reader.unanswerable() is not None:  # that judgment stands
            return None
        have = {(f.kind, f.subject_key) for f in asked.facts}
        read = await reader.facts(asked.subjects, OTHER, asked.window)
        extra = tuple(replace(r, facts=tuple(f for f in r.facts if _new(f, have))) for r in read)
        facts = (*asked.facts, *(f for r in extra for f in r.facts))
        counted = counts_people(asked.intent, asked.asked)
        said = judgment(facts, asked.names, asked.window, counted, asked.wide)
        return Found(results=extra, unanswerable=said)

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        people_asked = case.intent == Intent.WHO or counts_people(case.intent, case.asked)
        return [] if case.answerable or not people_asked else claims(case.facts, claimed)


def _new(fact: Fact, have: set[tuple[FactKind, str]]) -> bool:
    return fact.kind in OTHER and (fact.kind, fact.subject_key) not in have


def counts_people(intent: Intent, asked: Sequence[FactKind]) -> bool:
    """ "how many people changed X?": a count of the people of the contributor records."""
    return intent == Intent.COUNT and tuple(asked) == (FactKind.ACTIVE_CONTRIBUTORS,)


def wanted(
    intent: Intent,
    subjects: Sequence[StoredSubject],
    facts: Sequence[Fact],
    asked: Sequence[FactKind] = (),
) -> bool:
    """A "who" question, or one counting people, about subjects other than people (named,
    or the organisation's repositories) whose contributor facts name nobody."""
    if (intent != Intent.WHO and not counts_people(intent, asked)) or not subjects:
        return False
    if all(s.key.startswith("person:") for s in subjects):
        return False
    return not people(facts)


def judgment(
    facts: Sequence[Fact],
    names: Mapping[str, str],
    window: Window,
    counted: bool = False,
    wide: bool = False,
) -> str | None:
    """The judgment when other activity is recorded (None: nothing is, and "No one changed"
    is true as far as the records go). `counted`: the question counts the people ("how many
    people changed payments-api lately?" said "No count was available"). Over the whole
    organisation (`wide`) the activity is said in all: "who changed anything this year?"
    said "No one changed the whole organisation" over the demo's 1,242 commits."""
    active = [k for k in names if _activity(facts, k)]
    if not active:
        return None
    asked, none = ("How many people", "counted") if counted else ("Who", "named")
    if wide:
        total = [sum(n) for n in zip(*(_figures(facts, k) for k in active), strict=True)]
        held = f"{len(active)} of its {len(names)} repositories"
        return (
            f"{asked} changed the whole organisation {when(window)} is not known here: no "
            f"contributor records of its repositories fall in that window, so no one is {none}."
            f" Other records show activity, in all over {held}: {_said(*total)}."
        )
    said = [f"{names[k]} had {_activity(facts, k)}" for k in active]
    scope = ", ".join(names.values())
    return (
        f"{asked} changed {scope} {when(window)} is not known here: no contributor records "
        f"of {scope} fall in that window, so no one is {none}. Other records show activity: "
        f"{'; '.join(said)}."
    )


def _figures(facts: Sequence[Fact], key: str) -> tuple[int, int, int]:
    """A subject's merged pull requests, commits and pull requests open at the end."""
    values = {f.kind: f.value for f in facts if f.subject_key == key and f.kind in OTHER}
    merged = number(values.get(FactKind.THROUGHPUT, {}).get("merged"))
    commits = number(values.get(FactKind.COMMIT_ACTIVITY, {}).get("commits"))
    opened = number(values.get(FactKind.OPEN_PULL_REQUESTS, {}).get("open"))
    return merged, commits, opened


def _activity(facts: Sequence[Fact], key: str) -> str:
    return _said(*_figures(facts, key))


def _said(merged: int, commits: int, opened: int) -> str:
    done = [f"{merged} merged pull request(s)"] * bool(merged) + [f"{commits} commit(s)"] * bool(
        commits
    )
    parts = [f"{' and '.join(done)} in that window"] if done else []
    if opened:
        parts.append(f"{opened} pull request(s) open at its end")
    return ", ".join(parts)


def claims(facts: Sequence[Fact], claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
    """The activity facts the judgment cites that no driver claimed (merged pull requests
    signal nothing unless they fell against the window before): each figure is claimed."""
    said = (f for f in facts if f.kind in OTHER and _activity([f], f.subject_key))
    return claim_also(said, claimed)
