"""Two sides compared ("X vs Y"), one of them a name needing a choice: the other side is never
dropped unsaid. A name of a person and of a file, compared with a person, is the person
(engine/resolving/actors.compared); one of several people of a name, alone committing in the
time, is answered (engine/resolving/soleactive.py); otherwise the question asks which,
saying the other side's figure (engine/resolving/activity.beside). On main 4b39642 werkzeug
"dependabot vs pre-commit-ci 2024" asked between pre-commit-ci[bot] and a workflow file,
dependabot's 12 commits nowhere (z39b w9). Figures are git's (`git log --no-merges
--full-history`, author time, by address).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, year
from tests.test_investigate import answer
from tests.test_people_words import CLOCK

HISTORIES = ("click", "werkzeug")

pytestmark = shared_history.present(*HISTORIES)

click_clone, click, werkzeug_clone, werkzeug = shared_history.each(*HISTORIES)
histories = shared_history.histories(*HISTORIES)

ask = partial(answer, now=CLOCK)

DEPENDABOT, PRE_COMMIT = "49699333+dependabot", "66853113+pre-commit-ci"
BOTH = [  # (history, question, window, each side: (name shown, git author))
    ("werkzeug", "dependabot vs pre-commit-ci 2024", year(2024),
     [("dependabot[bot]", DEPENDABOT), ("pre-commit-ci[bot]", PRE_COMMIT)]),
    ("click", "dependabot vs pre-commit-ci in 2023", year(2023),
     [("dependabot[bot]", DEPENDABOT), ("pre-commit-ci[bot]", PRE_COMMIT)]),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "sides"), BOTH)
async def test_both_sides_are_answered(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    sides: list[tuple[str, str]],
) -> None:
    """Fails on main 4b39642: CLARIFICATION_REQUIRED on one side, the other unsaid."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.clarification_prompt)
    judgment = result.direct_judgment or ""
    for name, author in sides:
        n = commits(clone, *window, author=author)
        assert n > 0 and f" in {n} commit(s) in the window" in judgment.split(f"{name} changed ")[1]


ASKED = [  # (history, question, window, the name asked about, the other side: (name, author))
    ("click", "edward vs kevin deldycke in 2025", year(2025), "edward",
     ("Kevin Deldycke", "Kevin Deldycke")),
    ("werkzeug", "pre-commit-ci vs dependabot in 2021", year(2021), "dependabot",
     ("pre-commit-ci[bot]", PRE_COMMIT)),
    ("click", "who committed more in 2021, dependabot or pre-commit-ci?", year(2021),
     "dependabot", ("pre-commit-ci[bot]", PRE_COMMIT)),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "name", "other"), ASKED)
async def test_asking_one_side_says_the_other(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    name: str,
    other: tuple[str, str],
) -> None:
    """Fails on main 4b39642: the prompt named only the side asked about."""
    graph, clone = histories[history]
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (result.outcome, result.limitations)
    prompt = result.clarification_prompt or ""
    assert prompt.startswith(f'"{name}" could mean'), prompt
    n = commits(clone, *window, author=other[1])
    assert f"Beside it the question names {other[0]} (person:" in prompt, prompt
    assert f") {n} commits from " in prompt.split("Beside it", 1)[1], prompt
