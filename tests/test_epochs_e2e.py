"""Rebuild without downtime, end to end: real `fabric` processes build a second epoch from a
different file while a client keeps querying the real gateway (every answer comes from the
serving epoch, whole), then flip, see the new data, roll back, see the old, and retire."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from falkordb import FalkorDB

from graph.embedded import EmbeddedServer
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.test_cli import FABRIC, ROOT, free_port
from tests.test_cli import fabric as cli_fabric

QUERY = """{ epoch { id state }
  subjects(first: 5, filter: {kind: REPOSITORY}, orderBy: KEY) { totalCount edges { node { key } } } }"""
OLD_REPOS = 40
NEW_REPOS = 1_500

# The drain is at least the pointer TTL plus the request limit (gateway.stores.epoch_timings):
# a retire that should delete at once brings all three to about nothing on the CLI, which
# serves no request; a running serve keeps a request limit its reads fit in and is waited out.
DRAINED = {
    "FABRIC_EPOCH_DRAIN_S": "0", "FABRIC_EPOCH_POINTER_TTL_S": "0", "FABRIC_REQUEST_TIMEOUT_S": "0.001",
}
SERVE_DRAIN_FLOOR_S = 3.0
SERVE_DRAINED = {
    "FABRIC_EPOCH_DRAIN_S": "0", "FABRIC_EPOCH_POINTER_TTL_S": "0",
    "FABRIC_REQUEST_TIMEOUT_S": str(SERVE_DRAIN_FLOOR_S),
}


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
    code, out = await fabric(url, "epochs", "retire", "--org", org, **DRAINED)
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


# --- a fresh data directory: each command its own server start, or a `fabric serve` -------


def _cli(data_dir: Path, *args: str, **env: str) -> list[Any]:
    result = cli_fabric(*args, "--org", "ep", "--data-dir", str(data_dir), env=env)
    assert result.returncode == 0, (args, result.stderr)
    return [json.loads(line) for line in result.stdout.splitlines()]


def _loads(order: str, tmp_path: Path) -> list[list[str]]:
    old = str(write(tmp_path / "old.ndjson", "old", 3))
    new = str(write(tmp_path / "new.ndjson", "new", 5))
    if order == "plain, then --new-epoch":
        return [["ingest", old], ["ingest", new, "--new-epoch"]]
    return [["ingest", new, "--new-epoch"]]  # the first load ever opens epoch 1


LISTED_AFTER = [(0, "serving", None, None), (1, "retired", "rollback_abandoned", True)]


@pytest.mark.parametrize("order", ["plain, then --new-epoch", "--new-epoch first"])
def test_the_lifecycle_through_the_cli_on_a_fresh_data_directory(
    order: str, tmp_path: Path
) -> None:
    """Every command starts the directory's server and stops it (loading its snapshot each
    time): epoch 0's node must still be found by its key (issue 33: every flip said 'another
    transition changed the lifecycle first', 3 of 3 fresh directories)."""
    data_dir = tmp_path / "data"
    for load in _loads(order, tmp_path):
        _cli(data_dir, *load)
    assert _cli(data_dir, "epochs", "flip", "--epoch", "1")[0]["state"] == "serving"
    rolled = _cli(data_dir, "epochs", "rollback")[0]
    assert (rolled["id"], rolled["state"]) == (0, "serving")
    assert _cli(data_dir, "epochs", "retire", **DRAINED) == [
        {"retired": None, "deleted": [1]}
    ]
    listing = _cli(data_dir, "epochs", "list")
    assert [(e["id"], e["state"], e.get("reason"), e.get("deleted")) for e in listing] == (
        LISTED_AFTER
    )
    # Ids are never reused, and epoch 0 is found again for the next flip.
    assert _cli(data_dir, "ingest", str(tmp_path / "new.ndjson"), "--new-epoch")[0]["epoch"] == 2
    assert _cli(data_dir, "epochs", "flip", "--epoch", "2")[0]["state"] == "serving"
    assert _cli(data_dir, "epochs", "retire")[0]["retired"]["id"] == 0


