"""Who is asking: always built from verified credentials, never from request fields."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Principal:
    org_id: str
    actor: str
    scopes: frozenset[str] = frozenset({"read"})

    def can(self, scope: str) -> bool:
        return scope in self.scopes or "admin" in self.scopes
