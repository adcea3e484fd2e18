"""A folder the repository no longer has (graph/git/gone.py, engine/resolving/gonefolders.py):
werkzeug's contrib (deleted in 2019) ended "contrib names no subject known here" with no way
on (z37a werkzeug 9), and requests' requests/packages (the vendored libraries, deleted in
2017) was answered for src/requests/packages.py, a file made after (z37a requests 8). Now each
ends naming the folder, its last change (date, hash, author, as git log gives them) and the
git log that lists its history; the dotted name requests.packages is still the file. On the
real histories (../shared/data)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain import gone
from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "requests")

werkzeug_clone, werkzeug, requests_clone, requests = shared_history.each("werkzeug", "requests")
histories = shared_history.histories("werkzeug", "requests")

ask = partial(answer, now=CLOCK)


def last_change(clone: Path, path: str) -> tuple[str, str, str]:
    """(day, abbreviated hash, author) of the newest commit under `path`, by git."""
    out = shared_history.git(
        clone, "log", "--no-merges", "--full-history", "-1", "--date=format-local:%Y-%m-%d",
        "--format=%ad %h %an", "--abbrev=10", "--", path,
    )  # fmt: skip
    day, sha, who = out.strip().split(" ", 2)
    return day, sha, who


@pytest.mark.parametrize(
    ("history", "question", "folder"),
    [
        ("werkzeug", "When was the contrib package last touched, and by whom?",
         "src/werkzeug/contrib"),
        ("werkzeug", "how many commits to werkzeug/contrib in 2018?", "src/werkzeug/contrib"),
        ("werkzeug", "any recent work in contrib?", "src/werkzeug/contrib"),
        ("requests", "When were the vendored libraries under requests/packages last modified, "
         "and by whom?", "requests/packages"),
        ("requests", "how many commits to requests/packages in 2016?", "requests/packages"),
    ],
)  # fmt: skip
async def test_a_deleted_folder_is_named_with_its_last_change(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str, folder: str
) -> None:
    graph, clone = histories[history]
    assert not shared_history.git(clone, "ls-files", "--", folder).strip()  # gone at the head
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    said = [n for n in result.limitations if "names a folder the repository no longer has" in n]
    assert len(said) == 1, result.limitations
    day, sha, who = last_change(clone, folder)
    assert f"{folder} in {history}, last changed {day} ({sha}, by {who})" in said[0]
    assert "git log --no-merges --full-history -- " in said[0]


async def test_the_dotted_name_is_still_the_file(requests: OrgGraph) -> None:
    """requests.packages is src/requests/packages.py (2024: one commit, Nate Prewitt)."""
    result = await ask(requests, "who changed requests.packages in 2024?")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("module:requests/src/requests/packages.py",)


async def test_only_folders_gone_from_the_head_are_kept(werkzeug: OrgGraph) -> None:
    """werkzeug/testsuite moved to tests (2014) and werkzeug to src/werkzeug (2019): not gone."""
    found = (await werkzeug.subjects_by_keys(["repository:werkzeug"]))["repository:werkzeug"]
    folders = gone.decode(found.attributes.get(gone.ATTRIBUTE))
    assert {"src/werkzeug/contrib", "werkzeug/contrib"} <= set(folders)
    assert not {"werkzeug", "werkzeug/testsuite", "werkzeug/debug", "tests"} & set(folders)
