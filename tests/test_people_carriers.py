"""A bare first name asked over a time the question names: every person carrying it as a word of
their name who committed then is offered, over both periods of a comparison
(engine/resolving/namesakes.py `widened`, `asked`; engine/resolving/soleactive.py). On main
20b18ad requests "what did Michael do in 2018?" was answered for the person named just
"Michael" (michael-k), Michael R. Bernstein's commit of 2018 unsaid; "how many commits did Ben
make in 2021?" asked between three people named "Ben" who made none then, leaving out Ben
Bodenmiller and Ben Li-Sauerwine who did; werkzeug "Kai in 2020 vs 2021" compared the person
named "Kai" (1 commit in 2021) while Kai Chen made 5 in 2020. Truth is git's: the addresses of
the commits (`git log --no-merges --full-history`, author time) whose author name holds the word.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import git, year
from tests.test_investigate import answer
from tests.test_people_words import CLOCK

HISTORIES = ("werkzeug", "requests")

pytestmark = shared_history.present(*HISTORIES)

werkzeug_clone, werkzeug, requests_clone, requests = shared_history.each(*HISTORIES)
histories = shared_history.histories(*HISTORIES)

ask = partial(answer, now=CLOCK)


def carriers(clone: Path, word: str, *windows: tuple[datetime, datetime]) -> dict[str, int]:
    """The addresses whose commits in the windows carry `word` as a word of the author's name,
    with their commits there, as git lists them."""
    out = git(clone, "log", "--no-merges", "--full-history", "--format=%at|%aN|%aE")
    found: dict[str, int] = {}
    for line in out.splitlines():
        at, name, address = line.split("|", 2)
        when = datetime.fromtimestamp(int(at), UTC)
        if word in name.lower().split() and any(s <= when < e for s, e in windows):
            found[address.lower()] = found.get(address.lower(), 0) + 1
    return found


ASKED = [  # (history, question, the word, the windows asked)
    ("requests", "what did Michael do in 2018?", "michael", [year(2018)]),
    ("requests", "how many commits did Michael make in 2018?", "michael", [year(2018)]),
    ("requests", "how many commits did Ben make in 2021?", "ben", [year(2021)]),
    ("werkzeug", "Kai in 2020 vs 2021", "kai", [year(2020), year(2021)]),
    ("werkzeug", "how many commits did Kai make in 2020 vs 2021?", "kai",
     [year(2020), year(2021)]),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "word", "windows"), ASKED)
async def test_everyone_of_the_name_who_committed_then_is_offered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    word: str,
    windows: list[tuple[datetime, datetime]],
) -> None:
    """Fails on main 20b18ad: answered for one of them (Michael 2018, Kai 2020 vs 2021), or
    asked between people of the name who made none then (Ben 2021)."""
    graph, clone = histories[history]
    active = carriers(clone, word, *windows)
    assert len(active) > 1, active
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (
        result.outcome,
        result.direct_judgment,
        result.limitations,
    )
    prompt = result.clarification_prompt or ""
    for address in active:
        assert f"person:{address}" in prompt, (address, prompt)


def said(n: int, window: tuple[datetime, datetime]) -> str:
    start, end = (w.strftime("%Y-%m-%dT%H:%M:%SZ") for w in window)
    return f"{n:,} commit{'' if n == 1 else 's'} from {start} to {end}"


COMPARED = [  # (history, question, the word, the two periods, earlier first)
    ("requests", "Ben in 2016 vs 2021", "ben", (year(2016), year(2021))),
    ("werkzeug", "Kai in 2020 vs 2021", "kai", (year(2020), year(2021))),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "word", "periods"), COMPARED)
async def test_each_one_offered_says_both_periods_commits(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    word: str,
    periods: tuple[tuple[datetime, datetime], tuple[datetime, datetime]],
) -> None:
    """Fails on main 20b18ad: answered for one of them (Kai), or the choices said the later
    period's commits alone (Ben: benweatherman "0 commits" in 2021, his 2016 commit unsaid)."""
    graph, clone = histories[history]
    earlier, later = (carriers(clone, word, p) for p in periods)
    assert earlier and later and set(earlier) != set(later)
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (result.outcome, result.limitations)
    prompt = result.clarification_prompt or ""
    for address in {*earlier, *later}:
        offered = prompt.split(f"person:{address}", 1)[1].split(";", 1)[0]
        both = f"{said(earlier.get(address, 0), periods[0])} and "
        both += said(later.get(address, 0), periods[1])
        assert both in offered, (address, offered)


ANSWERED = [  # one person of the name committed then: answered, as before
    ("requests", "how many commits did Ben make in 2016?", "ben", year(2016),
     "1 commit(s) by Ben "),
    ("werkzeug", "how many commits did Kai make in 2021?", "kai", year(2021),
     "1 commit(s) by Kai "),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "word", "window", "judged"), ANSWERED)
async def test_the_one_of_the_name_who_committed_then_is_answered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    word: str,
    window: tuple[datetime, datetime],
    judged: str,
) -> None:
    """Passes on main 20b18ad and now: a namesake with no commit then does not ask which."""
    graph, clone = histories[history]
    active = carriers(clone, word, window)
    assert list(active.values()) == [1], active
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.clarification_prompt)
    assert (result.direct_judgment or "").startswith(judged), result.direct_judgment


async def test_a_full_name_compared_over_two_periods_is_that_person(
    histories: dict[str, tuple[OrgGraph, Path]],
) -> None:
    """Passes on main 20b18ad and now: "Kai Chen" names one person, whatever "Kai" names."""
    graph, clone = histories["werkzeug"]
    before = carriers(clone, "chen", year(2020)).get("kaichen120@gmail.com", 0)
    assert before > 0
    result = await ask(graph, "how many commits did Kai Chen make in 2020 vs 2021?")
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.clarification_prompt)
    judgment = result.direct_judgment or ""
    assert judgment.startswith("Kai Chen changed "), judgment
    assert f"in {before} commit(s) from 2020-01-01" in judgment, judgment
