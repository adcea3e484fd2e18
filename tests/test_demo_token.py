"""`fabric serve --demo`'s token: one key, the same across restarts, old ones revoked."""

from __future__ import annotations

import stat
from pathlib import Path

from pydantic import SecretStr

from gateway.auth import authenticate, create_key
from gateway.demo import DEMO_ACTOR, demo_token, token_file
from gateway.settings import Settings
from graph.falkor import FalkorStore
from tests.conftest import new_org


async def _valid(store: FalkorStore, token: str) -> bool:
    return await authenticate(store.keys, f"Bearer {token}") is not None


async def _live_demo_keys(store: FalkorStore, org: str) -> list[str]:
    return [k.key_id for k in await store.keys.list_keys(org)
            if k.actor == DEMO_ACTOR and not k.revoked]


async def test_the_demo_key_is_kept_across_restarts_and_old_ones_are_revoked(
    falkor: FalkorStore, tmp_path: Path
) -> None:
    org = new_org()
    settings = Settings(data_dir=tmp_path / "data", demo_org=org)
    # Keys an older version minted on each start: valid until this start.
    stale = [(await create_key(falkor.keys, org, DEMO_ACTOR, frozenset({"read"})))[0]
             for _ in range(3)]
    other, _ = await create_key(falkor.keys, org, "someone-else")
    first = await demo_token(falkor, settings)
    assert token_file(settings).read_text().strip() == first
    assert stat.S_IMODE(token_file(settings).stat().st_mode) == 0o600
    again = await demo_token(falkor, settings)  # a restart
    assert again == first and await _valid(falkor, first)
    assert len(await _live_demo_keys(falkor, org)) == 1
    assert [await _valid(falkor, t) for t in stale] == [False] * 3
    assert await _valid(falkor, other)  # only demo keys are the demo's to revoke


async def test_a_configured_token_wins_and_is_never_written(
    falkor: FalkorStore, tmp_path: Path
) -> None:
    org = new_org()
    settings = Settings(data_dir=tmp_path / "data", demo_org=org)
    kept = await demo_token(falkor, settings)
    configured = Settings(data_dir=tmp_path / "data", demo_org=org,
                          demo_token=SecretStr("demo-configured-token"))
    assert await demo_token(falkor, configured) == "demo-configured-token"
    assert token_file(settings).read_text().strip() == kept  # the file is not the secret's
    assert not await _valid(falkor, kept)  # one demo key at a time
    assert await _valid(falkor, "demo-configured-token")
    # Back without the setting: the kept key was revoked, so a new one is minted and kept.
    fresh = await demo_token(falkor, settings)
    assert fresh not in (kept, "demo-configured-token") and await _valid(falkor, fresh)
    assert token_file(settings).read_text().strip() == fresh
    assert len(await _live_demo_keys(falkor, org)) == 1
