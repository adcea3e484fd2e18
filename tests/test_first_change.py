"""When something first changed, however long ago ("when did _make.py first change?", "who
first committed to sessions.py?", "when was rules.py created?"): the earliest change recorded,
with its instant, commit and author (engine/questions/firstchange.py); an independent check
(c32a H) had it refused ("the earliest change ... is not computed"). A history imported with
--since, or from a shallow clone, says the first change made may be earlier. On click's, requests',
werkzeug's and attrs' real histories (../shared/data), in memory; each truth from `git log
--follow --no-merges` (author time), renames followed."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.memory.store import MemoryStore
from engine.ports import OrgGraph
from engine.reading.interpreter import interpret
from graph.git.importer import GitImport, import_git
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "requests", "werkzeug", "attrs")

click_clone, click = shared_history.fixtures("click", "click", clone_as="click_clone")

requests_clone, requests = shared_history.fixtures(
    "requests", "requests", clone_as="requests_clone"
)
werkzeug_clone, werkzeug = shared_history.fixtures(
    "werkzeug", "werkzeug", clone_as="werkzeug_clone"
)
attrs_clone, attrs = shared_history.fixtures("attrs", "attrs", clone_as="attrs_clone")

ask = partial(answer, now=CLOCK)


def oldest(
    clone: Path, path: str, *, follow: bool = True, since: str = ""
) -> tuple[datetime, str, str, str]:
    """(author time, hash, author, subject) of the oldest commit (no merges) to `path`, by
    git: renames followed (a file), or every commit under it (a directory) after `since`."""
    how = ["--follow"] if follow else ["--full-history", f"--since={since}"]
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", *how, "--format=%at%x09%H%x09%an%x09%s",
         "--", path],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    rows = [line.split("\t", 3) for line in out.splitlines()]
    at, sha, name, subject = min(rows, key=lambda r: int(r[0]))
    return datetime.fromtimestamp(int(at), UTC), sha, name, subject


CASES = [
    # src/click/core.py was click/core.py, split out of click.py: git follows it there
    ("click", "who made the first commit to core.py?", "src/click/core.py"),
    ("requests", "first change to _types.py", "src/requests/_types.py"),
    ("requests", "who first committed to sessions.py?", "src/requests/sessions.py"),  # session.py
    ("werkzeug", "when was serving.py first changed?", "src/werkzeug/serving.py"),  # 2007
    ("werkzeug", "when was rules.py created?", "src/werkzeug/routing/rules.py"),
    ("attrs", "when did _make.py first change", "src/attr/_make.py"),
    ("attrs", "what was the earliest commit to converters.py in src/attrs", "src/attrs/converters.py"),
]  # fmt: skip


histories = shared_history.histories("click", "requests", "werkzeug", "attrs")


@pytest.mark.parametrize(("history", "question", "path"), CASES)
async def test_the_first_change_is_the_oldest_commit_git_has(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, path: str
) -> None:
    """It was refused: "first": the earliest change ... is not computed."""
    graph, clone = histories[history]
    at, sha, name, subject = oldest(clone, path)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    first = min(result.changes, key=lambda c: c.at)
    assert (first.at, first.title) == (at, subject)
    judged = result.direct_judgment or ""
    assert result.temporal_label is not None and result.temporal_label.effective_from == at
    if "created" in question:  # the path's creation (engine/questions/lives.py): git's add
        assert f"{path} was added at {at:%Y-%m-%dT%H:%M:%SZ}: " in judged, judged
        assert f"({sha[:7]}) by {name}." in judged
        return
    assert f"recorded here was made at {at:%Y-%m-%dT%H:%M:%SZ}" in judged
    assert f"({sha[:7]}) by {name}." in judged
    assert any(n.startswith("Asked for the first change") for n in result.limitations)


async def test_the_first_change_in_a_named_time_is_searched_in_it(
    attrs: OrgGraph, attrs_clone: Path
) -> None:
    """ "in 2024": the earliest change of that year, not of all time."""
    at, sha, name, _ = oldest(attrs_clone, "src/attrs", follow=False, since="2024-01-01")
    assert at.year == 2024
    result = await ask(attrs, "who made the first commit to src/attrs in 2024")
    assert result.outcome is Outcome.ANSWERED
    assert f"made at {at:%Y-%m-%dT%H:%M:%SZ}" in (result.direct_judgment or "")
    assert f"({sha[:7]}) by {name}." in (result.direct_judgment or "")


def shallow(clone: Path, into: Path) -> Path:
    """A shallow clone of `clone`: its last 50 commits."""
    url = f"file://{clone}"
    subprocess.run(["git", "clone", "-q", "--depth", "50", url, str(into)], check=True)
    return into


@pytest.mark.parametrize(
    ("how", "said"),
    [("since", "attrs's history was imported from 2020-01-01 on (fabric import git --since)"),
     ("shallow", "attrs's history was imported from a shallow clone")],
)  # fmt: skip
async def test_a_history_imported_in_part_says_the_first_may_be_earlier(
    attrs: OrgGraph, attrs_clone: Path, tmp_path: Path, how: str, said: str
) -> None:
    """What the import left out is unknown: the earliest change recorded is said as that."""
    path, since = attrs_clone, None
    if how == "since":
        since = "2020-01-01"
    else:
        path = shallow(attrs_clone, tmp_path / "shallow")
    store = MemoryStore()
    await store.bootstrap("attrs")
    graph = store.org("attrs")
    await import_git(graph, GitImport(path, name="attrs", since=since))
    result = await ask(graph, "when did _make.py first change?")
    assert result.outcome is Outcome.ANSWERED
    assert any(n.startswith(said) and "may be earlier" in n for n in result.limitations)
    whole = await ask(attrs, "when did _make.py first change?")  # the whole history
    assert not any("may be earlier" in n for n in whole.limitations)


@pytest.mark.parametrize(
    ("question", "first"),
    [("when did core.py first change?", True), ("who first committed to core.py", True),
     ("the first commit to core.py", True), ("when was core.py added?", True),
     ("who was the first to commit to core.py?", True),
     ("who was the first person to commit to core.py?", True),
     ("when was the earliest commit to core.py?", True),
     ("who committed first to core.py", True), ("who changed core.py first?", True),
     ("who created core.py", True), ("who added core.py?", True),
     ("who introduced the parser module", True),
     ("who changed core.py in the first week of may", False),
     ("when was core.py last changed?", False)],
)  # fmt: skip
def test_a_first_change_is_read(question: str, first: bool) -> None:
    understood = interpret(question, CLOCK)
    assert understood.asks_first is first
    assert understood.unasked == () and understood.unread == ()


@pytest.mark.parametrize(
    "question", ["who added tests to core.py", "who created the most issues", "who added prs"]
)
def test_something_else_made_is_no_first_change(question: str) -> None:
    """ "who created X" is X's first change; "who added tests to X" asks who changed X."""
    assert interpret(question, CLOCK).asks_first is False
