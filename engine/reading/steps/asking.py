"""The steps of interpret reading what is asked: the intent and the fact kinds it reads (a
first or last change, a path's life, a ranking, "still"), then the periods it is counted by
(months ranked, commits by month) and the time phrase as the words beside it leave it."""

from __future__ import annotations

from engine.domain.facts import FactKind
from engine.domain.text import normalise
from engine.reading import asked, intents, meaning, origins, periodcounts, rankedmonths
from engine.reading import intentkinds as ik
from engine.reading import vocabulary as v
from engine.reading.asked import asks_first, asks_still, compares
from engine.reading.steps.draft import Draft
from engine.reading.time.periods import own_period
from engine.reading.timeexpression import time_beside
from engine.reading.vocabulary import Intent


def intent(d: Draft) -> None:
    """The intent and its fact kinds, and whether the question counts over a window."""
    text, tokens, readable, words = d.text, d.tokens, d.readable, d.words
    d.asks_last = asked.asks_last(tokens, d.named_words)
    # "the first and last change to X in 2025": both, over a window named (firstlast.py)
    last_only = d.asks_last and d.time is None  # the last change alone: no first one is asked
    taken = None if last_only or d.ranking else asks_first(tokens, readable, d.named_words)
    d.firsts = [] if taken is None else [text[taken.start : taken.end]]  # "first changed"
    d.first = taken is not None
    # "who deleted X?", "when did X become a package?", "when was X created?" (origins.life)
    named = bool(d.references)
    d.lived = None if d.ranking else origins.life(text, tokens, readable, taken, named)
    d.life = d.lived[0] if d.lived else None
    if d.lived:  # "who removed _dunders?": "_dunders"; "move to src/": the place, no name
        d.spans = origins.unnamed(text, d.spans, d.lived[1])
        d.references = tuple(dict.fromkeys(text[a:b] for a, b in d.spans))
    d.intent = (
        Intent.WHAT_CHANGED
        if d.asks_last or d.first or d.life
        else intents.intent(words, d.kinds, d.kind_hint, d.named_words)
    )
    if d.ranking is not None:  # counted from the changes (commits) or lines of each subject
        lines = bool(v.LINE_WORDS.intersection(words))  # "top files by churn"
        d.intent, d.asks_last = Intent.RANKED, False
        d.kinds = [FactKind.CHURN if lines else FactKind.CHANGES]
    else:
        d.intent, d.reread = meaning.reread(text, readable, d.intent)
    if d.broken_down and d.ranking is None:  # "commits by author": each person's, ranked
        d.intent = Intent.WHO
    if d.net and d.ranking is None and d.intent in ik.NET_ANSWERED:  # "the net change in lines"
        d.intent, d.kinds = Intent.COUNT, [FactKind.CHURN]
    still = d.intent in {Intent.STATUS, Intent.TREND} or ik.anyone(words, d.intent)
    if still and asks_still(tokens):
        d.intent, d.kinds = Intent.STILL, list(v.STILL_KINDS)  # its changes, not its health
    # the kinds the intent reads, and whether it counts over a window (intentkinds.py)
    d.kinds, d.counting = ik.kinds_of(d.intent, d.kinds, words, d.kind_hint)


def periods(d: Draft) -> None:
    """The periods counted (each month's commits ranked, or in calendar order), the subjects
    compared by their commits, and the time phrase as the words beside it leave it."""
    text, tokens, readable, time = d.text, d.tokens, d.readable, d.time
    # "busiest month this yr": each month's commits, ranked (before the words beside the time)
    within = None if time is None else (time.start, time.end)
    ranked_unit = None if d.ranking else rankedmonths.read(tokens, readable, d.kinds, within)
    d.ranked_unit = ranked_unit
    if ranked_unit:
        d.intent, d.kinds = Intent.COUNT, [FactKind.COMMIT_ACTIVITY]
        d.spans = [(a, b) for a, b in d.spans if normalise(text[a:b]) not in rankedmonths.VERBS]
        d.references = tuple(dict.fromkeys(text[a:b] for a, b in d.spans))  # not "Rank"
    # "commits by month in 2025": each month's commits, in calendar order (the same)
    if not d.ranking and not ranked_unit:
        d.per_period = periodcounts.read(text, tokens, readable, d.kinds, d.intent)
    if d.per_period:
        d.intent, d.kinds = Intent.COUNT, [FactKind.COMMIT_ACTIVITY]
        # "monthly commits in 2023": the first word was taken for a name before it was read
        periodic = periodcounts.PERIODIC
        d.spans = [(a, b) for a, b in d.spans if normalise(text[a:b]) not in periodic]
        d.references = tuple(dict.fromkeys(text[a:b] for a, b in d.spans))
    elif (
        d.intent == Intent.WHAT_CHANGED
        and len(d.references) > 1
        and compares(text, d.references)
    ):
        d.intent, d.kinds = Intent.COUNT, [FactKind.COMMIT_ACTIVITY]  # "did X or Y change more?"
    # "since Jan '23": not understood, never "since Jan"; "lst month": never the default window
    if time is not None or not d.reading.not_understood:
        time, d.spans = time_beside(text, time, d.reading, tokens, d.spans, d.notes)
        d.references = tuple(dict.fromkeys(text[a:b] for a, b in d.spans))
    if time is not None and d.counting:
        time = own_period(text, time)
    d.time = time
