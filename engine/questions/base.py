"""The question-type contract: what every question type reads, and what it may give.

A question type is one way facts answer a question ("how many", "who", "what changed", "is X
still maintained?", "what is the bus factor?" ...). Each is a subclass of `Question` in its
own module of engine/questions/, registered by one row in engine/questions/__init__.py
(`default_questions`, in order). engine/answering/synthesis.py asks them in that order: the
first whose `judgment` is not None heads the answer; every one adds the claims its figures
rest on (`claims`) and may list changes (`changes`). Before that, once the planned facts are
read, engine/investigation/pipeline.py gives each, in the same order, the question as read and
what was read for it (`Asked`) with a `Reader`: a type that needs a read of its own (the last
change before the window, other activity when no contributor record names anyone) makes it in
`read` and returns what it found (`Found`); the pipeline names no question type. Adding a
question type is its module and its row.

Here too: the synthesis input they all read (`SynthesisInput`, with `Case`), and the few
helpers every one of them writes with (a figure read from a fact, a window said, a fact
claimed).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from engine.domain.contract import Axis, ClaimedFact, Driver
from engine.domain.facts import Fact, FactKind
from engine.domain.models import Episode, StoredSubject
from engine.domain.timecontext import iso
from engine.ports import OrgGraph
from engine.providers import ProviderResult, Window
from engine.reading.interpretation import Interpretation
from engine.reading.vocabulary import Intent

if TYPE_CHECKING:
    from engine.questions.changes import Listed

FENCE = "<<untrusted-episode-text>>"


@dataclass(frozen=True)
class SynthesisInput:
    question: str
    intent: Intent
    subjects: tuple[StoredSubject, ...]
    facts: tuple[Fact, ...]
    episodes: tuple[Episode, ...]
    edges: tuple[Any, ...]  # relationships around the subjects (graph edges), for context
    window: Window
    axis: Axis
    organisation_wide: bool = False  # no subject was named: the subjects are the organisation
    asked: tuple[FactKind, ...] = ()  # the fact kinds the question asked for, by its words
    unanswerable: str | None = None  # the judgment when nothing here records what is asked
    # What question types' own reads kept for their judgments, by the type's name (`Found.kept`:
    # "is X still maintained?" keeps each subject's last change before the window).
    kept: Mapping[str, object] = field(default_factory=dict)
    # Read from the question's words (engine.reading.interpreter), never again here:
    # "both" asked, and what a "who" answer ranks people by ("commits" or "lines").
    asks_both: bool = False
    ranked_by: str = "commits"
    bots: str | None = None  # "excluding bots": a ranking of people leaves them out
    bots_only: str | None = None  # "bot commits", "which bots": the bots' own part
    compares: bool = False  # "did X commit more than Y?", "X or Y, who committed more?"
    net: bool = False  # "by how many lines did X grow?": lines added less those removed

    def fenced_episodes(self) -> list[str]:
        """Episode texts as data, for a model-backed synthesizer's prompt."""
        return [f"{FENCE}\n{e.text}\n{FENCE}" for e in self.episodes]


@dataclass(frozen=True)
class Case:
    """What a question type reads: the synthesis input, the subjects' names by key (in the
    order they were named) and the drivers the facts gave (most telling first)."""

    inputs: SynthesisInput
    names: Mapping[str, str]
    drivers: Sequence[Driver] = ()

    @property
    def intent(self) -> Intent:
        return self.inputs.intent

    @property
    def facts(self) -> Sequence[Fact]:
        return self.inputs.facts

    @property
    def window(self) -> Window:
        return self.inputs.window

    @property
    def wide(self) -> bool:
        """No subject was named: the subjects are the organisation."""
        return self.inputs.organisation_wide

    @property
    def asked(self) -> Sequence[FactKind]:
        return self.inputs.asked

    @property
    def answerable(self) -> bool:
        """Something here records what is asked (engine/answering/recordgaps.py)."""
        return self.inputs.unanswerable is None

    @property
    def people_only(self) -> bool:
        """Only people were named (not the organisation)."""
        names = self.names
        return bool(names) and all(k.startswith("person:") for k in names) and not self.wide

    @property
    def scope(self) -> str:
        return scope_of(self.names, self.wide)


