"""A question's intent and the fact kinds it names, read from its words
(engine.reading.interpreter hands them the question's tokens and words).

Intents (closed): `why_behind` (why + a degradation word), `who_owns` (ownership asked by
who, or which/what + team/person), `who` (people asked for, not as owners: "who changed
X", "which engineers ..."), `count` ("how many"), `what_changed` ("what did X change",
"what changed in X", "what has X been working on"; "when did X last change?" too, its
answer's newest change, `asks_last`), `ranked` (subjects ranked by how much they changed:
"which modules changed the most?", engine/reading/ranking.py), `which` (which/what/list/show: a set
of subjects), `trend` (how something changed over time), `still` ("is X still maintained?",
"is Armin still active?": whether it is still changed, engine/questions/still.py), `status`
(everything else). One row per rule, in order (INTENT_ROWS): the first that holds is the
intent.

The fact kinds named: engine/reading/factphrases.py; what a count counts:
engine/reading/counts.py; "when did X last change?": engine/reading/asked.py (`asks_last`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.reading import intentnouns as nouns
from engine.reading import vocabulary as v
from engine.reading.numbers import NUMBER_WORDS
from engine.reading.sizerows import BIG
from engine.reading.verbs import LISTED
from engine.reading.vocabulary import Intent

_YES_NO = frozenset({"did", "has", "have", "had", "was", "were"})
# Words opening a question that a noun of changes does not make a list of ("does X still get
# changes?", "how many changes ...?", "is X getting changes?").
_OPENERS = _YES_NO | {"is", "are", "does", "do", "how", "can", "could", "will", "would", "should"}
_HAPPENED = frozenset({"happened", "happen", "happens", "happening"})
# What was put into a subject, said without a change verb ("what went into wsgi.py?").
_WENT_INTO = (
    "went into", "gone into", "goes into", "go into", "done to", "done on",
    "added to", "put into", "landed in",
)  # fmt: skip
_WORK_WORDS = v.CHANGE_VERBS


def _asks_changes(lead: str, words: list[str], joined: str) -> bool:
    """ "What changed in X", "what has X been working on", "what did X touch", "did X change
    Y", "what's new in X", "list the changes to X", "recent changes to X": the changes
    themselves are asked for (not a trend over time)."""
    if " over time " in joined:
        return False
    changed = bool(_WORK_WORDS.union({"changes"}).intersection(words))
    if lead == "what" and changed:
        return True
    if not lead and words[:1] and words[0] in _YES_NO and changed:
        return True  # "did X change Y?", "has X changed anything?": the changes, maybe none
    if lead == "what" and any(f" {w} new " in joined for w in ("what", "s", "is")):
        return True
    if lead == "what" and " been up to " in f"{joined} ":
        return True  # "what has X been up to?"
    if _anything(words, changed):
        return True  # "anything change in X?", "anything in X last month?": its changes
    if lead == "what" and {"do", "doing", "done"}.intersection(words):
        return True  # "what did pgjones do in werkzeug in 2025?", "what has X done in Y?"
    if lead == "what" and _HAPPENED.intersection(words):
        return True  # "what happened (in X) last quarter?": the changes
    if lead == "what" and any(f" {p} " in joined for p in _WENT_INTO):
        return True  # "what went into X?", "what's been done to X?": the changes
    if not lead and LISTED.intersection(words) and not _OPENERS.intersection(words[:1]):
        return True  # "changes to X last friday", "X history since june" were X's health
    listed = {"changes", "commits"}.intersection(words)
    return (lead in {"list", "show"} and bool(listed)) or " recent changes " in joined


_ANYTHING = frozenset({"anything", "something"})
# What may follow "anything" asking for changes ("anything in X?", "anything new in X?").
# "anything big in auth in 2017?": its changes, none judged big (engine/reading/sizerows.py)
_ANYTHING_THEN = frozenset({"in", "to", "on", "new", "for", "at", "under"}) | _HAPPENED | BIG
_ANY_OF = frozenset({"activity", "work", "movement", "updates", "progress"})


def _anything(words: list[str], changed: bool) -> bool:
    """ "last wk, anything change in termui", "anything in the middleware dir last 3
    months", "did anything happen in X?": whether anything changed, so the changes (maybe
    none); they were read as X's trend or health. Not "is anything wrong with X?"."""
    if "who" in words:
        return False
    if any(w == "any" and after in _ANY_OF for w, after in pairwise(words)):
        return True  # "any activity on serving.py lately?": its changes, maybe none
    at = next((i for i, w in enumerate(words) if w in _ANYTHING), None)
    if at is None:
        return False
    after = words[at + 1] if at + 1 < len(words) else ""
    return after in _ANYTHING_THEN or (changed and after in _WORK_WORDS)


