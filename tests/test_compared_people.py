"""Two periods compared with "who" asked: each period's people with their commits, beside
both periods' commits and lines (engine/reading/twoperiods.py `measure`,
engine/questions/compared.py `people`). A checker (z42 a-click-08) asked click "docs changes
in march 2026 vs may 2026 - how many commits and who": the commits were right (13 vs 19) but
"who" was dropped unsaid; "who touched termui.py in q2 vs q3 2026" (b-click-07) ended, "ask
about each period in turn". A comparison not asking who is answered as before. Figures are
git's (author time, --no-merges --full-history), people as the import groups them (one per
address, the same full name joined), on click's and attrs' real histories (../shared/data),
asked on 2026-09-01T12:00:00Z."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import compared_as_git, on, stamp
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("click", "attrs")

(click_clone, click, attrs_clone, attrs) = shared_history.each("click", "attrs")
histories = shared_history.histories("click", "attrs")
ask = partial(answer, now=CLOCK)

# history, question, the later period (answered), the earlier one, the subject's name, path
CASES = [
    ("click", "docs changes in march 2026 vs may 2026 - how many commits and who",
     (on(2026, 5), on(2026, 6)), (on(2026, 3), on(2026, 4)), "docs", "docs/"),
    ("click", "who touched termui.py in q2 vs q3 2026", (on(2026, 7), CLOCK),
     (on(2026, 4), on(2026, 7)), "click.termui", "src/click/termui.py"),
    ("attrs", "changes to docs in march 2026 vs july 2026 - how many commits and who",
     (on(2026, 7), on(2026, 8)), (on(2026, 3), on(2026, 4)), "docs", "docs/"),
    ("attrs", "who touched _make.py in q1 vs q3 2026", (on(2026, 7), CLOCK),
     (on(2026, 1), on(2026, 4)), "attr._make", "src/attr/_make.py"),
]  # fmt: skip


def people(clone: Path, path: str, start: datetime, end: datetime) -> list[tuple[set[str], int]]:
    """Each person's commits (no merges) to `path` in [start, end) by author time, as git
    counts them; a person is every name sharing an address, or the same name, anywhere in the
    history (as the import joins them), given with all their names."""
    log = shared_history.git(clone, "log", "--no-merges", "--full-history",
                             "--format=%at%x09%aN%x09%aE")  # fmt: skip
    root: dict[str, str] = {}

    def top(key: str) -> str:
        while root.setdefault(key, key) != key:
            key = root[key]
        return key

    for line in log.splitlines():
        _, name, address = line.split("\t")
        root[top(f"name:{name.casefold()}")] = top(f"<{address.lower()}>")
    names: dict[str, set[str]] = {}
    for line in log.splitlines():
        names.setdefault(top(f"name:{line.split(chr(9))[1].casefold()}"), set()).add(
            line.split("\t")[1]
        )
    counted: Counter[str] = Counter()
    touched = shared_history.git(clone, "log", "--no-merges", "--full-history",
                                 "--format=%at%x09%aN", "--", path)  # fmt: skip
    for line in touched.splitlines():
        at, name = line.split("\t")
        if start.timestamp() <= int(at) < end.timestamp():
            counted[top(f"name:{name.casefold()}")] += 1
    return [(names[k], n) for k, n in counted.items()]


@pytest.mark.parametrize(("history", "question", "later", "earlier", "name", "path"), CASES)
async def test_who_of_two_periods_names_each_periods_people(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    later: tuple[datetime, datetime],
    earlier: tuple[datetime, datetime],
    name: str,
    path: str,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    compared_as_git(result, clone, later, earlier, path)
    said = result.direct_judgment or ""
    for start, end in (later, earlier):
        head = f"Who changed {name} from {stamp(start)} to {stamp(end)}: "
        assert head in said, said
        section = re.split(r"(?<=\.) Who changed ", said.split(head, 1)[1])[0]
        truth = people(clone, path, start, end)
        assert truth, (history, path, start)  # each case's periods have commits by git
        for names, commits in truth:
            assert any(f"{n} ({commits} commit(s))" in section for n in names), (names, section)
        many = "person" if len(truth) == 1 else "people"
        assert f"({len(truth)} {many} in all" in section, section


# A comparison not asking who: answered as before, with no one named.
GUARDS = [
    ("click", "how many commits to docs in march 2026 vs may 2026",
     (on(2026, 5), on(2026, 6)), (on(2026, 3), on(2026, 4)), "docs/"),
    ("attrs", "how many commits to docs in march 2026 vs july 2026",
     (on(2026, 7), on(2026, 8)), (on(2026, 3), on(2026, 4)), "docs/"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "later", "earlier", "path"), GUARDS)
async def test_a_comparison_not_asking_who_names_no_one(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    later: tuple[datetime, datetime],
    earlier: tuple[datetime, datetime],
    path: str,
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, question)
    compared_as_git(result, clone, later, earlier, path)
    assert result.outcome is Outcome.ANSWERED
    assert "Who changed" not in (result.direct_judgment or "")