@dataclass(frozen=True)
class Asked:
    """What a question type's own read sees: the question as read (never its text), the
    subjects resolved (`subjects`) and named in the answer (`named`: one person's part of a
    module is named as that part), the facts read so far and their window.

    part: one person's part of the subjects is asked (engine/resolving/together.py), that
    person's key `actor` (`others`: everyone else's part, and none of `also`'s); wide: no
    subject was named, the subjects are the organisation's; ranged: the question named its
    time."""

    understood: Interpretation
    subjects: tuple[StoredSubject, ...]
    named: tuple[StoredSubject, ...]
    facts: tuple[Fact, ...]
    window: Window
    part: bool = False
    wide: bool = False
    ranged: bool = False
    actor: str | None = None
    others: bool = False
    also: tuple[str, ...] = ()

    @property
    def intent(self) -> Intent:
        return self.understood.intent

    @property
    def asked(self) -> tuple[FactKind, ...]:
        return self.understood.fact_kinds

    @property
    def names(self) -> dict[str, str]:
        return {s.key: s.name for s in self.named}


@dataclass(frozen=True)
class Found:
    """What a question type's own read found, for the pipeline to use.

    results: more facts, read beside the planned ones; start: read everything again from
    there instead of the window's start (the window then is not the one the question named,
    so a note saying the window was chosen for it no longer holds), and up to `end` when
    given (the first change: its second alone); notes: limitations the
    answer states; unanswerable: the judgment, when what is asked is not recorded; kept:
    anything the type's own judgment reads back (`SynthesisInput.kept`, by its name)."""

    results: tuple[ProviderResult, ...] = ()
    start: datetime | None = None
    end: datetime | None = None
    notes: tuple[str, ...] = ()
    unanswerable: str | None = None
    kept: object = None


class Reader(Protocol):
    """What a question type's own read may read with (the pipeline gives it)."""

    @property
    def graph(self) -> OrgGraph:
        """The organisation's graph (counts and records in the store)."""
        ...

    async def facts(
        self, subjects: Sequence[StoredSubject], kinds: Sequence[FactKind], window: Window
    ) -> list[ProviderResult]:
        """The facts of `kinds` the providers give for `subjects` over `window`, planned as
        the question's own are (and of one person's part, when that is asked)."""
        ...

    async def unanswerable(self) -> str | None:
        """The judgment when nothing the question asks for is recorded, as far as the
        planned reading shows (engine/answering/recordgaps.py); None: the answer stands."""
        ...


class Question:
    """Base of every question type. Subclasses set `name` and override what they give."""

    name: ClassVar[str]

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        """A read of its own beyond the planned facts, before synthesis (None: none)."""
        return None

    def judgment(self, case: Case) -> str | None:
        """The answer's judgment, when this question type is the one asked (None: not
        asked, or nothing to say; the next type is asked)."""
        return None

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        """Claims for the facts the judgment's figures rest on that no driver claimed,
        numbered after `claimed`."""
        return []

    def changes(self, case: Case) -> tuple[Sequence[Listed], int]:
        """The changes the answer lists, newest first, and how many there are in all."""
        return [], 0


def scope_of(names: Mapping[str, str], organisation_wide: bool) -> str:
    if organisation_wide:
        return "the whole organisation"
    return ", ".join(names.values()) or "the organisation"


def number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def when(window: Window) -> str:
    return f"from {iso(window.start)} to {iso(window.end)}"


def claim_also(facts: Iterable[Fact], claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
    """Claims for the facts a judgment cites that no driver claimed, numbered after
    `claimed`: each figure a judgment states closes to a claimed fact."""
    cited = {c.fact_id for c in claimed}
    extra = [f for f in facts if f.id not in cited]
    return [claim(f, len(claimed) + n) for n, f in enumerate(extra, 1)]


def claim(fact: Fact, n: int) -> ClaimedFact:
    # A copy of the canonical value: the contract validator compares them deeply.
    return ClaimedFact(
        id=f"claim-{n}",
        fact_id=fact.id,
        kind=fact.kind,
        subject_key=fact.subject_key,
        value=copy.deepcopy(fact.value),
        window_start=fact.window_start,
        window_end=fact.window_end,
        evidence_total=fact.evidence_total,
        evidence_selector=fact.evidence_selector,
        actor_key=fact.actor_key,
        others=fact.others,
    )
