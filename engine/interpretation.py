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
who, or which/what + team/person), `who` (people asked for, not as owners: "who changed
X", "which engineers ..."), `count` ("how many"), `what_changed` ("what did X change",
"what changed in X"), `which` (which/what/list/show: a set of subjects), `trend` (how
something changed over time), `status` (everything else).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from engine import timecontext as tc
from engine import timephrases as tp
from engine.facts import FactKind
from engine.models import SubjectKind
from engine.text import normalise

# The closed intent vocabulary (see the module docstring).
INTENTS = ("why_behind", "which", "who_owns", "who", "count", "what_changed", "status", "trend")
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
    **dict.fromkeys(("commits", "commit", "activity"), (_K.COMMIT_ACTIVITY,)),
    **dict.fromkeys(
        ("maintained", "maintenance", "still maintained", "alive", "abandoned", "dormant"),
        (_K.COMMIT_ACTIVITY, _K.ACTIVE_CONTRIBUTORS),
    ),
    **dict.fromkeys(("churn", "churning", "lines changed", "code churn"), (_K.CHURN,)),
    **dict.fromkeys(
        (
            "contributors",
            "contributor",
            "driven",
            "drove",
            "contributed",
            "committers",
            "active",
            "most active",
            "knows",
            "experts",
            "expert",
        ),
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
# What a question of these intents asks when it names no fact ("who changed X?").
_DEFAULT_KINDS = {
    "who": (_K.ACTIVE_CONTRIBUTORS,),
    "count": (_K.COMMIT_ACTIVITY,),
    "what_changed": (_K.CHURN, _K.COMMIT_ACTIVITY),
}
_CHANGE_KINDS = frozenset({_K.ACTIVE_CONTRIBUTORS, _K.CHURN, _K.COMMIT_ACTIVITY, _K.BUS_FACTOR})

# --- time expressions: engine/timephrases.py ----------------------------------------------


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


_VOCABULARY_WORDS = (
    frozenset(word for phrase in FACT_VOCABULARY for word in phrase.split())
    | FAILURE_WORDS
    | _DEGRADATION_WORDS
    | tp.TIME_WORDS
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
    intent: str
    kind_hint: SubjectKind | None
    notes: tuple[str, ...]
    time_not_understood: tuple[str, ...] = ()
    time_ignored: tuple[str, ...] = ()
    # The kind word right after a reference ("the httpx module"), per reference, or None.
    reference_kinds: tuple[SubjectKind | None, ...] = ()
    # How a vague time phrase was read ("lately": the last 90 days), for the answer to state.
    time_note: str | None = None


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


def _nameable(token: _Token) -> bool:
    """May start or end a known name: anything but a stop word. Vocabulary words may
    ("Shipping Store Service"): known names are matched before vocabulary is read."""
    return token.free and bool(token.norm) and token.norm not in STOP_WORDS


def _handle_windows(text: str, tokens: list[_Token]) -> list[tuple[int, int, tuple[int, int]]]:
    """(first token, size, span) of every window that could be a known name, longest first."""
    out = []
    for size in range(MAX_NGRAM, 0, -1):
        for i in range(len(tokens) - size + 1):
            window = tokens[i : i + size]
            if not all(t.free and t.norm for t in window):
                continue
            if not (_nameable(window[0]) and _nameable(window[-1])):
                continue
            # A trailing kind word is left out: a name is looked up with or without the word
            # naming its kind ("Shipping Store" finds "Shipping Store Service").
            if window[0].norm in KIND_WORDS or window[-1].norm in KIND_WORDS:
                continue
            if not all(_adjacent(text, a, b) for a, b in pairwise(window)):
                continue
            span = (window[0].start, window[-1].end)
            if span[1] - span[0] <= MAX_REFERENCE:
                out.append((i, size, span))
    return out


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
    `interpret`."""
    text = question[:MAX_QUESTION]
    unquoted = _blank_quotes(text, _quoted(text))
    tokens = _free_tokens(unquoted, find_time(unquoted, tc.to_utc(now), []))
    return [
        HandleCandidate(size, a, b, text[a:b]) for _, size, (a, b) in _handle_windows(text, tokens)
    ]


def _by_handles(
    text: str, tokens: list[_Token], known: Callable[[str], bool], notes: list[str]
) -> list[tuple[int, int]]:
    """One pass, longest first, without overlap; the tokens of a match are consumed."""
    spans: list[tuple[int, int]] = []
    probes = 0
    for i, size, span in _handle_windows(text, tokens):
        window = tokens[i : i + size]
        if not all(t.free for t in window):
            continue
        if probes >= MAX_HANDLE_PROBES:
            notes.append("handle_probe_budget_exhausted")
            return spans
        probes += 1
        if known(text[span[0] : span[1]]):
            spans.append(span)
            for t in window:
                t.free = False
    return spans


def _blank_quotes(text: str, quoted: list[tuple[tuple[int, int], tuple[int, int]]]) -> str:
    """Quoted text blanked with NULs (never in a quote): no token, phrase or time expression
    can see into it or reach across it, and every offset still points into `text`."""
    blanked = list(text)
    for _, (start, end) in quoted:
        blanked[start:end] = "\x00" * (end - start)
    return "".join(blanked)


def _free_tokens(unquoted: str, reading: tp.TimeReading) -> list[_Token]:
    """Tokens, those of time phrases (understood or not) taken: a phrase about time is
    never read as a name or a fact word ("since the outage" asks no incident question)."""
    spans = list(reading.unknown_spans)
    if reading.match is not None:
        spans.append((reading.match.start, reading.match.end))
    tokens = _tokens(unquoted)
    for token in tokens:
        if any(token.start < end and token.end > start for start, end in spans):
            token.free = False
    return tokens


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
    return spans or _before_kind_words(text, tokens)


def _before_kind_words(text: str, tokens: list[_Token]) -> list[tuple[int, int]]:
    """A name right before a singular kind word ("who changed the foo module"): a subject
    is named, even when no trigger word precedes it."""
    spans = []
    for i, token in enumerate(tokens):
        if not (token.free and token.norm in KIND_WORDS) or token.norm in _PLURAL_KINDS:
            continue
        j = i
        while j > 0 and i - j < 3 and _content(tokens[j - 1]):
            if not _adjacent(text, tokens[j - 1], tokens[j]):
                break
            j -= 1
        if j < i:
            spans.append((tokens[j].start, tokens[i - 1].end))
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
    joined = f" {' '.join(words)} "
    if " how many " in joined or " number of " in joined:
        return "count"
    about_changes = all(k in _CHANGE_KINDS for k in kinds)
    if about_changes and (
        lead == "who"
        or " most active " in joined
        or (lead in {"which", "what"} and kind_hint is SubjectKind.PERSON)
    ):
        return "who"
    if lead == "what" and ("change" in words or "changed" in words) and " over time " not in joined:
        return "what_changed"
    if any(w in _TREND_WORDS for w in words) or " over time " in joined:
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
    unquoted = _blank_quotes(text, quoted)
    reading = find_time(unquoted, now, notes)
    time = reading.match
    tokens = _free_tokens(unquoted, reading)
    spans = [inner for inner, _ in quoted]
    if known_handles is not None:
        spans += _by_handles(text, tokens, known_handles, notes)
    kinds = _fact_kinds(tokens)
    words = " ".join(t.norm for t in tokens).split()
    kind_hint = next((KIND_WORDS[t.norm] for t in tokens if t.free and t.norm in KIND_WORDS), None)
    if not spans:
        spans = _fallback(text, tokens)
        if spans:
            notes.append("references_by_position")
    spans = sorted(set(spans))
    if len(spans) > MAX_REFERENCES:
        notes.append("references_truncated")
        spans = spans[:MAX_REFERENCES]
    references = tuple(dict.fromkeys(text[a:b] for a, b in spans))
    intent = _intent(words, kinds, kind_hint)
    if not kinds:
        kinds = list(_DEFAULT_KINDS.get(intent, ()))
    kinds_after = {text[a:b]: _kind_after(text, tokens, b) for a, b in spans}
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
        time_not_understood=tuple(reading.not_understood + reading.not_a_date),
        time_ignored=tuple(reading.ignored),
        reference_kinds=tuple(kinds_after[r] for r in references),
        time_note=time.note if time else None,
    )


def _kind_after(text: str, tokens: list[_Token], end: int) -> SubjectKind | None:
    """The kind a kind word right after a reference names ("httpx module", "api service");
    a kind word inside the reference ("Shipping Store Service") counts too."""
    after = next((t for t in tokens if t.start >= end), None)
    if after is not None and after.norm in KIND_WORDS and not text[end : after.start].strip():
        return KIND_WORDS[after.norm]
    inside = [t for t in tokens if t.end == end]
    return KIND_WORDS.get(inside[0].norm) if inside else None
