"""Deterministic question interpretation: references, fact kinds, time and intent, no model.

The question is untrusted data. Nothing in it changes behaviour beyond the rules below, and
every reference is a verbatim substring of the question: interpretation never invents a
subject. Questions are capped at MAX_QUESTION characters (the rest is ignored, with a note),
which bounds every scan here, including the `known_handles` probes.

How references and scopes are found: engine/reading/references.py, engine/reading/names.py and
engine/reading/scopes.py; the words: engine/reading/vocabulary.py; time phrases:
engine/reading/time/phrases.py, the question's: engine/reading/timeexpression.py; the passes'
order: engine/reading/claims.py; what it reads into: engine/reading/interpretation.py. The
steps of `interpret`, by job: engine/reading/steps/.

Intents (closed): engine/reading/intents.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from engine.reading import asked, factphrases, kindwords, parts, runs
from engine.reading import vocabulary as v
from engine.reading.asked import compares
from engine.reading.interpretation import Interpretation
from engine.reading.names import doer
from engine.reading.scopes import excluding, scopes
from engine.reading.sizerows import WHOLE_PEOPLE_NOTE
from engine.reading.steps import asking, compared, said, words
from engine.reading.steps.draft import Draft
from engine.reading.time import reasons, unions
from engine.reading.timeexpression import time_slots
from engine.reading.uncompared import two_times
from engine.reading.vocabulary import Intent


def interpret(
    question: str, now: datetime, known_handles: Callable[[str], bool] | None = None
) -> Interpretation:
    """Interpret a question relative to `now`. Never raises on any text; `known_handles`
    (optional) tells whether a span of the question names a known subject handle. The
    question is read in Unicode's composed form (engine.domain.text.composed): a name typed
    decomposed ("Neuha\u0308user") is the same name, never "Neuha" and "user". The steps run
    in the order of engine/reading/claims.py (tests/test_claims follows them)."""
    d = words.opened(question, now, known_handles)  # time phrases, then the names
    words.facts(d)  # fact phrases, merges, bots, a ranking, the names left
    asking.intent(d)  # the intent and the kinds it reads
    asking.periods(d)  # periods counted, the time as the words beside it leave it
    compared.compared(d)  # two periods compared
    said.unasked(d)  # what is asked and not computed
    said.leftover(d)  # words unread, times unused, runs beside names
    return _interpretation(d)


def _interpretation(d: Draft) -> Interpretation:
    """The Interpretation of what the steps read: the fields every reading has, then those of
    its time, its names and what it asks, each a table of one field a line (the few fields
    derived here are read nowhere else); then its parts ("how many ..., and who made them?")."""
    time = d.time
    read = Interpretation(
        references=d.references,
        fact_kinds=tuple(d.kinds),
        as_of=time.as_of if time else None,
        start=time.start_at if time else None,
        end=time.end_at if time else None,
        time_expression=d.text[time.start : time.end] if time else None,
        intent=d.intent,
        kind_hint=d.kind_hint,
        notes=tuple(dict.fromkeys(d.notes)),
    )
    return parts.read(d.question, _asked(d, _named(d, _timed(d, read))))


def _timed(d: Draft, read: Interpretation) -> Interpretation:
    """`read` with what its time phrases say beyond the window: those not understood or
    ignored and why, the day each names, the period compared, the union asked, a second
    time, the phrases owned by a name."""
    text, time, reading, now = d.text, d.time, d.reading, d.now
    not_understood = d.not_understood
    return replace(
        read,
        time_not_understood=not_understood,
        time_ignored=tuple(reading.ignored),
        time_note=time.note if time else None,
        which_day=tuple(reading.which_day.items()),
        compared=d.base,
        own_times=d.owned,
        slots=time_slots(d.question, d.expression, reading.which_day),
        union=unions.asked(d.question, reading, now),
        time_reasons=tuple((p, reasons.reason(p)) for p in not_understood),
        time_repeated=d.repeated,
        two_times=()
        if d.ended
        else two_times(text, time, [p for p in reading.ignored if p not in d.repeated], now),
    )  # fmt: skip


def _named(d: Draft, read: Interpretation) -> Interpretation:
    """`read` with what its names say: each reference's kind word, the names written as
    code, the scopes, who acted and who did, the runs of words beside the names, what is
    excluded, whether it compares, the pronouns, the words left unread."""
    text, tokens, spans, actors, references = d.text, d.tokens, d.spans, d.actors, d.references
    return replace(
        read,
        reference_kinds=tuple(d.kinds_after[ref] for ref in references),
        coded=tuple(
            dict.fromkeys(text[a:b] for a, b in spans if kindwords.code_after(text, tokens, b))
        ),
        # "how many commits did hynek make in attrs": who acted is no module of the other
        scopes=tuple(s for s in scopes(text, spans, tokens) if s.inner not in d.acted),
        unread=d.unread,
        actors=tuple(dict.fromkeys(text[a:b] for a, b in actors if (a, b) in spans)),
        excluding=excluding(text),
        doers=tuple(
            dict.fromkeys(text[a:b] for a, b in actors if (a, b) in spans and doer(text, a))
        ),
        acting=d.acted,
        kinds_alone=tuple(d.alone),
        beside=d.besides,
        placed=runs.placed(text, d.unread),
        compares=compares(text, references),
        pronouns=d.pronouns,
    )  # fmt: skip


def _asked(d: Draft, read: Interpretation) -> Interpretation:
    """`read` with what it asks beyond its intent: the last, first or a life event, when,
    a ranking and by what, periods ranked or counted, merges and bots, what is asked and
    not answered or not computed, "both", the fact words, net lines."""
    words = d.words
    return replace(
        read,
        asks_last=d.asks_last and asked.asks_last(d.tokens, d.named_words, one=True),
        asks_when=not d.asks_last and not d.first and not d.life and words[:1] == ["when"],
        asks_first=d.first,
        life=d.life,
        ranking=d.ranking,
        unanswered=d.unanswered,
        merges=d.merges,
        bots=d.bots,
        bots_only=d.bots_only,
        unasked=d.unasked,
        months_ranked=d.ranked_unit == "month",
        quarters_ranked=d.ranked_unit == "quarter",
        weeks_ranked=d.ranked_unit == "week",
        per_period=d.per_period[0] if d.per_period else None,
        asks_both="both" in words,
        ranked_by=d.ranked_by,
        # "the complete list of the top contributors": everyone is asked for
        leaders=_leaders(words)
        and not any(u.note.endswith(WHOLE_PEOPLE_NOTE) for u in d.unasked)
        and not d.shares,
        shares=d.shares,
        leaders_asked=max((u.count for u in d.ranked), default=0),
        fact_words=factphrases.fact_words(d.text),
        net_lines=d.net and d.intent == Intent.COUNT,
    )


# "main", "key" ... ask who led only before a person ("the main authors"): "who changed the
# main module src/click/core.py?" asks who changed it, everyone (review41 F6).
_LEADER_BEFORE_PERSON = frozenset({"main", "key", "primary", "principal", "major", "chief"})
_PERSON_NOUNS = frozenset({
    "contributor", "contributors", "author", "authors", "committer", "committers",
    "maintainer", "maintainers", "developer", "developers", "people", "person",
})  # fmt: skip


def _leaders(words: list[str]) -> bool:
    """A word asking who led: "top", "most" ... anywhere; "main", "key" ... before a person."""
    return any(
        w in v.LEADER_WORDS and (w not in _LEADER_BEFORE_PERSON or nxt in _PERSON_NOUNS)
        for w, nxt in zip(words, [*words[1:], ""], strict=False)
    )
