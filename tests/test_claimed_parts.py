"""Issue 31, class 9: a person's part of a subject, claimed by an answer, is read back through
GraphQL `facts` with the same id and value, and its figure is git's. On attrs (cloned from
../shared/data and imported into the session's FalkorDB, through the gateway over HTTP):
"how many commits did Hynek Schlawack make to attr._make in 2016?" claims his part of
src/attr/_make.py; before, the claimed fact said whose part only in its id, and
`facts(subjectKey: ...)` could return only everyone's commits there, another number."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from graph.git.importer import GitImport, import_git
from tests import shared_history
from tests.conftest import new_org

pytestmark = shared_history.present("attrs")

MODULE = "module:attrs/src/attr/_make.py"
HYNEK = "person:hs@ox.cx"
START, END = "2016-01-01T00:00:00+00:00", "2017-01-01T00:00:00+00:00"

ASK = """
mutation($q: String!) {
  investigate(input: {question: $q}) {
    result { outcome
      claimedFacts { factId kind subjectKey actorKey others value windowStart windowEnd } }
  }
}"""

FACTS = """
query($key: String!, $person: String, $others: Boolean!) {
  facts(subjectKey: $key, personKey: $person, others: $others, kinds: [COMMIT_ACTIVITY],
        window: {from: "2016-01-01T00:00:00Z", to: "2017-01-01T00:00:00Z"}) {
    id kind subjectKey actorKey others value windowStart windowEnd
  }
}"""


def git_commits(clone: Path, author: str | None) -> int:
    """Commits to src/attr/_make.py (and attr/_make.py, its path before the move) authored
    in 2016, by `author` (an address) or by anyone."""
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at %aE",
         "--", "src/attr/_make.py", "attr/_make.py"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    start, end = datetime(2016, 1, 1, tzinfo=UTC), datetime(2017, 1, 1, tzinfo=UTC)
    found = 0
    for line in out.splitlines():
        at, email = line.split(" ", 1)
        inside = start <= datetime.fromtimestamp(int(at), UTC) < end
        found += inside and (author is None or email.lower() == author)
    return found


@pytest.fixture(scope="module")
async def attrs(gateway: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A new organisation holding attrs, and a token for it; the clone (git's truth)."""
    clone = shared_history.shared_clone("attrs", tmp_path_factory)
    org = new_org()
    await gateway.store.bootstrap(org)
    await import_git(gateway.store.org(org), GitImport(clone, name="attrs"))
    return await gateway.token(org), clone


async def data(gateway: Any, token: str, query: str, variables: dict[str, Any]) -> Any:
    response = await gateway.query(token, query, variables)
    body = response.json()
    assert response.status_code == 200 and "errors" not in body, body
    return body["data"]


async def test_a_persons_part_claimed_is_read_back_through_facts(
    gateway: Any, attrs: tuple[str, Path]
) -> None:
    token, clone = attrs
    question = "how many commits did Hynek Schlawack make to attr._make in 2016?"
    result = (await data(gateway, token, ASK, {"q": question}))["investigate"]["result"]
    assert result["outcome"] == "ANSWERED"
    (claim,) = [c for c in result["claimedFacts"] if c["kind"] == "COMMIT_ACTIVITY"]
    assert (claim["subjectKey"], claim["actorKey"], claim["others"]) == (MODULE, HYNEK, False)
    assert (claim["windowStart"], claim["windowEnd"]) == (START, END)
    mine = git_commits(clone, "hs@ox.cx")
    assert claim["value"]["commits"] == mine == 17

    variables = {"key": MODULE, "person": HYNEK, "others": False}
    (fact,) = (await data(gateway, token, FACTS, variables))["facts"]
    assert fact["id"] == claim["factId"] and fact["value"] == claim["value"]
    assert (fact["subjectKey"], fact["actorKey"]) == (MODULE, HYNEK)

    everyone = {"key": MODULE, "person": None, "others": False}
    (whole,) = (await data(gateway, token, FACTS, everyone))["facts"]
    assert whole["actorKey"] is None and whole["id"] != claim["factId"]
    assert whole["value"]["commits"] == git_commits(clone, None) == 39

    others = {"key": MODULE, "person": HYNEK, "others": True}
    (rest,) = (await data(gateway, token, FACTS, others))["facts"]
    assert rest["others"] and rest["value"]["commits"] == git_commits(clone, None) - mine


@pytest.mark.parametrize(
    ("person", "kinds", "said"),
    [
        ("person:nobody@example.com", "[COMMIT_ACTIVITY]", "names no person"),
        (MODULE, "[COMMIT_ACTIVITY]", "names no person"),
        (HYNEK, "[BUS_FACTOR]", "not for BUS_FACTOR"),
    ],
)
async def test_a_part_not_computed_is_refused_never_everyones(
    gateway: Any, attrs: tuple[str, Path], person: str, kinds: str, said: str
) -> None:
    token, _ = attrs
    query = f'{{ facts(subjectKey: "{MODULE}", personKey: "{person}", kinds: {kinds}) {{ id }} }}'
    body = (await gateway.query(token, query)).json()
    (error,) = body["errors"]
    assert error["extensions"]["code"] == "BAD_USER_INPUT" and said in error["message"]
