"""The domain contract (v1): subjects, relationships, episodes and canonical source records.

These models are what the projection format carries in and what the graph port hands back.
Every value is validated here, at the boundary, because the graph drivers are not safe
receivers of arbitrary input (a NUL in a string breaks a FalkorDB statement; an integer of
2**63 is silently clamped to 2**63 - 1).
"""

from __future__ import annotations

import enum
import math
import re
import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

CONTRACT_VERSION = "v1"

# Subject ids are derived from (org, key) so that re-ingesting a subject never changes its id
# and the same key in two organisations never shares one.
_SUBJECT_ID_NAMESPACE = uuid.UUID("6f1c1d2e-4b5a-4c3e-9a6f-0d2b7e1f9c41")

INT64_MAX = 2**63 - 1
MAX_NAME = 200
MAX_DESCRIPTION = 4_000
MAX_TEXT = 20_000
MAX_LIST = 64
MAX_ATTRIBUTES = 64

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Bounds keep every instant representable as int64 nanoseconds on both backends.
_MIN_TIME = datetime(1970, 1, 1, tzinfo=UTC)
_MAX_TIME = datetime(2200, 1, 1, tzinfo=UTC)


class SubjectKind(enum.StrEnum):
    TEAM = "team"
    PERSON = "person"
    REPOSITORY = "repository"
    SERVICE = "service"
    PROJECT = "project"
    WORK_ITEM = "work_item"
    INCIDENT = "incident"
    PULL_REQUEST = "pull_request"
    MODULE = "module"


class RelationshipType(enum.StrEnum):
    OWNS = "OWNS"
    MEMBER_OF = "MEMBER_OF"
    DEPENDS_ON = "DEPENDS_ON"
    CONTRIBUTES_TO = "CONTRIBUTES_TO"
    PART_OF = "PART_OF"
    AFFECTS = "AFFECTS"
    ASSIGNED_TO = "ASSIGNED_TO"
    AUTHORED = "AUTHORED"
    REVIEWED = "REVIEWED"
    LEADS = "LEADS"


class Direction(enum.StrEnum):
    OUTGOING = "outgoing"
    INCOMING = "incoming"
    BOTH = "both"


class SourceRecordKind(enum.StrEnum):
    PULL_REQUEST = "pull_request"
    INCIDENT = "incident"
    WORK_ITEM = "work_item"
    DEPLOY = "deploy"
    METRIC_ROLLUP = "metric_rollup"
    COMMIT = "commit"  # one authored change (a git commit), at its author time; title: subject


class ElementType(enum.StrEnum):
    """What a tombstone can retract."""

    SUBJECT = "subject"
    RELATIONSHIP = "relationship"
    EPISODE = "episode"
    SOURCE_RECORD = "source_record"


# --- value checks shared by every model -------------------------------------------------


def _clean_text(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain a NUL character")
    return value


def _to_utc(value: Any) -> Any:
    # A bare date means midnight UTC. (Hot path of ingest: cheap checks before the regex.)
    if type(value) is str:
        if len(value) == 10 and _DATE.fullmatch(value):
            return value + "T00:00:00Z"
        return value
    if isinstance(value, date) and not isinstance(value, datetime):
        return datetime(value.year, value.month, value.day, tzinfo=UTC)
    return value


def _bounded_time(value: datetime) -> datetime:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    elif value.tzinfo is not UTC:
        value = value.astimezone(UTC)
    if not _MIN_TIME <= value < _MAX_TIME:
        raise ValueError("must lie between 1970-01-01 and 2200-01-01")
    return value


def _safe_scalar(value: Any) -> Any:
    if isinstance(value, str):
        return _clean_text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int) and not -INT64_MAX <= value <= INT64_MAX:
        raise ValueError("integer out of the 64-bit range")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("number must be finite")
    return value


Text = Annotated[str, AfterValidator(_clean_text)]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME), AfterValidator(_clean_text)]
Instant = Annotated[datetime, BeforeValidator(_to_utc), AfterValidator(_bounded_time)]
Scalar = Annotated[str | bool | int | float, BeforeValidator(_safe_scalar)]
KEY_PATTERN = r"^[a-z_]+:[^\s\x00][^\x00]{0,254}$"
Key = Annotated[str, Field(pattern=KEY_PATTERN, max_length=256)]
AttributeName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")]


def to_ns(value: datetime | None) -> int | None:
    """Instants are stored as int64 nanoseconds since the epoch on both backends."""
    if value is None:
        return None
    return (value - _EPOCH) // _MICROSECOND * 1_000


def from_ns(value: int | None) -> datetime | None:
    if value is None:
        return None
    return _EPOCH + timedelta(microseconds=value // 1_000)


def key_kind(key: str) -> str:
    return key.split(":", 1)[0]


def subject_id(org_id: str, key: str) -> str:
    return str(uuid.uuid5(_SUBJECT_ID_NAMESPACE, f"{org_id}\x1f{key}"))


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_max_length=MAX_TEXT)


