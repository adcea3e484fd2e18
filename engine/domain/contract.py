"""The investigation result contract (v1): the immutable shape every investigation produces.

The models are structural (types, closed vocabularies, frozen, no extra fields). The
*semantic* rules -- evidence closure, claimed facts reproducing canonical facts, outcome
shapes -- live in `engine.domain.validation`, which reports every breach as a closed violation code
instead of refusing construction, so an invalid result can be diagnosed rather than lost.
The cap on a result's limitations and how the degraded-retrieval disclosure keeps its place
under it are engine/domain/limitations.py.
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.domain.evidence import EvidenceSelector
from engine.domain.facts import FactKind, Grain
from engine.domain.gates import retrieval_policy_version
from engine.domain.models import MAX_TEXT, Instant, Key, SubjectKind, Text

CONTRACT_VERSION = "v1"
# People a ranking headline lists (engine.questions.who); a question asking for more is
# told so when it is read (engine.reading.meaning).
PEOPLE_SHOWN = 5
# People a "who" answer lists when the question asks who, not who led ("who committed to
# click this year?" asks for the people, not the top five): everyone, by commits, up to this
# many; above it the first PEOPLE_LISTED and how many in all, said
# (engine.providers.contributors carries them, engine.questions.who lists them).
PEOPLE_LISTED = 50


class Outcome(enum.StrEnum):
    ANSWERED = "answered"
    CLARIFICATION_REQUIRED = "clarification_required"
    NO_MATCH = "no_match"
    FAILED = "failed"


class Axis(enum.StrEnum):
    CURRENT = "current"
    AS_OF = "as_of"
    RANGE = "range"


class Standing(enum.StrEnum):
    PRIMARY = "primary"
    CONTRIBUTING = "contributing"
    WITHHELD = "withheld"


class DriverCategory(enum.StrEnum):
    DELIVERY_SLOWDOWN = "delivery_slowdown"
    SCHEDULE_SLIP = "schedule_slip"
    INCIDENT_LOAD = "incident_load"
    RELIABILITY = "reliability"
    DEPLOY_INSTABILITY = "deploy_instability"
    OWNERSHIP_CHANGE = "ownership_change"
    DEPENDENCY_RISK = "dependency_risk"
    ACTIVITY_CHANGE = "activity_change"
    CONTEXT = "context"


# Categories whose statement rests on a canonical fact's value: plain evidence closure is not
# enough for them, they must cite a claimed fact reproducing that value. The others close to
# evidence or an evidence-backed relationship path.
_CLAIMED_FACT_CATEGORIES = frozenset(
    {
        DriverCategory.DELIVERY_SLOWDOWN,
        DriverCategory.SCHEDULE_SLIP,
        DriverCategory.INCIDENT_LOAD,
        DriverCategory.RELIABILITY,
        DriverCategory.DEPLOY_INSTABILITY,
        DriverCategory.ACTIVITY_CHANGE,
    }
)


def requires_claimed_fact(category: DriverCategory) -> bool:
    return category in _CLAIMED_FACT_CATEGORIES


class CoverageState(enum.StrEnum):
    AVAILABLE = "available"
    NO_DATA = "no_data"  # a bounded read found nothing: "nothing retained then", not "zero"
    NOT_APPLICABLE = "not_applicable"  # no history for the requested time
    PRUNED = "pruned"  # planning proved the source could not answer; not a degradation
    DEGRADED = "degraded"
    FAILED = "failed"


class CoverageReason(enum.StrEnum):
    OK = "ok"
    SELECTED = "selected"
    UNSUPPORTED_SUBJECT_KINDS = "unsupported_subject_kinds"
    NARROWED_SUBJECT_KINDS = "narrowed_subject_kinds"
    FACT_KIND_NOT_ASKED = "fact_kind_not_asked"
    NO_SUBJECTS = "no_subjects"
    NO_ROWS_IN_WINDOW = "no_rows_in_window"
    NO_HISTORY_FOR_TIME = "no_history_for_time"
    PROVIDER_ERROR = "provider_error"
    PROVIDER_TIMEOUT = "provider_timeout"
    ELEMENTS_WITHOUT_WINDOW = "elements_without_window"
    VECTOR_ARM_DISABLED = "vector_arm_disabled"
    EMBEDDER_UNAVAILABLE = "embedder_unavailable"
    SEARCH_TRUNCATED = "search_truncated"
    GRAPH_UNAVAILABLE = "graph_unavailable"


class FailureStage(enum.StrEnum):
    REUSE = "reuse"  # the reuse lookup and its recheck, before interpretation
    INTERPRET = "interpret"
    RESOLVE = "resolve"
    PLAN = "plan"
    READ_FACTS = "read_facts"
    DISCOVER_CONTEXT = "discover_context"
    SYNTHESIZE = "synthesize"
    VALIDATE = "validate"
    PERSIST = "persist"


class FailureClassification(enum.StrEnum):
    GRAPH_UNAVAILABLE = "graph_unavailable"
    TIMEOUT = "timeout"
    INVALID_INPUT = "invalid_input"
    CONTRACT_VIOLATION = "contract_violation"
    INTERNAL = "internal"


class EvidenceKind(enum.StrEnum):
    SOURCE_RECORD = "source_record"
    RELATIONSHIP = "relationship"
    EPISODE = "episode"
    SUBJECT = "subject"


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_max_length=MAX_TEXT)


Ident = Annotated[str, Field(min_length=1, max_length=1_024)]
Score = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
Count = Annotated[int, Field(ge=0)]


class TimeContext(_Model):
    """What time a question is about. `current` carries no instants; `as_of` one instant;
    `range` a closed interval [start, end] (a point in time is the interval [T, T])."""

    axis: Axis = Axis.CURRENT
    as_of: Instant | None = None
    start: Instant | None = None
    end: Instant | None = None

    @model_validator(mode="after")
    def _shaped(self) -> TimeContext:
        has_range = self.start is not None or self.end is not None
        if self.axis is Axis.CURRENT and (self.as_of is not None or has_range):
            raise ValueError("a current time context carries no instants")
        if self.axis is Axis.AS_OF and (self.as_of is None or has_range):
            raise ValueError("an as_of time context carries exactly as_of")
        if self.axis is Axis.RANGE:
            if self.as_of is not None or self.start is None or self.end is None:
                raise ValueError("a range time context carries exactly start and end")
            if self.end < self.start:
                raise ValueError("a range must not end before it starts")
        return self


class TemporalLabel(_Model):
    """What time the answer covers, composed by the engine from the reads that ran."""

    axis: Axis
    effective_from: Instant | None = None
    effective_to: Instant | None = None
    grain: Grain | None = None  # the coarsest grain among providers whose facts were kept
    note: Text | None = None

    @model_validator(mode="after")
    def _ordered(self) -> TemporalLabel:
        if self.effective_from and self.effective_to and self.effective_to < self.effective_from:
            raise ValueError("effective_to must not precede effective_from")
        return self


class ClaimedFact(_Model):
    """A canonical fact as the result claims it; `value` must deep-equal the fact's value."""

    id: Ident
    fact_id: Ident
    kind: FactKind
    subject_key: Key
    value: dict[str, Any]
    window_start: datetime
    window_end: datetime
    # All the records the fact rests on (it lists at most its provider's limit of them),
    # and how to read every one of them back.
    evidence_total: int | None = None
    evidence_selector: EvidenceSelector | None = None
    # A person's part of the subject: their key (`others`: everyone's but theirs).
    actor_key: Key | None = None
    others: bool = False