def _serve(data_dir: Path, port: int) -> subprocess.Popen[str]:
    env = {**os.environ, "FABRIC_GRAPHIQL": "false", **SERVE_DRAINED}
    return subprocess.Popen(
        [*FABRIC, "serve", "--port", str(port), "--data-dir", str(data_dir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT,
    )  # fmt: skip


def _ready(url: str, proc: subprocess.Popen[str]) -> None:
    for _ in range(1200):
        assert proc.poll() is None, "fabric serve exited"
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/readyz").status_code == 200:
                return
        time.sleep(0.1)
    pytest.fail("fabric serve never became ready")


@pytest.mark.parametrize("order", ["plain, then --new-epoch", "--new-epoch first"])
def test_the_lifecycle_through_graphql_beside_a_running_serve(order: str, tmp_path: Path) -> None:
    """The first load before `fabric serve` starts (which loads the directory's snapshot),
    the rest beside it: a CLI load joins its server, the transitions go through GraphQL."""
    data_dir = tmp_path / "data"
    first, *rest = _loads(order, tmp_path)
    _cli(data_dir, *first)
    token = _cli(data_dir, "keys", "create", "--actor", "op", "--scope", "admin")[0]["token"]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = _serve(data_dir, port)
    try:
        _ready(url, proc)
        for load in rest:
            assert _cli(data_dir, *load)[-1]["epoch"] == 1  # joins serve's server

        def ask(query: str) -> Any:
            answer = httpx.post(
                url + "/graphql",
                json={"query": query},
                headers={"Authorization": f"Bearer {token}"},
                timeout=60,
            )
            assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
            return answer.json()["data"]

        assert ask("mutation { flipEpoch(epoch: 1) { id state } }")["flipEpoch"] == {
            "id": 1, "state": "SERVING"
        }  # fmt: skip
        assert ask("mutation { rollbackEpoch { id state } }")["rollbackEpoch"] == {
            "id": 0, "state": "SERVING"
        }  # fmt: skip
        time.sleep(SERVE_DRAIN_FLOOR_S)  # the rolled-back epoch drains at least this long
        retired = ask("mutation { retireEpochs { retired { id } deleted } }")
        assert retired["retireEpochs"] == {"retired": None, "deleted": [1]}
        listing = ask("{ epochs { id state retireReason deleted } }")["epochs"]
        assert [(e["id"], e["state"], e["retireReason"], e["deleted"]) for e in listing] == [
            (0, "SERVING", None, False), (1, "RETIRED", "rollback_abandoned", True)
        ]  # fmt: skip
        # The CLI beside it (joining serve's server): build, flip, end the grace; serve
        # notices the flip within its pointer TTL.
        assert _cli(data_dir, "ingest", str(tmp_path / "new.ndjson"), "--new-epoch")[0] == {
            "org": "ep", "epoch": 2, "state": "building"
        }  # fmt: skip
        assert _cli(data_dir, "epochs", "flip", "--epoch", "2")[0]["state"] == "serving"
        for _ in range(600):
            if ask("{ epoch { id } }")["epoch"]["id"] == 2:
                break
            time.sleep(0.05)
        assert ask("{ epoch { id state } }")["epoch"] == {"id": 2, "state": "SERVING"}
        assert _cli(data_dir, "epochs", "retire")[0]["retired"]["id"] == 0
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)


def test_a_directory_indexed_before_has_its_epoch_index_dropped_on_open(tmp_path: Path) -> None:
    """A directory written by an earlier version has the `Epoch.key` index, which a snapshot
    load builds without epoch 0: opening it drops the index, and the flip finds epoch 0."""
    data_dir = tmp_path / "data"
    for load in _loads("plain, then --new-epoch", tmp_path):
        _cli(data_dir, *load)
    with EmbeddedServer(data_dir) as server:
        graph = FalkorDB(unix_socket_path=server.socket).select_graph("fabric:org:ep")
        graph.query("CREATE INDEX FOR (n:Epoch) ON (n.key)")
    assert _cli(data_dir, "epochs", "flip", "--epoch", "1")[0]["state"] == "serving"
    with EmbeddedServer(data_dir) as server:
        graph = FalkorDB(unix_socket_path=server.socket).select_graph("fabric:org:ep")
        indexed = graph.query("CALL db.indexes() YIELD label RETURN label").result_set
    assert ["Epoch"] not in indexed
