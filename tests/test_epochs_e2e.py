"""Rebuild without downtime, end to end: real `fabric` processes build a second epoch from a
different file while a client keeps querying the real gateway (every answer comes from the
serving epoch, whole), then flip, see the new data, roll back, see the old, and retire."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from graph.embedded import EmbeddedServer
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.test_cli import ROOT

QUERY = """{ epoch { id state }
  subjects(first: 5, filter: {kind: REPOSITORY}, orderBy: KEY) { totalCount edges { node { key } } } }"""
OLD_REPOS = 40
NEW_REPOS = 1_500


def write(path: Path, prefix: str, count: int) -> Path:
    lines = [
        {"type": "subject", "key": f"repository:{prefix}-{i:05d}", "kind": "repository",
         "name": f"{prefix} {i}"}
        for i in range(count)
    ]  # fmt: skip
    lines += [
        {"type": "relationship", "relation": "DEPENDS_ON",
         "from": f"repository:{prefix}-{i:05d}", "to": f"repository:{prefix}-{i - 1:05d}"}
        for i in range(1, count)
    ]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


async def fabric(url: str, *args: str, **env: str) -> tuple[int, list[Any]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gateway.cli", *args, "--graph-uri", url,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT,
        env={**os.environ, **env},
    )  # fmt: skip
    out, err = await process.communicate()
    assert process.returncode is not None
    if process.returncode:
        return process.returncode, [err.decode()]
    return process.returncode, [json.loads(line) for line in out.decode().splitlines()]


def generation(answer: dict[str, Any]) -> tuple[int, str, int]:
    """(epoch id, the prefix of every key on the page, total): one generation, never mixed."""
    data = answer["data"]
    prefixes = {e["node"]["key"].split(":")[1].split("-")[0] for e in data["subjects"]["edges"]}
    assert len(prefixes) == 1, answer
    return data["epoch"]["id"], prefixes.pop(), data["subjects"]["totalCount"]


OLD = (0, "old", OLD_REPOS)
NEW = (1, "new", NEW_REPOS)


async def ask(gateway: Gateway, token: str) -> tuple[int, str, int]:
    response = await gateway.query(token, QUERY)
    assert response.status_code == 200, response.text
    return generation(response.json())


async def test_rebuild_flip_rollback_retire(
    gateway: Gateway, falkor_server: EmbeddedServer, tmp_path: Path
) -> None:
    org, url = new_org(), falkor_server.url
    reader = await gateway.token(org, "reader", frozenset({"read"}))
    admin = await gateway.token(org, "operator", frozenset({"admin"}))
    code, out = await fabric(url, "ingest", str(write(tmp_path / "old.ndjson", "old", OLD_REPOS)),
                             "--org", org)  # fmt: skip
    assert code == 0 and out[-1]["epoch"] == 0, out
    assert await ask(gateway, reader) == OLD

    # Build epoch 1 from another file while the client keeps asking.
    build = asyncio.create_task(
        fabric(url, "ingest", str(write(tmp_path / "new.ndjson", "new", NEW_REPOS)),
               "--org", org, "--new-epoch", "--batch-size", "200")
    )  # fmt: skip
    seen = []
    while not build.done():
        seen.append(await ask(gateway, reader))
    code, out = await build
    assert code == 0, out
    assert out[0] == {"org": org, "epoch": 1, "state": "building"}
    assert out[-1]["accepted"] == 2 * NEW_REPOS - 1 and out[-1]["epoch"] == 1
    assert seen and set(seen) == {OLD}  # every answer during the build: the serving epoch
    states = {e["id"]: e for e in (await fabric(url, "epochs", "list", "--org", org))[1]}
    assert states[0]["state"] == "serving" and states[0]["counts"]["Subject"] == OLD_REPOS
    assert states[1]["state"] == "building" and states[1]["counts"]["Subject"] == NEW_REPOS

    # Flip from another process: this gateway notices within its pointer TTL, and until then
    # answers wholly from the old epoch (still readable in grace).
    code, out = await fabric(url, "epochs", "flip", "--org", org, "--epoch", "1")
    assert code == 0 and out == [{"id": 1, "state": "serving", "created": out[0]["created"]}]
    answers = [await ask(gateway, reader)]
    for _ in range(600):
        if answers[-1] == NEW:
            break
        await asyncio.sleep(0.05)
        answers.append(await ask(gateway, reader))
    assert answers[-1] == NEW and set(answers) <= {OLD, NEW}

    # Roll back through the admin mutation: this instance serves the old epoch at once.
    rolled = await gateway.query(admin, "mutation { rollbackEpoch { id state } }")
    assert rolled.json()["data"]["rollbackEpoch"] == {"id": 0, "state": "SERVING"}
    assert await ask(gateway, reader) == OLD
    denied = await gateway.query(reader, "mutation { rollbackEpoch { id } }")
    assert denied.json()["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    again = await gateway.query(admin, "mutation { rollbackEpoch { id } }")
    assert again.json()["errors"][0]["extensions"]["code"] == "EPOCH_CONFLICT"

    # Retire: the abandoned epoch drains (no deletion yet), then goes for good.
    code, out = await fabric(url, "epochs", "retire", "--org", org)
    assert code == 0 and out == [{"retired": None, "deleted": []}]
    code, out = await fabric(url, "epochs", "retire", "--org", org, FABRIC_EPOCH_DRAIN_S="0")
    assert code == 0 and out == [{"retired": None, "deleted": [1]}]
    code, listing = await fabric(url, "epochs", "list", "--org", org)
    assert [(e["id"], e["state"], e.get("reason"), e.get("deleted")) for e in listing] == [
        (0, "serving", None, None),
        (1, "retired", "rollback_abandoned", True),
    ]
    assert dict(await gateway.store.org(org, 1).counts()) == {}
    assert await ask(gateway, reader) == OLD
    # Ids are never reused: the next build is epoch 2.
    code, out = await fabric(url, "ingest", str(tmp_path / "new.ndjson"), "--org", org,
                             "--new-epoch")  # fmt: skip
    assert code == 0 and out[0]["epoch"] == 2
    await gateway.store.drop_org(org)


async def test_refused_transitions_say_why_and_change_nothing(
    falkor_server: EmbeddedServer, tmp_path: Path
) -> None:
    org = new_org()
    for command in (["flip", "--epoch", "7"], ["rollback"], ["discard"]):
        code, out = await fabric(falkor_server.url, "epochs", *command, "--org", org)
        assert code == 2 and out[0].startswith("fabric: "), (command, out)
    # Loading into an epoch that is not the open build is refused before anything is read.
    data = write(tmp_path / "x.ndjson", "x", 3)
    code, out = await fabric(falkor_server.url, "ingest", str(data), "--org", org, "--epoch", "7")
    assert code == 2 and "not the open build" in out[0]
    code, listing = await fabric(falkor_server.url, "epochs", "list", "--org", org)
    assert code == 0 and [(e["id"], e["state"]) for e in listing] == [(0, "serving")]


async def test_the_lifecycle_through_graphql(gateway: Gateway) -> None:
    org = new_org()
    reader = await gateway.token(org, "reader", frozenset({"read", "write"}))
    admin = await gateway.token(org, "operator", frozenset({"admin"}))

    async def run(token: str, query: str, **variables: Any) -> dict[str, Any]:
        body: dict[str, Any] = (await gateway.query(token, query, variables)).json()
        return body

    records = [{"type": "subject", "key": "team:a", "kind": "team", "name": "A"}]
    load = "mutation($r: [JSON!]!) { project(records: $r, epoch: 1) { accepted } }"
    assert (await run(reader, "{ epoch { id state } }"))["data"] == {
        "epoch": {"id": 0, "state": "SERVING"}
    }
    assert (await run(reader, "{ epochs { id } }"))["errors"][0]["extensions"]["code"] == (
        "FORBIDDEN"
    )
    begun = await run(admin, "mutation { beginEpoch { id state } }")
    assert begun["data"]["beginEpoch"] == {"id": 1, "state": "BUILDING"}
    assert (await run(reader, load, r=records))["errors"][0]["extensions"]["code"] == "FORBIDDEN"
    assert (await run(admin, load, r=records))["data"]["project"]["accepted"] == 1
    listing = (await run(admin, "{ epochs { id state counts } }"))["data"]["epochs"]
    assert listing == [
        {"id": 0, "state": "SERVING", "counts": {"Subject": 0, "Episode": 0, "SourceRecord": 0}},
        {"id": 1, "state": "BUILDING", "counts": {"Subject": 1, "Episode": 0, "SourceRecord": 0}},
    ]
    assert (await run(reader, "{ subjects(first: 5) { totalCount } }"))["data"] == {
        "subjects": {"totalCount": 0}
    }
    flipped = await run(admin, "mutation { flipEpoch(epoch: 1) { id state } }")
    assert flipped["data"]["flipEpoch"] == {"id": 1, "state": "SERVING"}
    after = await run(reader, "{ epoch { id state } subjects(first: 5) { totalCount } }")
    assert after["data"] == {"epoch": {"id": 1, "state": "SERVING"}, "subjects": {"totalCount": 1}}
    conflict = await run(admin, "mutation { flipEpoch(epoch: 1) { id } }")
    assert conflict["errors"][0]["extensions"]["code"] == "EPOCH_CONFLICT"
    retire = "mutation { retireEpochs { retired { id state retireReason } deleted } }"
    retired = await run(admin, retire)
    assert retired["data"]["retireEpochs"] == {
        "retired": {"id": 0, "state": "RETIRED", "retireReason": "grace_ended"},
        "deleted": [],  # still draining
    }
    await gateway.store.drop_org(org)