class EvidenceRef(_Model):
    ref: Ident  # the key of a source record, relationship id, episode key or subject key
    kind: EvidenceKind
    subject_key: Key | None = None


class Driver(_Model):
    """One finding. `rank` is the engine's canonical order within a standing."""

    id: Ident
    standing: Standing
    category: DriverCategory
    statement: Text
    subject_keys: tuple[Key, ...] = ()
    evidence: tuple[EvidenceRef, ...] = ()
    claimed_fact_ids: tuple[Ident, ...] = ()
    relationship_path: tuple[Ident, ...] = ()  # relationship ids, in path order
    rank: Count = 0


class Change(_Model):
    """One change an answer to "what changed" lists (newest first): a source record (a
    commit, a merged pull request) that the claimed fact `claimed_fact_id` counts; that
    fact's evidence connection reads back every change it counts, not only the listed ones."""

    ref: Ident  # the source record's key
    title: Text  # as recorded: untrusted text (a commit's subject line, a pull request title)
    at: Instant  # when it was made (a commit) or merged (a pull request)
    subject_key: Key  # what it changed (the subject the fact is about)
    by: Key | None = None  # who made it
    by_name: Text | None = None
    claimed_fact_id: Ident


class CoverageObservation(_Model):
    source: Ident
    state: CoverageState
    reason: CoverageReason
    count: Count | None = None


class CandidateChoice(_Model):
    """A ranked candidate of a clarification; `receipt` binds it back on a later question."""

    subject_key: Key
    name: Text
    kind: SubjectKind
    score: Score
    receipt: Ident
    # What tells it apart from the others offered: kind, place, commits in the window and
    # in all (engine/resolving/activity.py); None where no activity was read.
    label: Text | None = None


class Versions(_Model):
    contract: str = CONTRACT_VERSION
    projection: str
    embedder: str
    model: str | None = None  # None: deterministic synthesis, no model was called
    # The projection epoch every read of the investigation went to (graph.epochs).
    epoch: Count = 0
    # The gates, tau and search depths the references were resolved under (engine.domain.gates).
    retrieval_policy: str = Field(default_factory=retrieval_policy_version)


class Trace(_Model):
    stages: tuple[tuple[Ident, Annotated[float, Field(ge=0, allow_inf_nan=False)]], ...] = ()
    graph_round_trips: Count = 0
    providers_chosen: tuple[Ident, ...] = ()
    providers_pruned: tuple[tuple[Ident, CoverageReason], ...] = ()


class InvestigationResult(_Model):
    id: Ident
    org_id: Ident
    actor: Ident
    question: Text
    created_at: Instant
    time_context: TimeContext
    interpretation: dict[str, Any] = Field(default_factory=dict)
    outcome: Outcome
    direct_judgment: Text | None = None
    current_state: Text | None = None
    drivers: tuple[Driver, ...] = ()
    claimed_facts: tuple[ClaimedFact, ...] = ()
    coverage: tuple[CoverageObservation, ...] = ()
    limitations: tuple[Text, ...] = ()
    limitations_displaced: Count = 0
    temporal_label: TemporalLabel | None = None
    versions: Versions
    candidates: tuple[CandidateChoice, ...] = ()
    clarification_prompt: Text | None = None
    failure_stage: FailureStage | None = None
    failure_classification: FailureClassification | None = None
    trace: Trace | None = None
    subject_keys: tuple[Key, ...] = ()
    # "What changed": the newest changes, and how many the claimed facts count in all.
    changes: tuple[Change, ...] = ()
    changes_total: Count = 0
