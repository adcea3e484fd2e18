"""Deterministic question interpretation: references, fact kinds, time and intent, no model.

The question is untrusted data. Nothing in it changes behaviour beyond the rules below, and
every reference is a verbatim substring of the question: interpretation never invents a
subject. Questions are capped at MAX_QUESTION characters (the rest is ignored, with a note),
which bounds every scan here, including the `known_handles` probes.

How references and scopes are found: engine/reading/references.py and engine/reading/scopes.py; the
words: engine/reading/vocabulary.py; time phrases: engine/reading/time/phrases.py.

Intents (closed): engine/reading/intents.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from engine.domain import timecontext as tc
from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.domain.text import composed, normalise
from engine.reading import (
    clauses,
    intents,
    kindwords,
    meaning,
    openers,
    rankedmonths,
    runs,
    slips,
    twoperiods,
)
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
from engine.reading.bots import bots_elsewhere, read_bots
from engine.reading.comparisons import both_periods, two_periods, two_times
from engine.reading.comparisons import named as named_periods
from engine.reading.merges import Merges, read_merges
from engine.reading.ranking import Ranking
from engine.reading.ranking import read as read_ranking
from engine.reading.references import MAX_HANDLE_PROBES
from engine.reading.scopes import Scope, scopes
from engine.reading.time import beside, reasons
from engine.reading.time import phrases as tp
from engine.reading.time import slots as sl
from engine.reading.time.owntimes import ending as own_times
from engine.reading.time.periods import own_period
from engine.reading.time.slots import Slot
from engine.reading.vocabulary import FACT_VOCABULARY, INTENTS, KIND_WORDS, STOP_WORDS, Intent

__all__ = [
    "FACT_VOCABULARY", "INTENTS", "KIND_WORDS", "MAX_HANDLE_PROBES", "MAX_QUESTION",
    "STOP_WORDS", "HandleCandidate", "Interpretation", "Scope", "handle_candidates",
    "interpret", "parse_time_expression",
]  # fmt: skip

MAX_QUESTION = 2_000
MAX_REFERENCES = 8


def find_time(text: str, now: datetime, notes: list[str]) -> tp.TimeReading:
    """The time phrases of `text` read relative to `now`; what could not be used is noted."""
    reading = tp.read_time(text, now)
    if reading.not_a_date:
        notes.append("time_expression_not_a_date")
    if reading.ignored:
        notes.append("later_time_expression_ignored")
    if reading.not_understood:
        notes.append("time_expression_not_understood")
    return reading


def parse_time_expression(
    text: str, now: datetime
) -> tuple[datetime | None, datetime | None, datetime | None] | None:
    """(as_of, start, stop) of the first time expression in `text`, or None when it has none."""
    match = tp.read_time(text[:MAX_QUESTION], tc.to_utc(now)).match
    return None if match is None else (match.as_of, match.start_at, match.end_at)


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What a question asks, as data. Every reference is a substring of the question.

    kind_hint: the subject kind a kind word names ("which services ..."): what the question
    is about, a hint only; it need not be the kind of any reference.
    time_expression: the matched text of the time expression, when there was one;
    as_of/start/end then hold its instants (a range is half-open [start, end); end None = now).
    time_not_understood: time-like phrases no rule reads ("since the outage"), verbatim.
    time_ignored: understood phrases after the first one, verbatim (only the first is used).
    """

    references: tuple[str, ...]
    fact_kinds: tuple[FactKind, ...]
    as_of: datetime | None
    start: datetime | None
    end: datetime | None
    time_expression: str | None
    intent: Intent
    kind_hint: SubjectKind | None
    notes: tuple[str, ...]
    time_not_understood: tuple[str, ...] = ()
    time_ignored: tuple[str, ...] = ()
    # The kind word right after a reference ("the httpx module"), per reference, or None.
    reference_kinds: tuple[SubjectKind | None, ...] = ()
    # References right before the word "code" ("the views code"): a package is meant over
    # same-named files, though "code" names no kind (engine.resolving.kinded.package_first).
    coded: tuple[str, ...] = ()
    # How a vague time phrase was read ("lately": the last 90 days), for the answer to state.
    time_note: str | None = None
    # Neighbouring references of which one may hold the other ("click's tests").
    scopes: tuple[Scope, ...] = ()
    # "When did X last commit?": the newest change is asked for (intent what_changed).
    asks_last: bool = False
    asks_first: bool = False  # "when did X first change?" (engine/questions/firstchange.py)
    # A "when" question that is not about the last change ("when was X released?").
    asks_when: bool = False
    # Runs of words no rule read, verbatim (engine.reading.references.unread): the answer names
    # them.
    unread: tuple[str, ...] = ()
    # "Which modules changed the most?": the ranking asked for (intent `ranked`,
    # engine.reading.ranking); its subjects are ranked by commits (engine.resolving.rankedsubjects).
    ranking: Ranking | None = None
    # A second question asked after the first, verbatim: not answered (engine.reading.clauses).
    unanswered: str | None = None
    # "excluding merges", "including merges", "what did X merge": engine.reading.merges.
    merges: Merges | None = None
    # "excluding bots", "no bots", "humans only", verbatim (engine.reading.bots): a ranking of
    # people leaves bots out; anything else asked so ends, said.
    bots: str | None = None
    # Words that change what is asked and are not computed ("first", "per month", "I"):
    # said, and the question ends unanswered when one would make it another
    # (engine.reading.meaning).
    unasked: tuple[meaning.Unasked, ...] = ()
    # "Is X changing more than last year?": the period compared with, [start, end); the time
    # read is then from its end to now (engine/questions/compared.py).
    compared: tuple[datetime, datetime] | None = None
    # "Which month had the most commits?": the window's months ranked by their commits
    # (engine/reading/rankedmonths.py, engine/questions/months.py).
    months_ranked: bool = False
    quarters_ranked: bool = False  # "which quarter of 2025 was busiest": the same, by quarter
    # References read only because they follow "did" or "by" beside other references ("how
    # many commits did davidism make to core.py?"): who acted. One naming nobody ends the
    # question (engine.resolving.subjects): everyone's count would answer another question.
    actors: tuple[str, ...] = ()
    # Those of them right after "did" or "does" ("did davidism make"): surely who acted. The
    # others ("by hand", "have landed") may be plain words, so naming nobody ends nothing.
    doers: tuple[str, ...] = ()
    # References read as who acted ("how many commits did dependabot make", "dependabot's
    # prs"): a person of the name is meant over a file (engine.reading.acting).
    acting: tuple[str, ...] = ()
    # A slash date two of whose readings may be meant, with them ("07/01/2026"): asked.
    which_day: tuple[tuple[str, tuple[tuple[datetime, datetime], ...]], ...] = ()
    # A singular kind word standing for a subject beside other references ("the repo" of
    # "who changed the repo and the docs?"), with its kind: engine.resolving.kinded.alone reads it.
    kinds_alone: tuple[tuple[str, SubjectKind | None], ...] = ()
    # "both" among the words ("who changed both X and Y?": engine/questions/both.py).
    asks_both: bool = False
    # What a "who" answer ranks people by: "lines" when changed lines are asked for.
    ranked_by: str = "commits"
    # "besides Y", "apart from Y": the word, and the folded words after it (one person's part
    # left out, or said not computed: engine.resolving.together).
    excluding: tuple[str, str] | None = None
    # The words naming fact kinds, as written, with their kinds ("open PRs"): quoted back
    # when nothing here records them (engine/answering/recordgaps.py).
    fact_words: intents.FactWords = ()
    # Subjects asked about over times of their own ("core.py in 2025 and parser.py in 2024"):
    # the note ending the question (engine/reading/time/owntimes.py), else ().
    own_times: tuple[str, ...] = ()
    # Each reference inside a longer run of content words, with the run's other words
    # (engine.reading.runs; engine.resolving.unmatchedwords says them).
    beside: tuple[runs.Beside, ...] = ()
    # Where each run of `unread` stands (engine.reading.runs; engine.resolving.firstnames).
    placed: tuple[runs.Placed, ...] = ()
    # "Who changed X more, A or B?": choices compared (engine.resolving.together).
    compares: bool = False
    # The question around its time phrase and its slash dates, to ask it again with other
    # words there (engine/reading/time/slots.py; engine.resolving.questiontime).
    slots: tuple[Slot, ...] = ()
    # Why each phrase of `time_not_understood` was not read (engine/reading/time/reasons.py).
    time_reasons: tuple[tuple[str, reasons.Unread], ...] = ()
    # Phrases of `time_ignored` that read as the very time used ("in 2025" twice).
    time_repeated: tuple[str, ...] = ()
    # A later time phrase naming another time, that no other rule ends the question on (a
    # comparison, subjects with times of their own): the note ending it
    # (engine.reading.comparisons.two_times; engine.resolving.questiontime.unread).
    two_times: tuple[str, ...] = ()

    def slot(self, phrase: str) -> Slot:
        """Where `phrase` stands in the question (the question unchanged, when nowhere)."""
        return next((s for s in self.slots if s.phrase == phrase), Slot(phrase, "", "", False))

    def placed_of(self, run: str) -> runs.Placed | None:
        """Where a run of `unread` stands."""
        return next((p for p in self.placed if p.run == run), None)

    def beside_of(self, reference: str) -> runs.Beside | None:
        """The run of content words holding `reference`, when longer than it."""
        return next((b for b in self.beside if b.reference == reference), None)


