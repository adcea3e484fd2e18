"""The typed per-request context every resolver receives as `info.context`."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from engine.models import to_ns
from engine.principal import Principal
from engine.ring import ReferenceRing
from graph.port import OrgGraph, TimeSpan
from resolvers.loaders import Loaders


@dataclass
class Limits:
    max_page_size: int = 500


def _now() -> TimeSpan:
    ns = to_ns(datetime.now(UTC))
    assert ns is not None
    return TimeSpan.point(ns)


@dataclass
class RequestContext:
    """principal: who asks; graph: their organisation's graph (the only one they can reach);
    ring: the process-wide recently-referenced ring; now: the current-axis instant, fixed
    once per request so every field agrees on it."""

    principal: Principal
    graph: OrgGraph
    limits: Limits = field(default_factory=Limits)
    ring: ReferenceRing = field(default_factory=ReferenceRing)
    now: TimeSpan = field(default_factory=_now)
    loaders: Loaders = field(init=False)

    def __post_init__(self) -> None:
        self.loaders = Loaders(self.graph)
