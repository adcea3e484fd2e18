"""The first steps of interpret: the words read before what is asked is known. The question's
time phrases and names first (a time phrase is never a name, a known name may hold fact
words), then the words opening it, the fact phrases, merges and bots, a ranking, and the names
read from the words left (engine/reading/claims.py: the order)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from engine.domain import timecontext as tc
from engine.domain.facts import FactKind
from engine.domain.text import composed, normalise
from engine.reading import (
    brackets,
    clauses,
    factphrases,
    kindwords,
    meaning,
    openers,
    ordinary,
    periodcounts,
    slips,
)
from engine.reading import intentkinds as ik
from engine.reading import references as r
from engine.reading import vocabulary as v
from engine.reading.asked import first_nouns
from engine.reading.bots import outside, read_bots, read_bots_only
from engine.reading.interpretation import MAX_QUESTION
from engine.reading.merges import read_merges
from engine.reading.names import named_spans
from engine.reading.netlines import read_net
from engine.reading.perperson import read_breakdown
from engine.reading.pronouns import read_pronouns
from engine.reading.ranking import read as read_ranking
from engine.reading.steps.draft import Draft
from engine.reading.timeexpression import find_time
from engine.reading.tokens import free_tokens


def opened(
    question: str, now: datetime, known_handles: Callable[[str], bool] | None
) -> Draft:
    """The first question of several, its time phrases and the names read before any
    vocabulary: quoted, in brackets, described ("the werkzeug test suite"), known."""
    question = composed(question)
    d = Draft(question, tc.to_utc(now))
    text = question
    if len(text) > MAX_QUESTION:
        text = text[:MAX_QUESTION]
        d.notes.append("question_truncated")
    quoted = r.quoted(text)
    unquoted = r.blank_quotes(text, quoted)
    text, unquoted, d.unanswered = clauses.first_and_rest(text, unquoted)
    d.text = text
    quoted = [q for q in quoted if q[1][1] <= len(text)]
    d.reading = find_time(unquoted, d.now, d.notes)
    d.time = d.reading.match
    tokens = free_tokens(unquoted, d.reading)
    first_nouns(tokens)
    d.spans = [inner for inner, _ in quoted]
    d.bracketed = brackets.read(text, tokens, known_handles)  # "the debugger (werkzeug.debug)"
    d.spans += [b.span for b in d.bracketed]
    d.spans += r.by_descriptions(text, tokens, known_handles)  # "the werkzeug test suite"
    if known_handles is not None:
        d.spans += r.by_handles(text, tokens, known_handles, d.notes)
    # "Judging by commits,", "Rank the people": asking nothing; every later reading reads the
    # question after them ("Quick question: when did X first change?" starts at "when").
    skipped = openers.read(tokens)
    d.opening = [t.norm for t in tokens[:skipped]]  # "list": names asked, never a count
    d.tokens = tokens = tokens[skipped:]
    ordinary.read_when(tokens)  # "on what date did X last commit?": asks when
    periodcounts.read_breaking(tokens)  # "Break down X's commits by month": no name
    d.slipped = slips.read_slips(text, tokens)  # "chnages", "comits": read as the word missed
    # copied before the fact phrases take theirs ("new contributors")
    d.readable = [replace(t) for t in tokens]
    return d


def facts(d: Draft) -> None:
    """The fact phrases, net lines, merges and bots, a ranking, and the names read from the
    words left; the words of the question that are no name."""
    text, tokens, readable = d.text, d.tokens, d.readable
    # "by author", "per person": the people ranked (before "contributor" is a fact phrase)
    d.broken_down = read_breakdown(tokens) is not None
    d.pronouns = read_pronouns(tokens)  # "his first commit": the one person named
    d.kinds = factphrases.fact_kinds(tokens)
    d.net = read_net(tokens, FactKind.CHURN in d.kinds or ik.lines_asked(tokens))
    d.merges = read_merges(text, tokens, readable)
    bots_at = read_bots(tokens, readable)
    d.bots = None if bots_at is None else text[bots_at[0] : bots_at[1]]
    d.only = read_bots_only(tokens, readable)  # "bot commits": the bots' own part
    d.bots_only = None if d.only is None else text[d.only.start : d.only.end]
    d.fact_kinds = list(d.kinds)  # as asked, before an intent's defaults
    # A path or dotted module name is one name, its parts no words of the question's
    # ("what is the bus factor of attr._make?": "make" asked what changed).
    named = outside([t for t in tokens if not r.is_written_name(text[t.start : t.end])], bots_at)
    words = " ".join(t.norm for t in named).split()
    d.kind_hint = ik.kind_hint(tokens)
    d.ranking = read_ranking(tokens, d.fact_kinds, d.kind_hint)  # consumes "top 5", "files"
    d.ranked_by = "lines" if v.LINE_WORDS.intersection(words) else "commits"
    few = meaning.few_only(d.ranked_by, d.bots, d.bots_only)
    d.ranked = meaning.top(text, tokens, few) if d.ranking is None else ()  # "the top 3" people
    d.spans = named_spans(text, tokens, d.spans, d.notes, d.actors)
    # A name that is a verb ("the make module") asks nothing: "what is the bus factor of
    # the make module?" read "make" as asking what changed.
    names = {normalise(text[a:b]) for a, b in d.spans}
    d.words = [w for w in words if w not in names or w not in v.CHANGE_VERBS]
    free = sum(t.free for t in tokens)
    spans, ranking = d.spans, d.ranking
    d.alone = kindwords.alone(text, tokens, spans) if spans and ranking is None else []
    if sum(t.free for t in tokens) < free:  # "the repo" beside "the docs", "X in the repo"
        d.kind_hint = ik.kind_hint(tokens)  # a subject of its own or a place: no longer a hint
    d.references = tuple(dict.fromkeys(text[a:b] for a, b in d.spans))
    d.named_words = frozenset(w for name in names for w in name.split())
