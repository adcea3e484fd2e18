"""API keys stored in the graph store (shared by every gateway instance)."""

from __future__ import annotations

import secrets

from engine.ports import SYSTEM_SCOPE, ApiKeyRecord
from graph.cypher import keys as keys_cypher
from graph.executor import Executor, Row

__all__ = ["SYSTEM_SCOPE", "CypherKeyStore"]


def _record(row: Row) -> ApiKeyRecord:
    key_id, secret_hash, org_id, actor, scopes, revoked = row
    return ApiKeyRecord(
        key_id=key_id,
        secret_hash=secret_hash,
        org_id=org_id,
        actor=actor,
        scopes=tuple(scopes or ()),
        revoked=bool(revoked),
    )


class CypherKeyStore:
    def __init__(self, executor: Executor) -> None:
        self._x = executor

    async def put_key(self, record: ApiKeyRecord) -> None:
        await self._x.run(
            keys_cypher.PUT_KEY,
            {
                "system": SYSTEM_SCOPE,
                "key_id": record.key_id,
                "secret_hash": record.secret_hash,
                "key_org": record.org_id,
                "actor": record.actor,
                "scopes": list(record.scopes),
                "revoked": record.revoked,
            },
            write=True,
        )

    async def get_key(self, key_id: str) -> ApiKeyRecord | None:
        found = await self._x.run(keys_cypher.GET_KEY, {"system": SYSTEM_SCOPE, "key_id": key_id})
        return _record(found[0]) if found else None

    async def revoke_key(self, key_id: str) -> bool:
        found = await self._x.run(
            keys_cypher.REVOKE_KEY, {"system": SYSTEM_SCOPE, "key_id": key_id}, write=True
        )
        return bool(found and found[0][0])

    async def list_keys(self, org_id: str | None = None) -> list[ApiKeyRecord]:
        params = {"system": SYSTEM_SCOPE, "key_org": org_id}
        found = await self._x.run(keys_cypher.LIST_KEYS, params)
        return [_record(row) for row in found]

    async def secret(self, name: str) -> str:
        """A random secret under `name`, created on first use and then the same everywhere."""
        found = await self._x.run(
            keys_cypher.SHARED_VALUE,
            {"system": SYSTEM_SCOPE, "name": name, "value": secrets.token_urlsafe(48)},
            write=True,
        )
        value: str = found[0][0]
        return value
