"""Deterministic question interpretation: references, fact kinds, time and intent, no model.

The question is untrusted data. Nothing in it changes behaviour beyond the rules below, and
every reference is a verbatim substring of the question: interpretation never invents a
subject. Questions are capped at MAX_QUESTION characters (the rest is ignored, with a note),
which bounds every scan here, including the `known_handles` probes.

How references and scopes are found: engine/reading/references.py, engine/reading/names.py and
engine/reading/scopes.py; the words: engine/reading/vocabulary.py; time phrases:
engine/reading/time/phrases.py, the question's: engine/reading/timeexpression.py; the passes'
order: engine/reading/claims.py; what it reads into: engine/reading/interpretation.py.

Intents (closed): engine/reading/intents.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from engine.domain import timecontext as tc
from engine.domain.facts import FactKind
from engine.domain.text import composed, normalise
from engine.reading import (
    asked,
    brackets,
    clauses,
    factphrases,
    intents,
    kindwords,
    meaning,
    openers,
    ordinary,
    origins,
    parts,
    periodcounts,
    rankedmonths,
    runs,
    slips,
    twoperiods,
)
from engine.reading import intentkinds as ik
from engine.reading import references as r
from engine.reading import vocabulary as v
from engine.reading.acting import acting
from engine.reading.asked import (
    asks_first,
    asks_still,
    compares,
    comparison,
    direction,
    first_nouns,
)
from engine.reading.bots import bots_asked, outside, read_bots, read_bots_only
from engine.reading.breakdowns import PER_COMPARED_NOTE
from engine.reading.comparisons import both_periods
from engine.reading.comparisons import named as named_periods
from engine.reading.interpretation import MAX_QUESTION, Interpretation
from engine.reading.merges import read_merges
from engine.reading.names import doer, named_spans
from engine.reading.netlines import read_net
from engine.reading.perperson import read_breakdown
from engine.reading.pronouns import read_pronouns
from engine.reading.ranking import read as read_ranking
from engine.reading.scopes import excluding, scopes
from engine.reading.time import reasons, unions
from engine.reading.time.owntimes import ending as own_times
from engine.reading.time.periods import own_period
from engine.reading.timeexpression import find_time, same_time, time_beside, time_slots
from engine.reading.tokens import free_tokens
from engine.reading.uncompared import two_periods, two_times
from engine.reading.vocabulary import Intent


def interpret(
    question: str, now: datetime, known_handles: Callable[[str], bool] | None = None
) -> Interpretation:
    """Interpret a question relative to `now`. Never raises on any text; `known_handles`
    (optional) tells whether a span of the question names a known subject handle. The
    question is read in Unicode's composed form (engine.domain.text.composed): a name typed
    decomposed ("Neuha\u0308user") is the same name, never "Neuha" and "user"."""
    question = composed(question)
    now = tc.to_utc(now)
    notes: list[str] = []
    text = question
    if len(text) > MAX_QUESTION:
        text = text[:MAX_QUESTION]
        notes.append("question_truncated")
    quoted = r.quoted(text)
    unquoted = r.blank_quotes(text, quoted)
    text, unquoted, unanswered = clauses.first_and_rest(text, unquoted)
    quoted = [q for q in quoted if q[1][1] <= len(text)]
    reading = find_time(unquoted, now, notes)
    time = reading.match
    tokens = free_tokens(unquoted, reading)
    first_nouns(tokens)
    spans = [inner for inner, _ in quoted]
    bracketed = brackets.read(text, tokens, known_handles)  # "the debugger (werkzeug.debug)"
    spans += [b.span for b in bracketed]
    spans += r.by_descriptions(text, tokens, known_handles)  # "the werkzeug test suite"
    if known_handles is not None:
        spans += r.by_handles(text, tokens, known_handles, notes)
    # "Judging by commits,", "Rank the people": asking nothing; every later reading reads the
    # question after them ("Quick question: when did X first change?" starts at "when").
    opened = openers.read(tokens)
    opening = [t.norm for t in tokens[:opened]]  # "list": names asked, never a count
    tokens = tokens[opened:]
    ordinary.read_when(tokens)  # "on what date did X last commit?": asks when
    periodcounts.read_breaking(tokens)  # "Break down X's commits by month": no name
    slipped = slips.read_slips(text, tokens)  # "chnages", "comits": read as the word missed
    readable = [replace(t) for t in tokens]  # before fact phrases take theirs ("new contributors")
    # "by author", "per person": the people ranked (before "contributor" is a fact phrase)
    broken_down = read_breakdown(tokens) is not None
    pronouns = read_pronouns(tokens)  # "his first commit": the one person named
    kinds = factphrases.fact_kinds(tokens)
    net = read_net(tokens, FactKind.CHURN in kinds or ik.lines_asked(tokens))
    merges = read_merges(text, tokens, readable)
    bots_at = read_bots(tokens, readable)
    bots = None if bots_at is None else text[bots_at[0] : bots_at[1]]
    only = read_bots_only(tokens, readable)  # "bot commits": the bots' own part
    bots_only = None if only is None else text[only.start : only.end]
    fact_kinds = list(kinds)  # as asked, before an intent's defaults
    # A path or dotted module name is one name, its parts no words of the question's
    # ("what is the bus factor of attr._make?": "make" asked what changed).
    named = outside([t for t in tokens if not r.is_written_name(text[t.start : t.end])], bots_at)
    words = " ".join(t.norm for t in named).split()
    kind_hint = ik.kind_hint(tokens)
    ranking = read_ranking(tokens, fact_kinds, kind_hint)  # consumes "top 5", "files"
    ranked = meaning.top(text, tokens) if ranking is None else ()  # "the top 3" people
    reread: tuple[meaning.Unasked, ...] = ()
    actors: list[tuple[int, int]] = []
    spans = named_spans(text, tokens, spans, notes, actors)
    # A name that is a verb ("the make module") asks nothing: "what is the bus factor of
    # the make module?" read "make" as asking what changed.
    names = {normalise(text[a:b]) for a, b in spans}
    words = [w for w in words if w not in names or w not in v.CHANGE_VERBS]
    free = sum(t.free for t in tokens)
    alone = kindwords.alone(text, tokens, spans) if spans and ranking is None else []
    if sum(t.free for t in tokens) < free:  # "the repo" beside "the docs", "X in the repo"
        kind_hint = ik.kind_hint(tokens)  # a subject of its own or a place: no longer a hint
    references = tuple(dict.fromkeys(text[a:b] for a, b in spans))
    named_words = frozenset(w for name in names for w in name.split())
    asks_last = asked.asks_last(tokens, named_words)
    # "the first and last change to X in 2025": both, over a window named (firstlast.py)
    last_only = asks_last and time is None  # the last change alone: no first one is asked
    taken = None if last_only or ranking else asks_first(tokens, readable, named_words)
    firsts = [] if taken is None else [text[taken.start : taken.end]]  # "first changed"
    first = taken is not None
    # "who deleted X?", "when did X become a package?", "when was X created?" (origins.life)
    lived = None if ranking else origins.life(text, tokens, readable, taken, bool(references))
    life = lived[0] if lived else None
    if lived:  # "who removed _dunders?": "_dunders"; "move to src/": the place, no name
        spans = origins.unnamed(text, spans, lived[1] if life != "into_src" else "src")
        references = tuple(dict.fromkeys(text[a:b] for a, b in spans))
    intent = (
        Intent.WHAT_CHANGED
        if asks_last or first or life
        else intents.intent(words, kinds, kind_hint, named_words)
    )
    if ranking is not None:  # counted from the changes (commits) or lines of each subject
        lines = bool(v.LINE_WORDS.intersection(words))  # "top files by churn"
        intent, asks_last = Intent.RANKED, False
        kinds = [FactKind.CHURN if lines else FactKind.CHANGES]
    else:
        intent, reread = meaning.reread(text, readable, intent)
    if broken_down and ranking is None:  # "commits by author": each person's, ranked
        intent = Intent.WHO
    if net and ranking is None and intent in ik.NET_ANSWERED:  # "the net change in lines"
        intent, kinds = Intent.COUNT, [FactKind.CHURN]
    still = intent in {Intent.STATUS, Intent.TREND} or ik.anyone(words, intent)
    if still and asks_still(tokens):
        intent, kinds = Intent.STILL, list(v.STILL_KINDS)  # its changes, not its health
    # the kinds the intent reads, and whether it counts over a window (intentkinds.py)
    kinds, counting = ik.kinds_of(intent, kinds, words, kind_hint)
    # "busiest month this yr": each month's commits, ranked (before the words beside the time)
    within = None if time is None else (time.start, time.end)
    ranked_unit = None if ranking else rankedmonths.read(tokens, readable, kinds, within)
    months_ranked, quarters_ranked = ranked_unit == "month", ranked_unit == "quarter"
    weeks_ranked = ranked_unit == "week"
    if ranked_unit:
        intent, kinds = Intent.COUNT, [FactKind.COMMIT_ACTIVITY]
        spans = [(a, b) for a, b in spans if normalise(text[a:b]) not in rankedmonths.VERBS]
        references = tuple(dict.fromkeys(text[a:b] for a, b in spans))  # not "Rank"
    # "commits by month in 2025": each month's commits, in calendar order (the same)
    per_period = None
    if not ranking and not ranked_unit:
        per_period = periodcounts.read(text, tokens, readable, kinds, intent)
    if per_period:
        intent, kinds = Intent.COUNT, [FactKind.COMMIT_ACTIVITY]
        # "monthly commits in 2023": the first word was taken for a name before it was read
        spans = [(a, b) for a, b in spans if normalise(text[a:b]) not in periodcounts.PERIODIC]
        references = tuple(dict.fromkeys(text[a:b] for a, b in spans))
    elif intent == Intent.WHAT_CHANGED and len(references) > 1 and compares(text, references):
        intent, kinds = Intent.COUNT, [FactKind.COMMIT_ACTIVITY]  # "did X or Y change more?"
    # "since Jan '23": not understood, never "since Jan"; "lst month": never the default window
    if time is not None or not reading.not_understood:
        time, spans = time_beside(text, time, reading, tokens, spans, notes)
        references = tuple(dict.fromkeys(text[a:b] for a, b in spans))
    if time is not None and counting:
        time = own_period(text, time)
    base: tuple[datetime, datetime] | None = None
    refused: tuple[meaning.Unasked, ...] = ()
    pair = None if time is None or ranking is not None else named_periods(text, time, reading, now)
    both_of = None if ranking is not None else both_periods(text, time, reading, now)
    # what two periods are compared by (commits and lines, people), None: not computed
    by = None if pair is None else twoperiods.measure(intent, kinds, [*opening, *words])
    if time is not None and both_of is not None and twoperiods.asks_people(intent, kinds):
        # "who contributed in both 2024 and 2025?": the later the window, the earlier beside
        two = twoperiods.compared(both_of, time, now)
        time, base = two.time or time, two.before
        refused = () if two.refused is None else (two.refused,)
        twoperiods.read([*tokens, *readable], both_of, twoperiods.BOTH_WORDS)
    elif time is not None and pair is not None and by is not None:
        # "q4 '25 vs q1 '26 commits": the later answered, the earlier compared with
        two = twoperiods.compared(pair, time, now)
        time, base = two.time or time, two.before
        refused = () if two.refused is None else (two.refused,)
        if base is not None:
            intent, kinds = by
            twoperiods.read([*tokens, *readable], pair)
            unanswered = twoperiods.rest_asked(unanswered)  # "..., and by how many commits?"
            spans = [(a, b) for a, b in spans if not twoperiods.its_words(text, a, b, pair)]
            references = tuple(dict.fromkeys(text[a:b] for a, b in spans))  # not "fewer"
    elif time is not None:
        time, base, intent, kinds = comparison(text, time, now, intent, kinds, tokens)
    if base is None and not refused:
        base = direction(time, now, intent, kinds, tokens)  # "did commits go up?"
        kinds = list(twoperiods.KINDS) if base is not None else kinds  # both periods' figures
    kinds_after = {text[a:b]: kindwords.kind_of(text, tokens, a, b) for a, b in spans}
    kinds_after |= {b.name: b.kind for b in bracketed if b.kind is not None}  # "package (x)"
    unasked = (
        *(meaning.Unasked(s.written, s.note, ends=False) for s in slipped),
        *(said for b in bracketed for said in b.said()),
        *(
            ()
            if ranking is not None  # a ranking reads its own words (engine.reading.ranking)
            else (
                *(refused or two_periods(text, time, base, reading, now, pair)),  # "apr than mar"
                *ranked,
                *reread,
                *meaning.unasked(text, readable, intent, references),
            )
        ),
    )
    if per_period and (base is not None or any(u.ends for u in unasked)):
        # "commits by month in 2024 vs 2025": the two periods' totals are compared, so the
        # breakdown is said not computed, never dropped (the answer was the comparison)
        said_per = f'"{per_period[1]}": {PER_COMPARED_NOTE}'
        unasked = (*unasked, meaning.Unasked(per_period[1], said_per))
        per_period = None
    if lived and not references and life != "into_src":  # "what moved in 2025?": no path
        unasked = (*unasked, meaning.Unasked(lived[1], origins.unnamed_note(lived[1])))
    # "who committed more in 2025, X or Y?": the people named are ranked by their commits
    if intent == Intent.WHO and compares(text, references):
        kinds += [] if FactKind.COMMIT_ACTIVITY in kinds else [FactKind.COMMIT_ACTIVITY]
    # "how many commits this year excluding bots": the contributors' facts count the bots'
    # "how many bot commits": the contributors' facts list the bots
    intent, kinds, unasked = bots_asked(bots, only, text, intent, kinds, unasked)
    # A word a phrase said beside the answer holds ("ask" of "who should I ask about X?")
    # was read: never also "not understood".
    said_words = [u.phrase for u in unasked]  # never also a word no name matched
    said = " | ".join(u.phrase.lower() for u in unasked)
    unread = tuple(
        dict.fromkeys(
            text[a:b]
            for a, b in r.unread(text, tokens, spans)
            if not re.search(rf"(?<!\w){re.escape(text[a:b].lower())}(?!\w)", said)
            and not runs.passed_over(text, (a, b), intent, first)
        )
    )
    expression = text[time.start : time.end] if time else None
    not_understood = tuple(reading.not_understood + reading.not_a_date)
    owned = own_times(text, expression, reading.ignored, references)
    repeated = tuple(p for p in reading.ignored if same_time(p, time, now))
    ended = owned or base is not None or any(u.ends for u in unasked)  # said there
    timed = [expression or "", *not_understood, *reading.ignored, *said_words, *firsts]
    timed += [lived[1]] if lived else []  # "datastructures.py become a package": no name
    besides = runs.beside(text, references, timed)
    guessed = {"references_by_position", "references_unread"} & set(notes)
    health = v.HEALTH_WORDS.intersection(words)
    if intent == Intent.STATUS and not (fact_kinds or health or guessed):
        unasked = (*unasked, *runs.asks_nothing(unread, besides, references, text))
    # "dependabot commits" with no name read there: the run no rule read acts too
    acting_spans = acting(tokens, [*spans, *r.unread(text, tokens, spans)])
    acted = tuple(dict.fromkeys(text[a:b] for a, b in acting_spans))
    return parts.read(question, Interpretation(  # "how many ..., and who made them?"
        references=references,
        fact_kinds=tuple(kinds),
        as_of=time.as_of if time else None,
        start=time.start_at if time else None,
        end=time.end_at if time else None,
        time_expression=text[time.start : time.end] if time else None,
        intent=intent,
        kind_hint=kind_hint,
        notes=tuple(dict.fromkeys(notes)),
        time_not_understood=not_understood,
        time_ignored=tuple(reading.ignored),
        reference_kinds=tuple(kinds_after[ref] for ref in references),
        coded=tuple(
            dict.fromkeys(text[a:b] for a, b in spans if kindwords.code_after(text, tokens, b))
        ),
        time_note=time.note if time else None,
        # "how many commits did hynek make in attrs": who acted is no module of the other
        scopes=tuple(s for s in scopes(text, spans, tokens) if s.inner not in acted),
        asks_last=asks_last and asked.asks_last(tokens, named_words, one=True),
        unread=unread,
        asks_when=not asks_last and not first and not life and words[:1] == ["when"],
        asks_first=first,
        life=life,
        ranking=ranking,
        unanswered=unanswered,
        merges=merges,
        bots=bots,
        bots_only=bots_only,
        unasked=unasked,
        which_day=tuple(reading.which_day.items()),
        compared=base,
        months_ranked=months_ranked,
        quarters_ranked=quarters_ranked,
        weeks_ranked=weeks_ranked,
        per_period=per_period[0] if per_period else None,
        actors=tuple(dict.fromkeys(text[a:b] for a, b in actors if (a, b) in spans)),
        asks_both="both" in words,
        ranked_by="lines" if v.LINE_WORDS.intersection(words) else "commits",
        excluding=excluding(text),
        fact_words=factphrases.fact_words(text),
        own_times=owned,
        doers=tuple(
            dict.fromkeys(text[a:b] for a, b in actors if (a, b) in spans and doer(text, a))
        ),
        acting=acted,
        kinds_alone=tuple(alone),
        beside=besides,
        placed=runs.placed(text, unread),
        compares=compares(text, references),
        slots=time_slots(question, expression, reading.which_day),
        union=unions.asked(question, reading, now),
        time_reasons=tuple((p, reasons.reason(p)) for p in not_understood),
        time_repeated=repeated,
        two_times=()
        if ended
        else two_times(text, time, [p for p in reading.ignored if p not in repeated], now),
        pronouns=pronouns,
        net_lines=net and intent == Intent.COUNT,
    ))  # fmt: skip