@dataclass(frozen=True, slots=True)
class HandleCandidate:
    """A span of the question that may be a known name: `size` tokens at [start, end)."""

    size: int
    start: int
    end: int
    text: str


def handle_candidates(question: str, now: datetime) -> list[HandleCandidate]:
    """The spans of `question` worth looking up as known names, longest first: the caller
    looks them up (skipping those inside a longer one found) and passes what it found to
    `interpret`. Read composed, as `interpret` reads it."""
    text = composed(question)[:MAX_QUESTION]
    unquoted = r.blank_quotes(text, r.quoted(text))
    tokens = r.free_tokens(unquoted, find_time(unquoted, tc.to_utc(now), []))
    first_nouns(tokens)  # "the first version of X": no name (as `interpret` reads it)
    # A description's words are no part of another name ("werkzeug test" of "the werkzeug
    # test suite"); the description is looked up whole (a known name of its own is one).
    described = [
        HandleCandidate(sum(a <= t.start < b for t in tokens), a, b, text[a:b])
        for a, b in r.by_descriptions(text, tokens, None)
    ]
    windows = [
        HandleCandidate(size, a, b, text[a:b]) for _, size, (a, b) in r.handle_windows(text, tokens)
    ]
    return sorted([*described, *windows], key=lambda c: -c.size)  # longest first, stable


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
    tokens = r.free_tokens(unquoted, reading)
    first_nouns(tokens)
    spans = [inner for inner, _ in quoted]
    spans += r.by_descriptions(text, tokens, known_handles)  # "the werkzeug test suite"
    if known_handles is not None:
        spans += r.by_handles(text, tokens, known_handles, notes)
    # "Judging by commits,", "Rank the people": asking nothing; every later reading reads the
    # question after them ("Quick question: when did X first change?" starts at "when").
    tokens = tokens[openers.read(tokens) :]
    slipped = slips.read_slips(text, tokens)  # "chnages", "comits": read as the word missed
    readable = [replace(t) for t in tokens]  # before fact phrases take theirs ("new contributors")
    kinds = intents.fact_kinds(tokens)
    merges = read_merges(text, tokens, readable)
    bots_at = read_bots(tokens, readable)
    bots = None if bots_at is None else text[bots_at[0] : bots_at[1]]
    fact_kinds = list(kinds)  # as asked, before an intent's defaults
    # A path or dotted module name is one name, its parts no words of the question's
    # ("what is the bus factor of attr._make?": "make" asked what changed).
    named = [t for t in tokens if not r.is_written_name(text[t.start : t.end])]
    words = " ".join(t.norm for t in named).split()
    kind_hint = _kind_hint(tokens)
    ranking = read_ranking(tokens, fact_kinds, kind_hint)  # consumes "top 5", "files"
    ranked = meaning.top(text, tokens) if ranking is None else ()  # "the top 3" people
    reread: tuple[meaning.Unasked, ...] = ()
    actors: list[tuple[int, int]] = []
    spans = _named_spans(text, tokens, spans, notes, actors)
    # A name that is a verb ("the make module") asks nothing: "what is the bus factor of
    # the make module?" read "make" as asking what changed.
    names = {normalise(text[a:b]) for a, b in spans}
    words = [w for w in words if w not in names or w not in v.CHANGE_VERBS]
    alone = kindwords.alone(text, tokens, spans) if spans and ranking is None else []
    if alone:  # "the repo" beside "the docs": a subject of its own, no longer a hint
        kind_hint = _kind_hint(tokens)
    references = tuple(dict.fromkeys(text[a:b] for a, b in spans))
    asks_last = intents.asks_last(tokens)
    # "the first and last change to X in 2025": both, over a window named (firstlast.py)
    both = asks_last and time is not None
    taken = None if (asks_last and not both) or ranking else asks_first(tokens, readable)
    firsts = [] if taken is None else [text[taken.start : taken.end]]  # "first changed"
    first = taken is not None
    intent = Intent.WHAT_CHANGED if asks_last or first else intents.intent(words, kinds, kind_hint)
    if ranking is not None:  # counted from the changes (commits) or lines of each subject
        lines = bool(v.LINE_WORDS.intersection(words))  # "top files by churn"
        intent, asks_last = Intent.RANKED, False
        kinds = [FactKind.CHURN if lines else FactKind.CHANGES]
    else:
        intent, reread = meaning.reread(text, readable, intent)
    if (intent in {Intent.STATUS, Intent.TREND} or _anyone(words, intent)) and asks_still(tokens):
        intent, kinds = Intent.STILL, list(v.STILL_KINDS)  # its changes, not its health
    # "what did X do on November 19?" (a status of changes) is that day's doing too: it
    # read the 30 days before the day, unsaid.
    changes = all(k in v.CHANGE_KINDS for k in kinds)
    counting = intent in _COUNTING or (intent == Intent.STATUS and changes)
    if intent == Intent.WHAT_CHANGED and changes:
        kinds = []  # the changes themselves (DEFAULT_KINDS), not a count of commits
    if intent == Intent.COUNT:
        kinds = intents.counted(words, kinds, kind_hint)
    if not kinds:
        kinds = list(v.DEFAULT_KINDS.get(intent, ()))
    elif intent == Intent.STATUS and kinds == [FactKind.ACTIVE_CONTRIBUTORS]:
        kinds += [FactKind.COMMIT_ACTIVITY, FactKind.CHURN]  # "how active was X?": a person too
    elif intent == Intent.WHO and FactKind.ACTIVE_CONTRIBUTORS not in kinds:
        kinds.append(FactKind.ACTIVE_CONTRIBUTORS)  # "did anyone commit to X?": the people
    # "busiest month this yr": each month's commits, ranked (before the words beside the time)
    within = None if time is None else (time.start, time.end)
    ranked_unit = None if ranking else rankedmonths.read(tokens, readable, kinds, within)
    months_ranked, quarters_ranked = ranked_unit == "month", ranked_unit == "quarter"
    if ranked_unit:
        intent, kinds = Intent.COUNT, [FactKind.COMMIT_ACTIVITY]
    # "since Jan '23": not understood, never "since Jan"; "lst month": never the default window
    if time is not None or not reading.not_understood:
        time, spans = _time_beside(text, time, reading, tokens, spans, notes)
        references = tuple(dict.fromkeys(text[a:b] for a, b in spans))
    if time is not None and counting:
        time = own_period(text, time)
    base: tuple[datetime, datetime] | None = None
    refused: tuple[meaning.Unasked, ...] = ()
    pair = None if time is None or ranking is not None else named_periods(text, time, reading, now)
    both_of = None if ranking is not None else both_periods(text, time, reading, now)
    if time is not None and both_of is not None and twoperiods.asks_people(intent, kinds):
        # "who contributed in both 2024 and 2025?": the later the window, the earlier beside
        two = twoperiods.compared(both_of, time, now)
        time, base = two.time or time, two.before
        refused = () if two.refused is None else (two.refused,)
        twoperiods.read([*tokens, *readable], both_of, twoperiods.BOTH_WORDS)
    elif time is not None and pair is not None and twoperiods.asks_change(intent, kinds):
        # "q4 '25 vs q1 '26 commits": the later answered, the earlier compared with
        two = twoperiods.compared(pair, time, now)
        time, base = two.time or time, two.before
        refused = () if two.refused is None else (two.refused,)
        if base is not None:
            intent, kinds = Intent.TREND, list(twoperiods.KINDS)
            twoperiods.read([*tokens, *readable], pair)
            spans = [(a, b) for a, b in spans if normalise(text[a:b]) not in twoperiods.WORDS]
            references = tuple(dict.fromkeys(text[a:b] for a, b in spans))  # not "fewer"
    elif time is not None:
        time, base, intent, kinds = comparison(text, time, now, intent, kinds, tokens)
    if base is None and not refused:
        base = direction(time, now, intent, kinds, tokens)  # "did commits go up?"
        kinds = list(twoperiods.KINDS) if base is not None else kinds  # both periods' figures
    kinds_after = {text[a:b]: kindwords.kind_of(text, tokens, a, b) for a, b in spans}
    unasked = (
        *(meaning.Unasked(s.written, s.note, ends=False) for s in slipped),
        *(
            ()
            if ranking is not None  # a ranking reads its own words (engine.reading.ranking)
            else (
                *(refused or two_periods(text, time, base, reading, now)),  # "apr than mar"
                *ranked,
                *reread,
                *meaning.unasked(text, readable, intent, references),
            )
        ),
    )
    # "who committed more in 2025, X or Y?": the people named are ranked by their commits
    if intent == Intent.WHO and compares(text, references):
        kinds += [] if FactKind.COMMIT_ACTIVITY in kinds else [FactKind.COMMIT_ACTIVITY]
    # "how many commits this year excluding bots": the contributors' facts count the bots'
    counted = bots is not None and intent == Intent.COUNT and set(kinds) <= _BOTS_COUNTED
    if counted and FactKind.ACTIVE_CONTRIBUTORS not in kinds:
        kinds.append(FactKind.ACTIVE_CONTRIBUTORS)
    if bots is not None and intent not in {Intent.WHO, Intent.RANKED} and not counted:
        unasked = (*unasked, meaning.Unasked(bots, bots_elsewhere(bots)))
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
    repeated = tuple(p for p in reading.ignored if _same_time(p, time, now))
    ended = owned or base is not None or any(u.ends for u in unasked)  # said there
    timed = [expression or "", *not_understood, *reading.ignored, *said_words, *firsts]
    besides = runs.beside(text, references, timed)
    guessed = {"references_by_position", "references_unread"} & set(notes)
    health = v.HEALTH_WORDS.intersection(words)
    if intent == Intent.STATUS and not (fact_kinds or health or guessed):
        unasked = (*unasked, *asks_nothing(unread, besides, references))
    return Interpretation(
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
        scopes=tuple(scopes(text, spans, tokens)),
        asks_last=asks_last,
        unread=unread,
        asks_when=not asks_last and not first and words[:1] == ["when"],
        asks_first=first,
        ranking=ranking,
        unanswered=unanswered,
        merges=merges,
        bots=bots,
        unasked=unasked,
        which_day=tuple(reading.which_day.items()),
        compared=base,
        months_ranked=months_ranked,
        quarters_ranked=quarters_ranked,
        actors=tuple(dict.fromkeys(text[a:b] for a, b in actors if (a, b) in spans)),
        asks_both="both" in words,
        ranked_by="lines" if v.LINE_WORDS.intersection(words) else "commits",
        excluding=_excluding(text),
        fact_words=intents.fact_words(text),
        own_times=owned,
        doers=tuple(
            dict.fromkeys(text[a:b] for a, b in actors if (a, b) in spans and _doer(text, a))
        ),
        acting=tuple(dict.fromkeys(text[a:b] for a, b in acting(tokens, spans))),
        kinds_alone=tuple(alone),
        beside=besides,
        placed=runs.placed(text, unread),
        compares=compares(text, references),
        slots=_slots(question, expression, reading.which_day),
        time_reasons=tuple((p, reasons.reason(p)) for p in not_understood),
        time_repeated=repeated,
        two_times=()
        if ended
        else two_times(text, time, [p for p in reading.ignored if p not in repeated], now),
    )


