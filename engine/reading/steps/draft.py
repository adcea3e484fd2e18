"""A question mid-reading: what each step of engine.reading.interpreter.interpret read, for
the steps after it and the Interpretation built last. One mutable record, so that a step is
a function of what was read before it (never a tuple of twenty names handed on)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.reading import meaning, runs
from engine.reading.bots import BotsAsked
from engine.reading.brackets import Bracketed
from engine.reading.merges import Merges
from engine.reading.periodpairs import Named
from engine.reading.ranking import Ranking
from engine.reading.references import Token
from engine.reading.slips import Slip
from engine.reading.time import phrases as tp
from engine.reading.vocabulary import Intent


@dataclass
class Draft:
    """What was read so far; the steps fill it in their order (engine/reading/steps)."""

    question: str  # as asked, in composed form
    now: datetime
    text: str = ""  # the first question of several, capped at MAX_QUESTION
    notes: list[str] = field(default_factory=list)
    unanswered: str | None = None  # the questions after the first
    reading: tp.TimeReading = field(default_factory=tp.TimeReading)
    time: tp.TimeMatch | None = None  # the time phrase used
    tokens: list[Token] = field(default_factory=list)
    readable: list[Token] = field(default_factory=list)  # copied before the fact phrases
    spans: list[tuple[int, int]] = field(default_factory=list)  # the names read
    bracketed: list[Bracketed] = field(default_factory=list)
    opening: list[str] = field(default_factory=list)  # the words opening it, asking nothing
    slipped: list[Slip] = field(default_factory=list)
    # the words and fact phrases
    broken_down: bool = False
    pronouns: tuple[str, ...] = ()
    kinds: list[FactKind] = field(default_factory=list)
    fact_kinds: list[FactKind] = field(default_factory=list)  # as asked, before the intent's
    net: bool = False
    merges: Merges | None = None
    bots: str | None = None
    only: BotsAsked | None = None
    bots_only: str | None = None
    shares: bool = False  # each person's share asked (engine.reading.shares)
    words: list[str] = field(default_factory=list)
    kind_hint: SubjectKind | None = None
    ranking: Ranking | None = None
    ranked: tuple[meaning.Unasked, ...] = ()
    ranked_by: str = "commits"  # "lines" when a line word is asked (words.facts)
    actors: list[tuple[int, int]] = field(default_factory=list)
    alone: list[tuple[str, SubjectKind | None]] = field(default_factory=list)
    references: tuple[str, ...] = ()
    named_words: frozenset[str] = frozenset()
    # what is asked
    asks_last: bool = False
    firsts: list[str] = field(default_factory=list)
    first: bool = False
    lived: tuple[str, str] | None = None
    life: str | None = None
    intent: Intent = Intent.STATUS
    reread: tuple[meaning.Unasked, ...] = ()
    counting: bool = False
    ranked_unit: str | None = None
    per_period: tuple[str, str] | None = None
    # two periods compared
    base: tuple[datetime, datetime] | None = None
    refused: tuple[meaning.Unasked, ...] = ()
    pair: Named | None = None
    # what is said beside the answer
    kinds_after: dict[str, SubjectKind | None] = field(default_factory=dict)
    unasked: tuple[meaning.Unasked, ...] = ()
    unread: tuple[str, ...] = ()
    expression: str | None = None
    not_understood: tuple[str, ...] = ()
    owned: tuple[str, ...] = ()
    repeated: tuple[str, ...] = ()
    ended: bool = False
    besides: tuple[runs.Beside, ...] = ()
    acted: tuple[str, ...] = ()
