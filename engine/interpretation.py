"""Deterministic question interpretation: references, fact kinds, time and intent, no model.

The question is untrusted data. Nothing in it changes behaviour beyond the rules below, and
every reference is a verbatim substring of the question: interpretation never invents a
subject. Questions are capped at MAX_QUESTION characters (the rest is ignored, with a note),
which bounds every scan here, including the `known_handles` probes.

Tokens are runs of letters, digits and `- _ / .` (so `payments-api` and `api.v2` stay whole),
with `.`, `-` and `/` trimmed from their edges; control characters (NUL included) separate
tokens. Words are compared after `engine.text.normalise`.

References, in order of appearance:
1. quoted text ("...", '...', `...`, “...”), verbatim; quoted text is never read as
   vocabulary or time;
2. spans the caller's `known_handles` accepts: runs of 1..5 free tokens, longest first,
   without overlap, that neither start nor end with a stop or vocabulary word;
3. only when 1 and 2 found nothing, a fallback: after a trigger word (is, are, for, of, about,
   did, does, owned, ...) and any stop or kind words, the next 1..3 tokens up to a stop,
   vocabulary or kind word ("why is payments-api behind?" -> "payments-api"; "is the
   checkout service late?" -> "checkout").
Tokens join into one reference only across plain spaces, never across punctuation.

Intents (closed): `why_behind` (why + a degradation word), `who_owns` (ownership asked by
who, or which/what + team/person), `which` (which/what/list/show: a set of subjects),
`trend` (how something changed over time), `status` (everything else).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise

from engine import timecontext as tc
from engine.facts import FactKind
from engine.models import SubjectKind
from engine.text import normalise

# The closed intent vocabulary (see the module docstring).
INTENTS = ("why_behind", "which", "who_owns", "status", "trend")
MAX_QUESTION = 2_000
MAX_REFERENCE = 200  # the resolver refuses longer references
MAX_REFERENCES = 8
MAX_HANDLE_PROBES = 1_000
MAX_NGRAM = 5

_K = FactKind


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_BEHIND = (_K.WORK_ITEMS_OVERDUE, _K.THROUGHPUT, _K.CYCLE_TIME)
_INCIDENTS = (_K.INCIDENT_COUNT, _K.OPEN_INCIDENTS, _K.TIME_TO_RESOLVE)
_DEPLOYS = (_K.DEPLOY_FREQUENCY,)
_FAILED_DEPLOYS = (_K.DEPLOY_FREQUENCY, _K.FAILED_DEPLOYS)
_OWNER = (_K.OWNERSHIP,)

# Normalised phrase -> the fact kinds it asks about. Matched on whole tokens, at each position
# the longest phrase first ("shipping to prod" before "shipping").
FACT_VOCABULARY: dict[str, tuple[FactKind, ...]] = {
    **dict.fromkeys(("behind", "late", "slipping", "overdue", "delayed"), _BEHIND),
    **dict.fromkeys(("incident", "incidents", "outage", "outages", "on fire"), _INCIDENTS),
    "open incidents": (_K.OPEN_INCIDENTS,),
    **dict.fromkeys(("time to resolve", "mttr"), (_K.TIME_TO_RESOLVE,)),
    **dict.fromkeys(("throughput", "velocity", "shipping"), (_K.THROUGHPUT,)),
    **dict.fromkeys(("cycle time", "lead time", "slow reviews"), (_K.CYCLE_TIME,)),
    **dict.fromkeys(("pull requests", "prs", "open prs"), (_K.OPEN_PULL_REQUESTS,)),
    **dict.fromkeys(
        ("deploy", "deploys", "deployment", "deployments", "release", "releases"), _DEPLOYS
    ),
    "shipping to prod": _DEPLOYS,
    **dict.fromkeys(("rollback", "rollbacks", "rolled back"), _FAILED_DEPLOYS),
    **dict.fromkeys(("own", "owner", "owners", "owns", "owned", "who owned", "ownership"), _OWNER),
    **dict.fromkeys(("commits", "activity"), (_K.COMMIT_ACTIVITY,)),
    **dict.fromkeys(("churn", "churning", "lines changed", "code churn"), (_K.CHURN,)),
    **dict.fromkeys(
        ("contributors", "contributor", "driven", "drove", "contributed", "committers"),
        (_K.ACTIVE_CONTRIBUTORS,),
    ),
    **dict.fromkeys(("bus factor", "key person risk", "knowledge silo"), (_K.BUS_FACTOR,)),
}
# With a deploy word present, these also ask for failed deploys ("failed releases").
FAILURE_WORDS = frozenset({"failed", "failing", "broken"})
# Kind words name what kind of subject the question is about; never a reference alone.
KIND_WORDS: dict[str, SubjectKind] = {
    **dict.fromkeys(("service", "services"), SubjectKind.SERVICE),
    **dict.fromkeys(("repo", "repos", "repository", "repositories"), SubjectKind.REPOSITORY),
    **dict.fromkeys(("team", "teams", "squad", "squads"), SubjectKind.TEAM),
    **dict.fromkeys(("person", "people", "persons", "engineer", "engineers"), SubjectKind.PERSON),
    **dict.fromkeys(("project", "projects"), SubjectKind.PROJECT),
    **dict.fromkeys(("module", "modules"), SubjectKind.MODULE),
}
_PLURAL_KINDS = frozenset(w for w in KIND_WORDS if w.endswith("s") or w == "people")
STOP_WORDS = _words(
    "a an the is are was were be been being do does did has have had having of for about in "
    "on at to from by with and or but not no vs versus what whats which who whom whose why how "
    "when where it its this that these those there their our my your we i you me us they them "
    "any all some most more much many than over per each can could should would will please "
    "show tell give list find get right now currently lately recently status state health "
    "healthy trend trends trending doing going happening changed change so very much up down "
    "compared worse better getting lot lots changes"
)
_TRIGGERS = _words("is are was were for of about did does owned owns in with has have to")
_SKIPPED = STOP_WORDS | frozenset(KIND_WORDS)  # "is the checkout service": "checkout"
_DEGRADATION_WORDS = _words("slow slower failing failed broken stuck worse")
_DEGRADATION = frozenset(_BEHIND + _INCIDENTS + (_K.FAILED_DEPLOYS,))
_TREND_WORDS = _words("trend trends trending changed change")

# --- time expressions ------------------------------------------------------------------
# Relative to `now`, UTC. A range is closed [start, end], its end the last microsecond of the
# period named (Q3 ends at 09-30T23:59:59.999999); a period under way ends at `now`. "as of"
# and "on" give a point (the first instant of the day or month named). A month, quarter or
# day without a year is the most recent one that has started. Only the first expression is
# used; a later one is noted, never merged.

_MONTH_NAMES = (
    "january jan|february feb|march mar|april apr|may|june jun|july jul|august aug|"
    "september sept sep|october oct|november nov|december dec"
)
_MONTHS = {n: i for i, names in enumerate(_MONTH_NAMES.split("|"), 1) for n in names.split()}
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_NUMBERS = {word: n for n, word in enumerate((*_NUMBER_WORDS, "ten", "eleven", "twelve"))}
TIME_WORDS = frozenset(
    {n for n in _MONTHS if len(n) > 3}
    | {"q1", "q2", "q3", "q4", "since", "between", "ago"}
    | _words("today yesterday last this previous past current hour hours day days week weeks")
    | _words("month months quarter year years")
)
_MONTH = "(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b"
_ORD = r"\d{1,2}(?:st|nd|rd|th)?"
_DAY_DATE = (
    rf"(?:\d{{4}}-\d{{2}}-\d{{2}}(?!\d)|{_ORD}\s+{_MONTH}(?:\s+\d{{4}}(?!\d))?"
    rf"|{_MONTH}\s+{_ORD}(?:,?\s+\d{{4}})?(?!\d))"
)
_DATE = rf"(?:{_MONTH}\s+\d{{4}}(?!\d)|{_DAY_DATE}|{_MONTH})"
_N = r"(\d{1,4}|" + "|".join(_NUMBERS) + ")"
_UNIT = r"(hour|day|week|month)s?"
_TIME_PATTERNS = [
    (name, re.compile(pattern, re.IGNORECASE | re.ASCII))
    for name, pattern in (
        ("between", rf"\bbetween\s+({_DATE})\s+and\s+({_DATE})"),
        ("as_of", rf"\bas\s+(?:of|at)\s+({_DATE})"),
        ("on", rf"\bon\s+({_DAY_DATE})"),
        ("since", rf"\bsince\s+({_DATE})"),
        ("quarter", r"\b(?:in|during)\s+q([1-4])(?:\s+(\d{4}))?\b"),
        ("in", rf"\b(?:in|during)\s+({_DATE}|\d{{4}}(?![-\d]))"),
        ("last_n", rf"\b(?:(?:in|over|during)\s+)?the\s+(?:last|past)\s+{_N}\s+{_UNIT}\b"),
        ("last_n", rf"\b(?:last|past)\s+{_N}\s+{_UNIT}\b"),
        ("ago", rf"\b{_N}\s+{_UNIT}\s+ago\b"),
        ("relative", r"\b(last|this|previous|current)\s+(week|month|quarter|year)\b"),
        ("day", r"\b(yesterday|today)\b"),
    )
]


@dataclass(frozen=True, slots=True)
class TimeMatch:
    start: int  # the span of the expression in the text
    end: int
    as_of: datetime | None
    start_at: datetime | None
    end_at: datetime | None


def _date(text: str, now: datetime) -> tc.Period:
    """A date phrase (2026-03-01, 1 March 2026, March 1, March 2026, March) as its period."""
    words = text.lower().replace(",", " ").split()
    if len(words) == 1 and words[0][:1].isdigit():
        return tc.day_period(*(int(p) for p in words[0].split("-")))
    month = next((_MONTHS[w] for w in words if w in _MONTHS), None)
    if month is None:
        raise ValueError("no month named")
    numbers = [w.rstrip("stndrh") for w in words if w[:1].isdigit()]
    year = next((int(n) for n in numbers if len(n) == 4), None)
    day = next((int(n) for n in numbers if len(n) <= 2), None)
    if day is not None:
        if year is not None:
            return tc.day_period(year, month, day)
        return tc.most_recent(lambda y: tc.day_period(y, month, day), now)
    if year is not None:
        return tc.month_period(year, month)
    return tc.most_recent(lambda y: tc.month_period(y, month), now)


def _span(n: str, unit: str, now: datetime) -> datetime:
    count = int(n) if n.isdigit() else _NUMBERS.get(n.lower(), 0)
    if unit.lower() == "month":
        return tc.months_before(now, count)
    return now - timedelta(**{unit.lower() + "s": count})


def _evaluate(
    name: str, g: tuple[str | None, ...], now: datetime
) -> tuple[datetime | None, datetime | None, datetime | None]:
    """(as_of, start, end) of one matched expression; ValueError when it names no real date."""
    a, b = g[0] or "", g[1] if len(g) > 1 else None
    if name == "between":
        return None, _date(a, now)[0], tc.closed(_date(b or "", now), now)[1]
    if name in ("as_of", "on"):
        return _date(a, now)[0], None, None
    if name == "since":
        return None, _date(a, now)[0], None
    if name == "last_n":
        return None, _span(a, b or "", now), now
    if name == "ago":
        return _span(a, b or "", now), None, None
    if name == "quarter":
        q = int(a)
        period = tc.quarter_period(int(b), q) if b else tc.recent_quarter(q, now)
    elif name == "in":
        period = tc.year_period(int(a)) if a.isdigit() else _date(a, now)
    elif name == "relative":
        shift = -1 if a.lower() in ("last", "previous") else 0
        period = tc.period_of((b or "").lower(), now, shift)
    else:
        period = tc.day_period(now.year, now.month, now.day)
        if a.lower() == "yesterday":
            period = (period[0] - timedelta(days=1), period[0])
    start, end = tc.closed(period, now)
    return None, start, end


def find_time(text: str, now: datetime, notes: list[str]) -> TimeMatch | None:
    found: list[TimeMatch] = []
    for name, pattern in _TIME_PATTERNS:
        for match in pattern.finditer(text):
            try:
                as_of, start, end = _evaluate(name, match.groups(), now)
            except (ValueError, OverflowError):
                notes.append("time_expression_not_a_date")
                continue
            found.append(TimeMatch(match.start(), match.end(), as_of, start, end))
    if not found:
        return None
    first = min(found, key=lambda m: (m.start, -m.end))
    if any(m.start >= first.end for m in found):
        notes.append("later_time_expression_ignored")
    return first


def parse_time_expression(
    text: str, now: datetime
) -> tuple[datetime | None, datetime | None, datetime | None] | None:
    """(as_of, start, end) of the first time expression in `text`, or None when it has none."""
    match = find_time(text[:MAX_QUESTION], tc.to_utc(now), [])
    return None if match is None else (match.as_of, match.start_at, match.end_at)


_VOCABULARY_WORDS = (
    frozenset(word for phrase in FACT_VOCABULARY for word in phrase.split())
    | FAILURE_WORDS
    | _DEGRADATION_WORDS
    | TIME_WORDS
)

_TOKEN = re.compile(r"[\w\-/.]+")
_QUOTED = re.compile(
    r"(?<!\w)(?:\"([^\"\x00]+)\"|'([^'\x00]+)'|`([^`\x00]+)`|\u201c([^\u201d\x00]+)\u201d)(?!\w)"
)


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What a question asks, as data. Every reference is a substring of the question.

    kind_hint: the subject kind a kind word names ("which services ..."): what the question
    is about, a hint only; it need not be the kind of any reference.
    time_expression: the matched text of the time expression, when there was one;
    as_of/start/end then hold its instants (a range is closed [start, end]; end None = now).
    """

    references: tuple[str, ...]
    fact_kinds: tuple[FactKind, ...]
    as_of: datetime | None
    start: datetime | None
    end: datetime | None
    time_expression: str | None
    intent: str
    kind_hint: SubjectKind | None
    notes: tuple[str, ...]


