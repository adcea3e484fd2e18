"""A question naming no time that adds up or ranks what changed asks about the whole history
of what it names (issue 32): "how many commits has denuoweb authored in click?" means all of
denuoweb's commits to click (41 by git), not the last year's (25, said with "No time was
named"), and "who has contributed most to werkzeug's sansio package?" all its contributors.
Checkers asking as users do counted each default-year answer of such a question wrong.

The rule, in rows (`WHOLE`, `CHANGE_KINDS`): a count (commits, changes, lines, people), a
ranking ("most", "top") or a list of people ("who changed X?") over changes of code, with no
time named, covers the subjects' history ("who knows X best?" too: knowledge of X is
gathered over all of it, `KNOWING`): from their first recorded change (of the person's
part when one person's part is asked: engine.resolving.together) up to the request's time,
found in the store as "when was X first changed?" finds it (engine/questions/firstchange.py).
One answer covers at most MAX_RANGE (engine.resolving.questiontime): a history that fits is
answered over it and the answer says so; a longer one asks again as "ever" does (TooWide),
naming the history and offering the question "in the last 400 days", with the subjects'
receipts; a request allowing no clarification is refused as a phrase too wide is.

The documented default window (engine.answering.framing.LOOKBACK, with its "No time was
named" note) stays where the question's own words are about now or about recent changes:
status and health, "is X still maintained?", "who should review a change to X?" and "who
maintains X?" (someone working on it now), the bus factor (a knowledge silo), "what changed
in X?" and "what's new in X?" (a list of recent changes, newest first: the whole history of
an old module is not what it asks), and anything else that is no count, ranking or list of
people (intents outside `WHOLE`). Point questions need no window at all: "when did X last
change?" finds the last change at any age (engine/questions/lastchange.py), "when did X first
change?" the first (engine/questions/firstchange.py); both are outside the rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from engine.domain.errors import BadUserInput
from engine.domain.facts import FactKind
from engine.domain.models import StoredSubject, SubjectKind, to_ns
from engine.domain.timecontext import MAX_RANGE, EffectiveTime, iso, resolve_time
from engine.ports import OrgGraph, TimeSpan
from engine.questions.firstchange import first_change
from engine.questions.lastchange import Actor
from engine.reading.interpretation import Interpretation
from engine.reading.meaning import ASKER_NOTE, Unasked
from engine.reading.time.slots import Slot
from engine.reading.vocabulary import Intent
from engine.resolving.disclosures import Disclosures
from engine.resolving.questiontime import EARLIEST, NO_TIME, TooWide
from engine.resolving.together import Part

# What asks about the whole history when no time is named: counting ("how many commits,
# lines, people ..."), ranking ("which files changed most", "the top contributors") and
# listing the people who changed something ("who changed / contributed to / worked on X").
WHOLE = frozenset({Intent.COUNT, Intent.RANKED, Intent.WHO})
# ... of changes of code: a count of incidents or deploys keeps its window (their records are
# no history of changes), as does one asking the bus factor (a knowledge silo is a matter of
# now: its intent is a status).
CHANGE_KINDS = frozenset(
    {FactKind.COMMIT_ACTIVITY, FactKind.CHURN, FactKind.ACTIVE_CONTRIBUTORS, FactKind.CHANGES}
)
# Fact words asking about now (engine/reading/vocabulary.py reads them): who should review a
# change, who maintains X, who is active in it are a matter of the present (a reviewer is
# someone working on it these days), read over the default year (said); "the most active
# contributors" too.
ABOUT_NOW = frozenset(
    {"review", "reviews", "reviewer", "reviewers", "maintains", "maintain", "maintainer"}
    | {"maintainers", "active", "most active"}
)
# Words asking who knows X: knowledge of code is gathered over its whole history, so "who knows
# parser.py best?" is a question about all of it, as "who has contributed most to X?" is. Read
# over the default year it named four people with one commit each in click's parser.py where
# git gives David Lord 20 and Armin Ronacher 19 over its history (z37b): the experts gone. The
# whole history is answered when it fits in 400 days and asked again (the seed rule, with the
# last 400 days offered) when it does not; never a year presented as who knows it best.
KNOWING = frozenset({"knows", "know", "knew", "expert", "experts", "expertise"})
SUGGESTION = f"in the last {MAX_RANGE.days} days"


def whole_phrase(understood: Interpretation, wide: object) -> str | None:
    """The phrase naming the whole history ("ever", "of all time", "over its whole life",
    "since the beginning": everything before the request's time, too wide for one answer),
    None when the question names no such phrase. Beside a count, a ranking or a list of
    people it asks what no time named asks (`asks_whole`), so the 400-day rule decides on the
    subjects' own history: it was asked again for everything since 1970, whatever that history
    ("how many commits has src/requests/_types.py had over its lifetime?", 7 commits since
    2025-08, asked again for the last 400 days)."""
    if not isinstance(wide, TooWide) or wide.start != EARLIEST or understood.end is not None:
        return None  # "before Halloween 2026" names its end: asked again, as before
    return wide.phrase


def asks_whole(
    understood: Interpretation, effective: EffectiveTime, phrase: str | None = None
) -> bool:
    """Whether the question asks about the whole history of what it names: no time named
    (neither in its words nor by the request's own range) or only the whole history
    (`phrase`: whole_phrase), and a count, ranking or list of
    people over changes of code that is not a point question (the first or last change),
    names no fact word about now (ABOUT_NOW) nor asks whom to turn to ("who should I ask about
    X?") and does not end on words not computed ("who is David Lord?")."""
    named = bool(understood.time_not_understood or understood.as_of)
    if phrase is None:
        named = named or bool(understood.time_expression or understood.start)
    return (
        not named
        and (effective.axis.value != "range" or phrase is not None)
        and understood.intent in WHOLE
        and bool(understood.fact_kinds)
        and set(understood.fact_kinds) <= CHANGE_KINDS
        and not (understood.asks_first or understood.asks_last or understood.asks_when)
        and not any(word.casefold() in ABOUT_NOW for word, _ in understood.fact_words)
        and not any(u.ends for u in understood.unasked)  # ended naming what is not computed
        # "who should I ask about X?", "who can help with X?": whom to turn to now; "who
        # knows X?" asks who knows it (KNOWING), over its history
        and not any(_asker(u) for u in understood.unasked)
    )


def _asker(unasked: Unasked) -> bool:
    """A phrase asking whom to turn to now ("should I ask", "can help"), not who knows."""
    return unasked.note.endswith(ASKER_NOTE) and unasked.phrase.casefold() not in KNOWING


def widest(effective: EffectiveTime) -> EffectiveTime:
    """The last MAX_RANGE days up to the request's time: the subjects of a question asking
    about a whole history are found over it, as a phrase too wide's are over the window
    offered instead, so that a ranking of a history that fits ranks all of it."""
    return resolve_time(None, effective.end - MAX_RANGE, effective.end, effective.end)


def of_people_alone(understood: Interpretation, subjects: Sequence[StoredSubject]) -> bool:
    """A "who" question whose subjects are people alone ("who is David Lord?", "who has David
    Lord worked with?", "who committed more, X or Y?") lists no one who changed something:
    engine/questions/who.py answers it over the window read (the default year, said)."""
    people = all(s.kind is SubjectKind.PERSON for s in subjects)
    return understood.intent is Intent.WHO and bool(subjects) and people


@dataclass(frozen=True)
class WholeHistory:
    """The whole history of what a question names, wider than one answer may cover: the
    answer asks again as a too-wide phrase does (engine.resolving.questiontime.TooWide),
    offering the last MAX_RANGE days (a Narrower: the pipeline's clarification says it)."""

    what: str  # the subjects as the answer names them ("click by Jaron Rosenau")
    first: datetime  # their first recorded change
    end: datetime  # the request's time
    slot: Slot  # the question's end, where words naming a time would stand (or the phrase's)
    suggested: EffectiveTime  # what the suggestion means
    phrase: str = ""  # the phrase naming the whole history ("ever"), or none named

    def question(self) -> str:
        """The question asked again with the suggestion before its closing mark (in the
        phrase's place, when one named the whole history)."""
        return self.slot.asked(SUGGESTION)

    def history(self) -> str:
        days = (self.end - self.first).days
        said = f'"{self.phrase}" asks' if self.phrase else "No time was named: the question asks"
        return (
            f"{said} about the whole history of {self.what}, "
            f"which runs from {iso(self.first)} (its first recorded change) to "
            f"{iso(self.end)}, {days} days, more than the {MAX_RANGE.days} days one answer "
            "may cover"
        )

    def prompt(self) -> str:
        return (
            f"{self.history()}. Ask for at most {MAX_RANGE.days} days, for example the last "
            f'{MAX_RANGE.days} days up to {iso(self.end)}: "{self.question()}" (the receipts '
            "given here are for that question), or name the period meant."
        )


@dataclass(frozen=True)
class Whole:
    """What the answer covers instead of the default window: the history from its first
    recorded change (`effective`), with the note saying so; or, wider than one answer may
    cover, the question to ask again (`wider`)."""

    effective: EffectiveTime | None = None
    note: str | None = None
    wider: WholeHistory | None = None


async def whole_history(
    graph: OrgGraph,
    subjects: Sequence[StoredSubject],
    told: Disclosures,
    effective: EffectiveTime,
    slot: Slot,
    allow_clarification: bool,
    phrase: str = "",
) -> Whole:
    """The history of `subjects` (of the part `told` of them; of what a ranking named) up to
    `effective.end`: answered when it fits in MAX_RANGE, else asked again (refused:
    BadUserInput, when no clarification is allowed). None of them ever changed: the window
    read stands, saying so."""
    part, ranked_in = told.part, told.ranked_in
    end = effective.end
    holders = [s for s in ranked_in if s.kind is not SubjectKind.PERSON]
    if ranked_in:  # "which files changed most in X?": X's history, not the files'
        subjects, part = holders or ranked_in, part if holders else None
    by = Actor(part.person.key, part.others) if part is not None else None
    end_ns = to_ns(end)
    assert end_ns is not None
    first = await first_change(graph, [s.key for s in subjects], TimeSpan(0, end_ns - 1), by)
    what = _names(subjects, part)
    if first is None:
        return Whole(note=f"No change of {what} is recorded at any time before {iso(end)}.")
    if end - first > MAX_RANGE:
        wider = WholeHistory(what, first, end, slot, widest(effective), phrase)
        if not allow_clarification:
            raise BadUserInput(
                f'{wider.history()}: ask for at most {MAX_RANGE.days} days ("{wider.question()}")'
            )
        return Whole(wider=wider)
    said = f'"{phrase}"' if phrase else NO_TIME
    note = (
        f"{said}: the answer covers the whole history of {what}, from its first recorded "
        f"change at {iso(first)} to {iso(end)}."
    )
    return Whole(effective=resolve_time(None, first, end, end), note=note)


def _names(subjects: Sequence[StoredSubject], part: Part | None) -> str:
    names = [part.label(s) if part is not None else s.name for s in subjects]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
