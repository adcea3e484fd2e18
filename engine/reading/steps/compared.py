"""The step of interpret reading two periods compared: "q4 '25 vs q1 '26 commits" (the later
answered, the earlier compared with), "who contributed in both 2024 and 2025?", "did commits
go up?" (the period before), or one compared with a period of its own words."""

from __future__ import annotations

from dataclasses import replace

from engine.reading import twoperiods
from engine.reading.asked import comparison, direction
from engine.reading.comparisons import both_periods
from engine.reading.comparisons import named as named_periods
from engine.reading.steps.draft import Draft


def compared(d: Draft) -> None:
    """The time answered and the period compared with it (`Draft.base`), or why none is."""
    text, time, reading, now = d.text, d.time, d.reading, d.now
    ranking = d.ranking
    d.pair = pair = (
        None if time is None or ranking is not None else named_periods(text, time, reading, now)
    )
    both_of = None if ranking is not None else both_periods(text, time, reading, now)
    # what two periods are compared by (commits and lines, people), None: not computed
    by = None if pair is None else twoperiods.measure(d.intent, d.kinds, [*d.opening, *d.words])
    if time is not None and both_of is not None and twoperiods.asks_people(d.intent, d.kinds):
        # "who contributed in both 2024 and 2025?": the later the window, the earlier beside
        two = twoperiods.compared(both_of, time, now)
        d.time, d.base = two.time or time, two.before
        d.refused = () if two.refused is None else (two.refused,)
        twoperiods.read([*d.tokens, *d.readable], both_of, twoperiods.BOTH_WORDS)
    elif pair is not None and by is not None and (
        chosen := twoperiods.two_choices(text, d.references, pair)
    ):
        d.refused = (chosen,)  # "which was busier in jan or feb, click or werkzeug?"
    elif time is not None and pair is not None and by is not None:
        # "q4 '25 vs q1 '26 commits": the later answered, the earlier compared with
        two = twoperiods.compared(pair, time, now)
        d.time, d.base = two.time or time, two.before
        d.refused = () if two.refused is None else (two.refused,)
        if d.base is not None:
            d.intent, d.kinds = by
            twoperiods.read([*d.tokens, *d.readable], pair)
            d.unanswered = twoperiods.rest_asked(d.unanswered)  # "..., and by how many commits?"
            d.spans = [(a, b) for a, b in d.spans if not twoperiods.its_words(text, a, b, pair)]
            d.references = tuple(dict.fromkeys(text[a:b] for a, b in d.spans))  # not "fewer"
            unread = twoperiods.outside(text, reading.not_understood, pair)
            d.reading = replace(reading, not_understood=unread)  # "the same quarter last year"
    elif time is not None:
        d.time, d.base, d.intent, d.kinds = comparison(
            text, time, now, d.intent, d.kinds, d.tokens
        )
    if d.base is None and not d.refused:
        d.base = direction(d.time, now, d.intent, d.kinds, d.tokens)  # "did commits go up?"
        d.kinds = list(twoperiods.KINDS) if d.base is not None else d.kinds  # both periods'