@dataclass(slots=True)
class _Token:
    start: int
    end: int
    norm: str
    free: bool = True  # not quoted, not part of the time expression, not a fact phrase


def _tokens(text: str) -> list[_Token]:
    out = []
    for match in _TOKEN.finditer(text):
        raw = match.group()
        left = len(raw) - len(raw.lstrip(".-/"))
        right = len(raw.rstrip(".-/"))
        if right > left:
            start = match.start()
            out.append(_Token(start + left, start + right, normalise(raw[left:right])))
    return out


def _quoted(text: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(inner span without edge spaces, whole span with the quotes) of each quoted text."""
    spans = []
    for match in _QUOTED.finditer(text):
        group = next(g for g in range(1, 5) if match.group(g) is not None)
        start, end = match.span(group)
        inner = text[start:end]
        start, end = start + len(inner) - len(inner.lstrip()), start + len(inner.rstrip())
        if 0 < end - start <= MAX_REFERENCE:
            spans.append(((start, end), match.span()))
    return spans


def _fact_kinds(tokens: list[_Token]) -> list[FactKind]:
    """Fact phrases over the free tokens, longest first at each position; consumes them."""
    kinds: list[FactKind] = []
    failure = False
    longest = max(len(p.split()) for p in FACT_VOCABULARY)
    i = 0
    while i < len(tokens):
        matched = 0
        for size in range(min(longest, len(tokens) - i), 0, -1):
            window = tokens[i : i + size]
            phrase = " ".join(t.norm for t in window)
            if all(t.free for t in window) and phrase in FACT_VOCABULARY:
                kinds.extend(k for k in FACT_VOCABULARY[phrase] if k not in kinds)
                for t in window:
                    t.free = False
                matched = size
                break
        failure = failure or (tokens[i].free and tokens[i].norm in FAILURE_WORDS)
        i += max(matched, 1)
    if failure and _K.DEPLOY_FREQUENCY in kinds and _K.FAILED_DEPLOYS not in kinds:
        kinds.append(_K.FAILED_DEPLOYS)
    return kinds


def _content(token: _Token) -> bool:
    return (
        token.free
        and bool(token.norm)
        and token.norm not in STOP_WORDS
        and token.norm not in _VOCABULARY_WORDS
        and token.norm not in KIND_WORDS
    )


def _adjacent(text: str, left: _Token, right: _Token) -> bool:
    """Only plain spaces between two tokens join them into one reference."""
    return right.start > left.end and not text[left.end : right.start].strip(" \t")


def _by_handles(
    text: str, tokens: list[_Token], known: Callable[[str], bool], notes: list[str]
) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    taken = [False] * len(tokens)
    probes = 0
    for size in range(MAX_NGRAM, 0, -1):
        for i in range(len(tokens) - size + 1):
            window = tokens[i : i + size]
            if any(taken[i : i + size]) or not all(t.free and t.norm for t in window):
                continue
            if not (
                _content(window[0]) and (_content(window[-1]) or window[-1].norm in KIND_WORDS)
            ):
                continue
            if any(t.norm in _VOCABULARY_WORDS for t in window) or not all(
                _adjacent(text, a, b) for a, b in pairwise(window)
            ):
                continue
            span = (window[0].start, window[-1].end)
            if span[1] - span[0] > MAX_REFERENCE:
                continue
            if probes >= MAX_HANDLE_PROBES:
                notes.append("handle_probe_budget_exhausted")
                return spans
            probes += 1
            if known(text[span[0] : span[1]]):
                spans.append(span)
                taken[i : i + size] = [True] * size
    return spans


def _fallback(text: str, tokens: list[_Token]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if tokens[i].norm not in _TRIGGERS:
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].free and tokens[j].norm in _SKIPPED:
            j += 1
        k = j
        while k < len(tokens) and k - j < 3 and _content(tokens[k]):
            k += 1
            if k < len(tokens) and not _adjacent(text, tokens[k - 1], tokens[k]):
                break
        if k > j and tokens[k - 1].end - tokens[j].start <= MAX_REFERENCE:
            spans.append((tokens[j].start, tokens[k - 1].end))
        i = max(k, i + 1)
    return spans


def _intent(words: list[str], kinds: list[FactKind], kind_hint: SubjectKind | None) -> str:
    """The closed intent vocabulary; see the module docstring."""
    lead = next((w for w in words if w in {"why", "which", "what", "who", "list", "show"}), "")
    asks_owner = _K.OWNERSHIP in kinds
    if lead == "why" and (
        any(k in _DEGRADATION for k in kinds) or _DEGRADATION_WORDS.intersection(words)
    ):
        return "why_behind"
    if asks_owner and (
        lead == "who" or kind_hint in {SubjectKind.TEAM, SubjectKind.PERSON} or "whose" in words
    ):
        return "who_owns"
    if any(w in _TREND_WORDS for w in words) or " over time " in f" {' '.join(words)} ":
        return "trend"
    if lead == "which" or (lead in {"what", "list", "show"} and _PLURAL_KINDS.intersection(words)):
        return "which"
    return "status"


def interpret(
    question: str, now: datetime, known_handles: Callable[[str], bool] | None = None
) -> Interpretation:
    """Interpret a question relative to `now`. Never raises on any text; `known_handles`
    (optional) tells whether a span of the question names a known subject handle."""
    now = tc.to_utc(now)
    notes: list[str] = []
    text = question
    if len(text) > MAX_QUESTION:
        text = text[:MAX_QUESTION]
        notes.append("question_truncated")
    quoted = _quoted(text)
    # Quoted text is blanked with NULs (never in a quote): no token, phrase or time expression
    # can see into it or reach across it, and every offset still points into `text`.
    blanked = list(text)
    for _, (start, end) in quoted:
        blanked[start:end] = "\x00" * (end - start)
    unquoted = "".join(blanked)

    time = find_time(unquoted, now, notes)
    tokens = _tokens(unquoted)
    for token in tokens:
        if time is not None and token.start < time.end and token.end > time.start:
            token.free = False
    kinds = _fact_kinds(tokens)
    words = " ".join(t.norm for t in tokens).split()
    kind_hint = next((KIND_WORDS[t.norm] for t in tokens if t.free and t.norm in KIND_WORDS), None)

    spans = [inner for inner, _ in quoted]
    if known_handles is not None:
        spans += _by_handles(text, tokens, known_handles, notes)
    if not spans:
        spans = _fallback(text, tokens)
        if spans:
            notes.append("references_by_position")
    spans = sorted(set(spans))
    if len(spans) > MAX_REFERENCES:
        notes.append("references_truncated")
        spans = spans[:MAX_REFERENCES]
    references = tuple(dict.fromkeys(text[a:b] for a, b in spans))
    return Interpretation(
        references=references,
        fact_kinds=tuple(kinds),
        as_of=time.as_of if time else None,
        start=time.start_at if time else None,
        end=time.end_at if time else None,
        time_expression=text[time.start : time.end] if time else None,
        intent=_intent(words, kinds, kind_hint),
        kind_hint=kind_hint,
        notes=tuple(dict.fromkeys(notes)),
    )
