"""Status questions about a git history ("how is core.py doing?", "is X still maintained?"):
click holds commits only, no incident, deploy, pull request or work item. The answers say which
window they read when the question named none, and never judge health from commits as if it
had been checked. Expected numbers come from `git log` (tests/test_click_history.py)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from engine.providers import Window
from engine.questions.still import judgment
from tests.test_click_history import (
    CLOCK,
    Commit,
    ask,
    between,
    click,
    clone,
    lines_of,
    pytestmark,
)

__all__ = ["click", "clone", "pytestmark"]  # its fixtures and its skip without the bundle


def touching(commits: list[Commit], path: str) -> list[Commit]:
    return [c for c in commits if path in c.paths]


async def test_a_status_question_says_its_window_and_that_health_is_not_judged(
    click: tuple[OrgGraph, list[Commit]],
) -> None:
    """It said "No canonical fact shows click.core behind or under strain in this window"
    over a 30-day window it never named, and five "No X records are retained" notes (now one,
    naming whose records were read)."""
    graph, commits = click
    start = CLOCK - timedelta(days=30)
    window = "2026-08-02T00:00:00Z to 2026-09-01T00:00:00Z"
    for question, path in (
        ("how is core.py doing?", "src/click/core.py"),
        ("is the testing module healthy?", "src/click/testing.py"),
        ("how is click doing?", ""),  # the repository: 6 commits
    ):
        result = await ask(graph, question)
        assert result.outcome is Outcome.ANSWERED, question
        assert result.temporal_label.effective_from == start
        assert f"No time was named: the answer covers {window}." in result.limitations
        judgment = result.direct_judgment or ""
        assert "behind or under strain" not in judgment
        assert judgment.startswith("The health of click")
        assert "no incident, deploy, pull-request or work-item facts were found" in judgment
        changed = [c for c in between(commits, start, CLOCK) if any(
            p.startswith(path) for p in c.paths)]  # fmt: skip
        # core.py and testing.py: none in August 2026.
        assert ("only its changes were read" in judgment) == bool(changed), question
        # The reads that found nothing, in one note (the repository's pull requests,
        # incidents and work items too).
        empty = [n for n in result.limitations if "records of click" in n]
        assert len(empty) == 1, question
        assert empty[0].endswith(" fall in this window."), empty[0]
        assert ("activity" in empty[0]) == (not changed), question


async def test_still_maintained_is_its_changes_and_the_newest_one(
    click: tuple[OrgGraph, list[Commit]],
) -> None:
    """It answered "No canonical fact shows click.shell_completion behind or under strain in
    this window" over an unnamed 30 days holding no commit."""
    graph, commits = click
    start = CLOCK - timedelta(days=365)
    result = await ask(graph, "is shell_completion still maintained?")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("module:click/src/click/shell_completion.py",)
    assert result.temporal_label.effective_from == start
    assert (
        "No time was named: the answer covers 2025-09-01T00:00:00Z to 2026-09-01T00:00:00Z."
        in result.limitations
    )
    changed = touching(between(commits, start, CLOCK), "src/click/shell_completion.py")
    newest = max(changed, key=lambda c: c.at)  # 2026-07-17 0f4738d "Fix docs and changelog"
    assert result.direct_judgment == (
        f"click.shell_completion: {len(changed)} change(s) from 2025-09-01T00:00:00Z to "
        f"2026-09-01T00:00:00Z, the latest on {newest.at:%Y-%m-%d} (\"{newest.subject}\" by "
        f"{newest.name}), {(CLOCK - newest.at).days} day(s) before 2026-09-01T00:00:00Z. "
        "Judged by commits only: no issue, review or release records are kept here."
    )


async def test_still_active_finds_the_last_change_before_the_window(
    click: tuple[OrgGraph, list[Commit]],
) -> None:
    """Armin Ronacher's last commit is years before the window: it is found and named (it
    said "No canonical fact shows Armin Ronacher behind or under strain")."""
    graph, commits = click
    result = await ask(graph, "is Armin Ronacher still active?")
    assert result.outcome is Outcome.ANSWERED
    his = [c for c in commits if c.name == "Armin Ronacher"]
    last = max(his, key=lambda c: (c.at, c.sha))  # 2018-12-20 bfb52ea
    assert not between(his, CLOCK - timedelta(days=365), CLOCK)
    assert result.direct_judgment == (
        "Armin Ronacher: no change from 2025-09-01T00:00:00Z to 2026-09-01T00:00:00Z; the "
        f'last one was on {last.at:%Y-%m-%d} ("{last.subject}", {last.sha[:7]}), '
        f"{(CLOCK - last.at).days} day(s) before 2026-09-01T00:00:00Z. Judged by commits "
        "only: no issue, review or release records are kept here."
    )
    assert not any("behind or under strain" in n for n in result.limitations)


async def test_a_status_answer_with_no_change_in_its_window_names_the_last_one(
    click: tuple[OrgGraph, list[Commit]],
) -> None:
    graph, commits = click
    result = await ask(graph, "how is core.py doing?")
    start = CLOCK - timedelta(days=30)
    core = touching(commits, "src/click/core.py")
    assert not between(core, start, CLOCK)
    last = max((c for c in core if c.at < start), key=lambda c: (c.at, c.sha))
    assert (result.direct_judgment or "").endswith(
        f"click.core's last change before it was on {last.at:%Y-%m-%d} "
        f'("{last.subject}", {last.sha[:7]}).'
    )  # 2026-07-31 047adef


