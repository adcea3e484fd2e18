"""A name several people carry, asked over a time the question names, when only one of them
committed then: answered for that one, the others' none said by name
(engine/resolving/soleactive.py). On main 4b39642 each asked which person, the figure sitting
in the prompt (z39b c6 "dependabot commits 2023", w9, r12 "joren commits 2026"). Figures are
git's (`git log --no-merges --full-history`, author time, by the author's address or name).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits, on, year
from tests.test_investigate import answer
from tests.test_people_words import CLOCK

HISTORIES = ("click", "werkzeug", "requests")

pytestmark = shared_history.present(*HISTORIES)

(
    click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests
) = shared_history.each(*HISTORIES)  # fmt: skip
histories = shared_history.histories(*HISTORIES)

ask = partial(answer, now=CLOCK)

DEPENDABOT, PREVIEW = "49699333+dependabot", "27856297+dependabot-preview"
SETTLED = [  # (history, question, window, (name shown, git author), the others (name, author))
    ("requests", "joren commits 2026", (on(2026), CLOCK),
     ("Joren Hammudoglu", "jhammudoglu"), [("Joren Vrancken", "jorenvrancken")]),
    ("requests", "how many commits did joren make in 2023?", year(2023),
     ("Joren Vrancken", "jorenvrancken"), [("Joren Hammudoglu", "jhammudoglu")]),
    ("click", "dependabot commits 2023", year(2023),
     ("dependabot[bot]", DEPENDABOT), [("dependabot-preview[bot]", PREVIEW)]),
    ("click", "how many commits did pre-commit-ci make in 2025?", year(2025),
     ("pre-commit-ci-lite[bot]", "117423508"), [("pre-commit-ci[bot]", "66853113")]),
    ("click", "kevin commits may 2026", (on(2026, 5), on(2026, 6)),
     ("Kevin Deldycke", "Kevin Deldycke"), [("Kevin Yap", "Kevin Yap"),
                                            ("Kevin Wurster", "Kevin Wurster")]),
    ("werkzeug", "dependabot commits 2020", year(2020),
     ("dependabot-preview[bot]", PREVIEW), [("dependabot[bot]", DEPENDABOT)]),
    ("werkzeug", "how many commits did dependabot make in 2023?", year(2023),
     ("dependabot[bot]", DEPENDABOT), [("dependabot-preview[bot]", PREVIEW)]),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "meant", "others"), SETTLED)
async def test_the_one_who_committed_is_answered_the_others_none_said(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime],
    meant: tuple[str, str],
    others: list[tuple[str, str]],
) -> None:
    """Fails on main 4b39642: CLARIFICATION_REQUIRED between the people of the name."""
    graph, clone = histories[history]
    expected = commits(clone, *window, author=meant[1])
    assert expected > 0
    assert all(commits(clone, *window, author=a) == 0 for _, a in others)
    result = await ask(graph, question)
    assert result.outcome is Outcome.ANSWERED, (result.outcome, result.clarification_prompt)
    judgment = result.direct_judgment or ""
    assert judgment.startswith(f"{expected} commit(s) by {meant[0]} "), judgment
    said = [n for n in result.limitations if "people here" in n]
    assert len(said) == 1, result.limitations
    assert f"{meant[0]} (person:" in said[0] and f"made {expected} commit" in said[0], said
    assert all(name in said[0] for name, _ in others) and " none" in said[0], said


ASKED = [  # several of the name committed then, or none did, or no time was named: asked
    ("werkzeug", "how many commits did dependabot make in 2021?",
     year(2021), [DEPENDABOT, PREVIEW]),
    ("click", "kevin commits 2016", year(2016), []),
    ("requests", "joren commits", None, []),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "window", "active"), ASKED)
async def test_still_asked_unless_one_alone_committed_in_a_time_named(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    window: tuple[datetime, datetime] | None,
    active: list[str],
) -> None:
    """Passes on main 4b39642 and now: the rule never picks among active people, and never
    over a window the question did not name."""
    graph, clone = histories[history]
    if window is not None:
        assert all(commits(clone, *window, author=a) > 0 for a in active)
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (
        result.outcome,
        result.direct_judgment,
    )