def asks_nothing(
    unread: tuple[str, ...], besides: tuple[runs.Beside, ...], references: tuple[str, ...]
) -> tuple[meaning.Unasked, ...]:
    """ "blorp werkzeug quantum", "werkzeug quantum": no question word, fact or health word
    read, and words no rule read beside what it names: the question asks nothing read here,
    and was answered with the subject's health over a default window. Ends, naming them; a
    question naming nothing known says its words through its no match."""
    if not references:
        return ()
    words = [*unread, *(w for b in besides for w in b.words)]
    if not words:
        return ()
    phrase = " ".join(dict.fromkeys(words))
    return (meaning.Unasked(phrase, f'"{phrase}": {v.ASKS_NOTHING}'),)


def _slots(
    question: str, expression: str | None, which_day: dict[str, tuple[tc.Period, ...]]
) -> tuple[Slot, ...]:
    """Where the time phrase and each slash date asked about stand in the question as asked."""
    found = [sl.of_time(question, expression)] if expression else []
    return (*found, *(sl.of_date(question, phrase) for phrase in which_day))


def _same_time(phrase: str, time: tp.TimeMatch | None, now: datetime) -> bool:
    """A later phrase that reads as the very time the first one does ("in 2025" twice)."""
    match = tp.read_time(phrase[:MAX_QUESTION], now).match
    if match is None or time is None:
        return match is None and time is None
    return (match.as_of, match.start_at, match.end_at) == (time.as_of, time.start_at, time.end_at)