async def test_more_or_less_than_last_year_compares_this_year_so_far_with_it(
    click: tuple[OrgGraph, list[Commit]], clone: Path
) -> None:
    """It compared 2025 with 2024 (the year before the one named)."""
    graph, commits = click
    result = await ask(graph, "is core.py changing more or less than last year?")
    assert result.outcome is Outcome.ANSWERED
    core = touching(commits, "src/click/core.py")
    y2025 = (datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC))
    now = len(between(core, y2025[1], CLOCK))  # 34
    then = len(between(core, *y2025))  # 47
    lines = sum(lines_of(clone, "src/click/core.py", 2026))  # 1241: all of 2026 is before CLOCK
    was = sum(lines_of(clone, "src/click/core.py", 2025))  # 1307
    days = (CLOCK - y2025[1]).days  # 243
    assert result.temporal_label.effective_from == y2025[1]
    said = result.direct_judgment or ""
    assert said.startswith(
        f"click.core changed {lines} line(s) in {now} commit(s) from 2026-01-01T00:00:00Z to "
        f"2026-09-01T00:00:00Z, against {was} line(s) in {then} commit(s) from "
        f"2025-01-01T00:00:00Z to 2026-01-01T00:00:00Z. Over {days} whole day(s) against "
        f"365, that is {lines / days:.2f} line(s) and {now / days:.2f} commit(s) a day "
        f"against {was / 365:.2f} and {then / 365:.2f}: more lines and more commits a day. "
        f"In all, {_apart(now, then, 'commit(s)')} and {_apart(lines, was, 'line(s)')} than "
        "from 2025-01-01T00:00:00Z to 2026-01-01T00:00:00Z."
    ), said
    # Each period's lines added and removed follow (93e1a76), summing to the lines changed.
    split = re.search(
        r"Lines added and removed: \+(\d+) -(\d+) \(net [+-]?\d+\) from 2026-01-01T00:00:00Z"
        r".* against \+(\d+) -(\d+) \(net [+-]?\d+\) from 2025-01-01T00:00:00Z",
        said,
    )
    assert split is not None, said
    added, removed, added_before, removed_before = (int(g) for g in split.groups())
    assert (added + removed, added_before + removed_before) == (lines, was)
    assert (
        '"last year" (2025-01-01T00:00:00Z to 2026-01-01T00:00:00Z) is what the time since is '
        "compared with: the answer covers 2026-01-01T00:00:00Z to 2026-09-01T00:00:00Z."
    ) in result.limitations
    assert not any('"less"' in n for n in result.limitations)


def test_still_about_a_subject_whose_changes_are_not_recorded_says_so() -> None:
    """A service has no commits: "no change" would claim what nothing read."""
    window = Window(CLOCK - timedelta(days=365), CLOCK, True)
    text = judgment((), {"service:checkout": "checkout"}, window, {})
    assert text.startswith(
        "checkout: changes are recorded for repositories, modules and people, not for a "
        "service, so whether it is still changed is not known here."
    )
    assert "no change" not in text


async def test_a_status_of_two_modules_gives_the_figures_of_both(
    click: tuple[OrgGraph, list[Commit]], clone: Path
) -> None:
    """"compare core.py and parser.py in 2025" gave core.py's figures alone in the judgment,
    parser.py's only among the drivers. Lines: git log --no-merges --follow --numstat."""
    graph, _ = click
    result = await ask(graph, "compare core.py and parser.py in 2025")
    assert result.outcome is Outcome.ANSWERED
    judgment = result.direct_judgment or ""
    assert "found for them" in judgment and "only their changes were read" in judgment
    for name, path in (("core", "src/click/core.py"), ("parser", "src/click/parser.py")):
        added, removed = lines_of(clone, path, 2025)
        assert f"click.{name} changed {added + removed} line(s) (+{added} -{removed})" in (
            judgment
        ), judgment
    # "compare" asks for both subjects' figures: it is not glued into a name ('"compare
    # core.py" names no subject ... "compare" was not used').
    assert not any("compare" in n for n in result.limitations), result.limitations
    assert not any("names no subject" in n for n in result.limitations), result.limitations


async def test_a_zero_count_says_the_subject_had_none_not_that_nothing_is_kept(
    click: tuple[OrgGraph, list[Commit]],
) -> None:
    """"No activity records are retained for this window" read as if nothing was kept then:
    the organisation has commits in the quarter, David Lord none."""
    graph, commits = click
    start = CLOCK - timedelta(days=92)  # 2026-06-01
    window = between(commits, start, CLOCK)
    assert window and not [c for c in window if c.email == "davidism@gmail.com"]
    result = await ask(graph, "how many commits did David Lord make over the past quarter?")
    assert result.outcome is Outcome.ANSWERED
    assert (result.direct_judgment or "").startswith("0 commit(s) by David Lord from ")
    assert "No activity records of David Lord fall in this window." in result.limitations
    assert not any("retained" in n for n in result.limitations)
    result = await ask(graph, "how many commits did Kevin Wurster make to core.py in 2025?")
    said = "No activity records of click.core by Kevin Wurster fall in this window."
    assert said in result.limitations, result.limitations


def _apart(now: int, then: int, noun: str) -> str:
    """By how many the later period differs from the earlier, as the judgment says it."""
    if now == then:
        return f"as many {noun}"
    return f"{abs(now - then)} {'more' if now > then else 'fewer'} {noun}"
