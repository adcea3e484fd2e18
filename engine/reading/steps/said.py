"""The steps of interpret reading what is said beside the answer: the words asking what is not
computed (a ranking, a breakdown, a path's life with no path), the bots left out or asked, the
words no reading took (unread, beside a name) and the time phrases not used."""

from __future__ import annotations

import re

from engine.domain.facts import FactKind
from engine.reading import kindwords, meaning, origins, runs
from engine.reading import references as r
from engine.reading import vocabulary as v
from engine.reading.acting import acting
from engine.reading.asked import compares
from engine.reading.bots import bots_asked
from engine.reading.breakdowns import PER_COMPARED_NOTE
from engine.reading.shares import shares_asked
from engine.reading.steps.draft import Draft
from engine.reading.time.owntimes import ending as own_times
from engine.reading.timeexpression import same_time
from engine.reading.uncompared import two_periods
from engine.reading.vocabulary import Intent


def unasked(d: Draft) -> None:
    """What the question asks that is not computed, said beside the answer; the kinds a kind
    word gives its names; the bots' part."""
    text, tokens = d.text, d.tokens
    d.kinds_after = {text[a:b]: kindwords.kind_of(text, tokens, a, b) for a, b in d.spans}
    d.kinds_after |= {b.name: b.kind for b in d.bracketed if b.kind is not None}  # "package (x)"
    said = (
        *(meaning.Unasked(s.written, s.note, ends=False) for s in d.slipped),
        *(said for b in d.bracketed for said in b.said()),
        *(
            ()
            if d.ranking is not None  # a ranking reads its own words (engine.reading.ranking)
            else (
                # "apr than mar"
                *(d.refused or two_periods(text, d.time, d.base, d.reading, d.now, d.pair)),
                *d.ranked,
                *d.reread,
                *meaning.unasked(text, d.readable, d.intent, d.references),
            )
        ),
    )
    if d.per_period and (d.base is not None or any(u.ends for u in said)):
        # "commits by month in 2024 vs 2025": the two periods' totals are compared, so the
        # breakdown is said not computed, never dropped (the answer was the comparison)
        said_per = f'"{d.per_period[1]}": {PER_COMPARED_NOTE}'
        said = (*said, meaning.Unasked(d.per_period[1], said_per))
        d.per_period = None
    lived = d.lived
    if lived and not d.references and d.life != "into_src":  # "what moved in 2025?": no path
        said = (*said, meaning.Unasked(lived[1], origins.unnamed_note(lived[1])))
    # "who committed more in 2025, X or Y?": the people named are ranked by their commits
    if d.intent == Intent.WHO and compares(text, d.references):
        d.kinds += [] if FactKind.COMMIT_ACTIVITY in d.kinds else [FactKind.COMMIT_ACTIVITY]
    # "how many commits this year excluding bots": the contributors' facts count the bots'
    # "how many bot commits": the contributors' facts list the bots
    d.intent, d.kinds, d.unasked = bots_asked(d.bots, d.only, text, d.intent, d.kinds, said)
    # "ownership breakdown of X", "who owns X, as shares": each person's part
    shared = shares_asked(text, tokens, d.intent, d.kinds, d.unasked)
    d.intent, d.kinds, d.unasked = shared.intent, shared.kinds, shared.unasked
    d.shares = shared.asked


def leftover(d: Draft) -> None:
    """The words no reading took (never one a phrase said beside the answer holds), the time
    phrases not used, the runs of words a name is part of, and who acts."""
    text, tokens, spans, reading = d.text, d.tokens, d.spans, d.reading
    # A word a phrase said beside the answer holds ("ask" of "who should I ask about X?")
    # was read: never also "not understood".
    said_words = [u.phrase for u in d.unasked]  # never also a word no name matched
    said = " | ".join(u.phrase.lower() for u in d.unasked)
    d.unread = tuple(
        dict.fromkeys(
            text[a:b]
            for a, b in r.unread(text, tokens, spans)
            if not re.search(rf"(?<!\w){re.escape(text[a:b].lower())}(?!\w)", said)
            and not runs.passed_over(text, (a, b), d.intent, d.first)
        )
    )
    d.expression = expression = text[d.time.start : d.time.end] if d.time else None
    d.not_understood = tuple(reading.not_understood + reading.not_a_date)
    d.owned = own_times(text, expression, reading.ignored, d.references)
    d.repeated = tuple(p for p in reading.ignored if same_time(p, d.time, d.now))
    d.ended = d.owned != () or d.base is not None or any(u.ends for u in d.unasked)  # said
    timed = [expression or "", *d.not_understood, *reading.ignored, *said_words, *d.firsts]
    timed += [d.lived[1]] if d.lived else []  # "datastructures.py become a package": no name
    d.besides = runs.beside(text, d.references, timed)
    guessed = {"references_by_position", "references_unread"} & set(d.notes)
    health = v.HEALTH_WORDS.intersection(d.words)
    if d.intent == Intent.STATUS and not (d.fact_kinds or health or guessed):
        d.unasked = (*d.unasked, *runs.asks_nothing(d.unread, d.besides, d.references, text))
    # "dependabot commits" with no name read there: the run no rule read acts too
    acting_spans = acting(tokens, [*spans, *r.unread(text, tokens, spans)])
    d.acted = tuple(dict.fromkeys(text[a:b] for a, b in acting_spans))
