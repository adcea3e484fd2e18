"""The typed per-request context every resolver receives as `info.context`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.principal import Principal
from graph.port import OrgGraph


@dataclass
class Limits:
    max_page_size: int = 500


@dataclass
class RequestContext:
    principal: Principal
    graph: OrgGraph
    limits: Limits