@dataclass(frozen=True, slots=True)
class Asked:
    """What the intent rows read: the question's words, its lead word (why, which, what, who,
    list, show; "anyone" is who), the words joined with spaces around, the fact kinds named
    and the kind word's kind."""

    words: list[str]
    lead: str
    joined: str
    kinds: list[FactKind]
    kind_hint: SubjectKind | None
    named: frozenset[str] = frozenset()  # the words of the names the question holds


@dataclass(frozen=True, slots=True)
class IntentRow:
    """One intent rule: the intent when `holds` (the first row that holds wins)."""

    intent: Intent
    holds: Callable[[Asked], bool]
    note: str


def _why_behind(a: Asked) -> bool:
    degraded = any(k in v.DEGRADATION for k in a.kinds) or v.DEGRADATION_WORDS.intersection(a.words)
    return a.lead == "why" and bool(degraded)


def _who_owns(a: Asked) -> bool:
    people = a.kind_hint in {SubjectKind.TEAM, SubjectKind.PERSON}
    return FactKind.OWNERSHIP in a.kinds and (a.lead == "who" or people or "whose" in a.words)


def _yes_no_commits(a: Asked) -> bool:
    opens = bool(a.words[:1]) and a.words[0] in _YES_NO
    return not a.lead and opens and set(a.kinds) == {FactKind.COMMIT_ACTIVITY}


def _commits_named(a: Asked) -> bool:
    """Commits named with no question word ("commits to decorators.py over Christmas",
    "attrs commits last Friday"): their count. They were a status, which opened with "The
    health of X is not judged" and never said "0 commits" (c33b)."""
    opens = bool(a.words[:1]) and a.words[0] in _OPENERS
    named = bool({"commits", "commit"} & set(a.words))
    health = bool(v.HEALTH_WORDS.intersection(a.words))
    # "top five people by commits in 2025" asks for the people, not the count (it was answered
    # "122 commit(s) to the whole organisation", another question)
    people = _opens_with_people([w for w in a.words if w not in a.named])
    return not a.lead and not opens and named and not health and not people and set(
        a.kinds
    ) == {FactKind.COMMIT_ACTIVITY}


# "more or fewer commits", "less or more active": either way asked
_EITHER_WAY = (("more", "fewer"), ("more", "less"), ("fewer", "more"), ("less", "more"))


def _direction(a: Asked) -> bool:
    """ "Did commit activity go up or down after April?", "has X's activity gone up lately?",
    "did commits to X increase this year?": which way something moved over time, a trend.
    They were read as a count ("did ... commit") and answered with one window's total, the
    direction asked never given. Not when a question word asks for people or a set ("who
    increased ...?": the people)."""
    moved = v.DIRECTION_WORDS.intersection(a.words) or any(
        f" {verb} {way} " in a.joined for verb in v.GOING for way in ("up", "down")
    )
    moved = moved or any(f" {x} or {y} " in a.joined for x, y in _EITHER_WAY)
    return bool(moved) and a.lead not in {"who", "which"}


_RANKED_OR_PEOPLE = frozenset({"rank", "ranked", "ranking", "top", "most", "least", "fewest"}) | {
    "people", "persons", "contributors", "authors", "committers", "developers", "engineers"
}  # fmt: skip


def _lines_named(a: Asked) -> bool:
    """Lines named with no question word ("lines added vs removed in attrs in q2", "lines
    changed in _make.py this year"): how many, through the churn fact (+added -removed).
    They were a health ("The health of attrs is not judged ...") or a trend."""
    opens = bool(a.words[:1]) and a.words[0] in _OPENERS
    lines = bool(v.LINE_WORDS.intersection(a.words) - {"churn", "churned"})
    # changed, added or removed ("lines of code in X" is its size, not computed)
    named = lines and bool((v.CHANGE_VERBS | v.LINE_SIDES).intersection(a.words))
    health = bool(v.HEALTH_WORDS.intersection(a.words))
    churn = set(a.kinds) <= {FactKind.CHURN}
    ranked = bool(_RANKED_OR_PEOPLE.intersection(a.words))  # "rank the people by lines"
    return not a.lead and not opens and named and not health and churn and not ranked


def _how_much(a: Asked) -> bool:
    """ "How much did David Lord change in werkzeug?", "how much code was changed in X?":
    the lines changed (`counted`), never a trend or a health (c33a K1). "How much did X do
    in Y?": their commits and lines (engine.reading.counts; it asked back, "not computed for
    what was asked")."""
    changed = bool(_WORK_WORDS.intersection(a.words)) or bool({"code", "churn"} & set(a.words))
    changed = changed or did_do(a.words)
    return " how much " in a.joined and changed and set(a.kinds) <= {FactKind.CHURN}


# "how much did X do", "how much work has X done": what a person did, their commits and lines
_DONE = frozenset({"do", "done", "work"})