# Intents that count over a window.
_COUNTING = frozenset({Intent.COUNT, Intent.WHO, Intent.WHAT_CHANGED, Intent.RANKED})
# What a count leaving bots out is answered for: commits and people (engine/questions/count.py)
_BOTS_COUNTED = frozenset({FactKind.COMMIT_ACTIVITY, FactKind.ACTIVE_CONTRIBUTORS})


def _time_beside(
    text: str,
    time: tp.TimeMatch | None,
    reading: tp.TimeReading,
    tokens: list[r.Token],
    spans: list[tuple[int, int]],
    notes: list[str],
) -> tuple[tp.TimeMatch | None, list[tuple[int, int]]]:
    """The time phrase, or None when a word beside it that could change it was left unread
    (engine.reading.time.beside): the phrase and the word are then said not understood, and
    a name guessed from the word ("around" of "around 2019" alone) is no name. Its tokens are
    taken, so the words are named once. With no phrase read, a unit of the calendar nothing
    read ("lst month") is said not understood the same way."""
    guessed = {"references_by_position", "references_unread"} & set(notes)
    known = [] if guessed else spans  # guessed names are words nothing read
    unread = [t.free and not _overlaps((t.start, t.end), known) for t in tokens]
    names = [
        u and r.content(t) and t.norm not in v.FILLERS for u, t in zip(unread, tokens, strict=True)
    ]
    if time is None:  # a unit of the calendar nothing read ("lst month"): a time named
        found = beside.unread_unit(text, tokens, unread)
    else:
        found = beside.unread_beside(text, time.start, time.end, tokens, unread, names)
        # "lst month in 2025": a time counted from now and not understood beside the one read
        unit = None if found else beside.unread_unit(text, tokens, unread, beside_a_time=True)
        if unit is not None:
            found = (min(unit[0], time.start), max(unit[1], time.end))
    if found is None:
        return time, spans
    reading.not_understood.append(text[found[0] : found[1]].strip())
    reading.unknown_spans.append(found)
    notes.append("time_expression_not_understood")
    reading.match = None
    for token in tokens:
        if found[0] <= token.start and token.end <= found[1]:
            token.free = False
    return None, [s for s in spans if not found[0] <= s[0] < found[1]]