class Window(_Model):
    """A half-open validity window [valid_from, valid_to); either end may be open."""

    valid_from: Instant | None = None
    valid_to: Instant | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Window:
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            raise ValueError("valid_to must be later than valid_from")
        return self

    def admits(self, start: datetime, end: datetime | None = None) -> bool:
        """True when the window overlaps [start, end]; a point is the interval [T, T]."""
        end = start if end is None else end
        if self.valid_from is not None and self.valid_from > end:
            return False
        return self.valid_to is None or self.valid_to > start


class Subject(Window):
    key: Key
    kind: SubjectKind
    name: Name
    aliases: list[Name] = Field(default_factory=list, max_length=MAX_LIST)
    previous_names: list[Name] = Field(default_factory=list, max_length=MAX_LIST)
    description: Annotated[Text, Field(max_length=MAX_DESCRIPTION)] = ""
    attributes: dict[AttributeName, Scalar] = Field(default_factory=dict, max_length=MAX_ATTRIBUTES)
    source: Name | None = None

    @model_validator(mode="after")
    def _key_matches_kind(self) -> Subject:
        if key_kind(self.key) != self.kind.value:
            raise ValueError(f"key must start with '{self.kind.value}:'")
        return self


class Relationship(Window):
    type: RelationshipType = Field(alias="relation")
    from_key: Key = Field(alias="from")
    to_key: Key = Field(alias="to")
    id: Annotated[str, Field(min_length=1, max_length=512)] | None = None
    evidence: Annotated[Text, Field(max_length=1_000)] | None = None
    source: Name | None = None

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    @model_validator(mode="after")
    def _checked(self) -> Relationship:
        for key in (self.from_key, self.to_key):
            if key_kind(key) not in SubjectKind._value2member_map_:
                raise ValueError(f"unknown subject kind in key {key!r}")
        if self.id is not None:
            _clean_text(self.id)
        return self

    @property
    def rel_id(self) -> str:
        """Identity of the edge: explicit, or its type, ends and start of validity."""
        if self.id:
            return self.id
        start = self.valid_from.isoformat() if self.valid_from else "-"
        return f"{self.type.value}|{self.from_key}|{self.to_key}|{start}"


def _subject_key(key: str) -> str:
    # A mentioned subject not loaded yet becomes a stub of the key's kind: an unknown kind
    # would store a subject that no read could turn back into a model.
    if key_kind(key) not in SubjectKind._value2member_map_:
        raise ValueError(f"unknown subject kind in key {key!r}")
    return key


class Episode(_Model):
    key: Key
    occurred_at: Instant
    text: Annotated[Text, Field(max_length=MAX_TEXT)]
    mentions: list[Annotated[Key, AfterValidator(_subject_key)]] = Field(
        default_factory=list, max_length=MAX_LIST
    )
    source: Name | None = None


class SourceRecord(_Model):
    """A canonical source record from which fact providers compute facts.

    `start`/`end` are the record's immutable interval (opened/merged, started/resolved,
    created/completed, deployed, the rolled-up day); `due` is the commitment a work item
    carried. Fields with no history of their own are not stored as history.
    """

    key: Key
    record_kind: SourceRecordKind
    subject: Key
    actor: Key | None = None
    start: Instant
    end: Instant | None = None
    due: Instant | None = None
    status: Annotated[str, Field(max_length=32), AfterValidator(_clean_text)] | None = None
    severity: Annotated[str, Field(max_length=16), AfterValidator(_clean_text)] | None = None
    environment: Annotated[str, Field(max_length=32), AfterValidator(_clean_text)] | None = None
    metric: Annotated[str, Field(max_length=64), AfterValidator(_clean_text)] | None = None
    value: Annotated[float, Field(allow_inf_nan=False), BeforeValidator(_safe_scalar)] | None = None
    # Of `value`, the part added, the rest removed: a git commit's record holds the lines it
    # changed (`metric` lines_changed) and those it added, so churn counts to the instant.
    added: Annotated[float, Field(allow_inf_nan=False), BeforeValidator(_safe_scalar)] | None = None
    title: Annotated[Text, Field(max_length=MAX_NAME * 2)] = ""
    source: Name | None = None

    @model_validator(mode="after")
    def _checked(self) -> SourceRecord:
        if self.end is not None and self.end < self.start:
            raise ValueError("end must not precede start")
        if self.record_kind is SourceRecordKind.METRIC_ROLLUP and (
            self.metric is None or self.value is None
        ):
            raise ValueError("a metric_rollup needs metric and value")
        return self


class Tombstone(_Model):
    target: ElementType
    key: Annotated[str, Field(min_length=1, max_length=512), AfterValidator(_clean_text)]


ProjectionElement = Subject | Relationship | Episode | SourceRecord | Tombstone
RecordType = Literal["subject", "relationship", "episode", "source_record", "tombstone"]


class StoredSubject(Subject):
    """A subject as read back from the graph, with its stable id."""

    id: str
    stub: bool = False
