"""A release named by version is placed at its release commit (issue 32): "what changed
between 8.4.1 and 8.4.2", "how many commits since 26.1.0?" ended as no match, "releases
(tags) are not recorded here". The import records no tags; each history holds its release
commits by its own convention (click "release version 8.4.1", werkzeug "release version
3.1.8", requests "v2.34.0", attrs "Prepare 26.1.0"). Truth from git on ../shared/data's
bundles: the release commit found by its subject in `git log --no-merges --format='%H %at
%s'`, the window's commits counted by `git log --no-merges` (author time). A version only a
"start version" commit names, or none, stays a no match naming the phrase.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.reading.time.releases import marked
from tests import shared_history
from tests.shared_history import commits, git
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
SECOND = timedelta(seconds=1)

pytestmark = shared_history.present("click", "werkzeug", "requests", "attrs")

(click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone,
 attrs) = shared_history.each("click", "werkzeug", "requests", "attrs")  # fmt: skip
histories = shared_history.histories("click", "werkzeug", "requests", "attrs")
ask = partial(answer, now=CLOCK)
Histories = dict[str, tuple[OrgGraph, Path]]


def release_commit(clone: Path, subject: str) -> tuple[str, datetime]:
    """(hash, author time) of the one commit whose subject is `subject` (case aside), by git."""
    out = git(clone, "log", "--no-merges", "--format=%H %at %s")
    found = [line.split(" ", 2) for line in out.splitlines()]
    (sha, at), = [(h, a) for h, a, s in found if s.casefold() == subject.casefold()]
    return sha, datetime.fromtimestamp(int(at), UTC)


@pytest.mark.parametrize(
    ("name", "phrase", "first", "second"),
    [("click", "between 8.4.1 and 8.4.2", "release version 8.4.1", "Release version 8.4.2"),
     ("werkzeug", "from 3.1.7 to 3.1.8", "release version 3.1.7", "release version 3.1.8"),
     ("requests", "between v2.34.0 and v2.34.2", "v2.34.0", "v2.34.2"),
     ("attrs", "between 25.4.0 and 26.1.0", "Prepare 25.4.0", "Prepare 26.1.0")],
)  # fmt: skip
async def test_between_two_releases_counts_after_the_first_up_to_the_second(
    histories: Histories, name: str, phrase: str, first: str, second: str
) -> None:
    """(V1's release commit, V2's release commit]: it was a no match naming the phrase."""
    graph, clone = histories[name]
    (sha1, at1), (sha2, at2) = release_commit(clone, first), release_commit(clone, second)
    result = await ask(graph, f"how many commits {phrase}?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    expected = commits(clone, at1 + SECOND, at2 + SECOND)
    assert result.direct_judgment.startswith(f"{expected} commit(s) "), result.direct_judgment
    said = next(n for n in result.limitations if n.startswith(f'"{phrase}" is read'))
    assert f"'{first}' ({sha1[:7]}," in said and f"'{second}' ({sha2[:7]}," in said, said


@pytest.mark.parametrize(
    ("name", "question", "subject"),
    [("click", "who contributed since the 8.4.1 release?", "release version 8.4.1"),
     ("attrs", "how many commits since 26.1.0?", "Prepare 26.1.0"),
     ("werkzeug", "how many commits since version 3.1.7?", "release version 3.1.7")],
)  # fmt: skip
async def test_since_a_release_counts_from_its_release_commit(
    histories: Histories, name: str, question: str, subject: str
) -> None:
    """(V's release commit, now): the window starts after the commit git finds by its
    subject (the release commit is the release's own, as "between" reads it)."""
    graph, clone = histories[name]
    sha, at = release_commit(clone, subject)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    label = result.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == (at + SECOND, CLOCK)
    assert any(f"'{subject}' ({sha[:7]}," in n for n in result.limitations), result.limitations
    if question.startswith("how many"):
        expected = commits(clone, at + SECOND, CLOCK)
        assert result.direct_judgment.startswith(f"{expected} commit(s) "), result.direct_judgment


@pytest.mark.parametrize(
    ("name", "phrase"),
    [("click", "since 8.5.0"),  # only "start version 8.5.0" names it: no release
     ("werkzeug", "since 9.9.9"),  # no commit names it
     ("requests", "since 2.34"),  # "v2.34.0" is another version: matched exactly
     ("click", "since the last release")],  # the latest release before now: not read here
)  # fmt: skip
async def test_a_release_no_commit_marks_stays_a_no_match_naming_it(
    histories: Histories, name: str, phrase: str
) -> None:
    """Never another window: the question ends naming the phrase, as before."""
    graph, _ = histories[name]
    result = await ask(graph, f"how many commits {phrase}?")
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert any(f'"{phrase}" names a release' in n for n in result.limitations), result.limitations


@pytest.mark.parametrize(
    ("subject", "version"),
    [("release version 8.4.1", "8.4.1"), ("Release 8.4.0", "8.4.0"), ("v2.34.0", "2.34.0"),
     ("Bump version and add release notes for v2.32.4", "2.32.4"),
     ("Prepare 26.1.0", "26.1.0"), ("start version 8.4.2", None),
     ("Fix dev version in 8.4.1", None), ("Bump version to 8.4.dev", None),
     ("v2.34.0.dev1", None), ("Bump urllib3 from 1.2 to 1.3", None)],
)  # fmt: skip
def test_only_a_release_marker_marks_a_release(subject: str, version: str | None) -> None:
    found = marked(subject)
    assert (found[0] if found else None) == version