def _anyone(words: list[str], intent: Intent) -> bool:
    """ "Is anyone still maintaining X?", "does anybody still touch X?": whether X is still
    changed (asked of anyone), not who changed it."""
    return intent == Intent.WHO and words[:1] in _YES_NO_OPENING and "who" not in words


# Words opening a question answered yes or no ("does anyone still touch X?").
_YES_NO_OPENING = [[w] for w in ("is", "are", "does", "do", "has", "have", "was", "were")]


def _kind_hint(tokens: list[r.Token]) -> SubjectKind | None:
    return next((KIND_WORDS[t.norm] for t in tokens if t.free and t.norm in KIND_WORDS), None)


def _doer(text: str, start: int) -> bool:
    """Whether the words at `start` follow "did" or "does" (engine.reading.references reads
    them)."""
    before = text[:start].rstrip().rsplit(maxsplit=1)
    return bool(before) and before[-1].lower() in ("did", "does")


def _named_spans(
    text: str,
    tokens: list[r.Token],
    spans: list[tuple[int, int]],
    notes: list[str],
    actors: list[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Quoted and known names (`spans`), then names before kind words and paths beside
    them, and unread words right after "did" or "by" beside them (added to `actors` too);
    by position only when none of these named anything."""
    for named in (kindwords.before_kind_words(text, tokens), r.paths(text, tokens)):
        spans += [s for s in named if not _overlaps(s, spans)]
    if spans:  # who acted, unknown beside a known name ("did davidism make to core.py")
        actors += r.after_actor_words(text, tokens, spans)
        spans += actors
    if not spans:  # "when was the changelog last changed?": a file described
        spans = r.file_nouns(tokens)
    if not spans:
        spans = r.fallback(text, tokens)
        if spans:
            notes.append("references_by_position")
    if not spans:  # words nothing read, in a question naming nothing else ("parsr")
        spans = r.unread(text, tokens, [])
        if spans:
            notes.append("references_unread")
    spans = sorted(set(spans))
    if len(spans) > MAX_REFERENCES:
        notes.append("references_truncated")
        spans = spans[:MAX_REFERENCES]
    return spans


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and span[1] > start for start, end in spans)


def _excluding(text: str) -> tuple[str, str] | None:
    """The word leaving a subject out ("besides", "apart from"), and what follows it."""
    found = v.EXCLUDING.search(f"{text.lower()} ")
    return None if found is None else (found.group(1), normalise(text[found.end() :]))