def did_do(words: list[str]) -> bool:
    """ "How much did X do (in Y)?", "how much work has X done?"."""
    return bool(_DONE.intersection(words)) and " how much " in f" {' '.join(words)} "


def _who(a: Asked) -> bool:
    return all(k in v.CHANGE_KINDS for k in a.kinds) and (
        a.lead == "who"
        or (not a.lead and _opens_with_people([w for w in a.words if w not in a.named]))
        or " most active " in a.joined
        or (a.lead in {"which", "what"} and a.kind_hint is SubjectKind.PERSON)
    )


def _which(a: Asked) -> bool:
    listed = a.lead in {"what", "list", "show"} and v.PLURAL_KINDS.intersection(a.words)
    return a.lead == "which" or bool(listed)


# The intent rules, in order: the first that holds is the question's intent. A question's
# intent is read here only; engine.reading.interpreter then lets "when did X last ...?"
# (what_changed), a ranking (ranked) and "still" (still) take its place.
INTENT_ROWS = (
    IntentRow(Intent.WHY_BEHIND, _why_behind, '"why" and a degradation word ("why is X behind?")'),
    IntentRow(Intent.WHO_OWNS, _who_owns, 'ownership asked by "who", "whose", a team or person'),
    IntentRow(
        Intent.COUNT,
        lambda a: " how many " in a.joined or " number of " in a.joined or a.lead == "count",
        '"how many", "number of", "count the commits ..."',
    ),
    IntentRow(Intent.TREND, _direction, '"did activity go up or down?", "did commits increase?"'),
    IntentRow(
        Intent.COUNT, _commits_named,
        '"commits to X in 2025", "attrs commits last Friday": how many (maybe none)',
    ),
    IntentRow(Intent.COUNT, _lines_named, '"lines added vs removed in X in q2": how many'),
    IntentRow(Intent.COUNT, nouns.volume, '"what was the commit throughput ...", "how much activity'
              ' ...": the commits counted'),
    IntentRow(Intent.COUNT, _how_much, '"how much did X change?", "how much code ...": lines'),
    IntentRow(
        Intent.COUNT, _yes_no_commits,
        '"did David Lord commit anything in August?": how many, maybe none',
    ),
    IntentRow(Intent.WHO, _who, "people asked for, about changes: who, people nouns, most active"),
    IntentRow(
        Intent.WHO,
        lambda a: all(k in v.CHANGE_KINDS for k in a.kinds) and nouns.people_ranked(a),
        '"the contributor ranking", "the leaderboard": people ranked by commits',
    ),
    IntentRow(
        Intent.WHAT_CHANGED, lambda a: _asks_changes(a.lead, a.words, a.joined),
        "the changes themselves (see _asks_changes)",
    ),
    IntentRow(
        Intent.TREND,
        lambda a: bool(v.TREND_WORDS.intersection(a.words)) or " over time " in a.joined,
        "how something changed over time",
    ),
    IntentRow(Intent.WHICH, _which, "which, or what/list/show with a plural kind word: a set"),
    IntentRow(Intent.STATUS, lambda a: True, "everything else"),
)  # fmt: skip


def intent(
    words: list[str],
    kinds: list[FactKind],
    kind_hint: SubjectKind | None,
    named: frozenset[str] = frozenset(),
) -> Intent:
    """The closed intent vocabulary: the first of INTENT_ROWS that holds. NAMED: the words of
    the names in the question, which never open it as a people noun does ("requests top
    contributors in 2025" opens with the people asked for, as "top contributors to requests"
    does; it was a status of requests)."""
    words = [v.LEADS_SPELT.get(w, w) for w in words]
    leads = {"why", "which", "what", "who", "list", "show"} | v.SOMEONE
    lead = next((w for w in words if w in leads), "")
    lead = "who" if lead in v.SOMEONE else lead
    lead = "count" if not lead and words[:1] == ["count"] else lead
    asked = Asked(words, lead, f" {' '.join(words)} ", kinds, kind_hint, named)
    return next(row.intent for row in INTENT_ROWS if row.holds(asked))


# "top 3 contributors to X", "key committers of X": people asked for by the noun that opens
# the question (they were a status of X, the ranking only among the drivers).
PEOPLE = frozenset(
    {"contributors", "committers", "authors", "developers", "devs", "people"}
    | {"contributor", "committer", "author", "developer", "dev"}  # "the busiest contributor"
)
_PEOPLE_LEAD = frozenset(
    {"the", "top", "main", "key", "biggest", "leading", "primary", "lead", "busiest", "most"}
)


# "top five people": a number written as a word (engine/reading/numbers.py) leads the
# people as a digit does
_NUMBER_WORDS = frozenset(NUMBER_WORDS)


def _opens_with_people(words: list[str]) -> bool:
    opening = [w for w in words if w not in _PEOPLE_LEAD | _NUMBER_WORDS and not w.isdigit()]
    return bool(opening) and opening[0] in PEOPLE
