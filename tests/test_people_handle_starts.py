"""A login or handle written short, the start of a person's e-mail local part or GitHub login
(engine/resolving/handleprefix.py): asked back offering that person, the address that begins
so named, never taken for the handle. On main 4b39642 each ended as naming nothing known
("first commit by lukasa": z39b r7, while Cory Benfield committed as lukasaoz@gmail.com).
Who is offered is checked against git's authors (`git log --no-merges --full-history`).
"""

from __future__ import annotations

import unicodedata
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import answer
from tests.test_people_words import CLOCK

HISTORIES = ("click", "werkzeug", "requests", "attrs")

pytestmark = shared_history.present(*HISTORIES)

(
    click_clone, click, werkzeug_clone, werkzeug, requests_clone, requests, attrs_clone, attrs
) = shared_history.each(*HISTORIES)  # fmt: skip
histories = shared_history.histories(*HISTORIES)

ask = partial(answer, now=CLOCK)


def authors_beginning(clone: Path, word: str) -> dict[str, set[str]]:
    """Each address (its local part, or a no-reply address's login, beginning with `word`
    without being it) and the author names git gives it (composed: NFC)."""
    out = shared_history.git(clone, "log", "--no-merges", "--full-history", "--format=%ae\t%an")
    found: dict[str, set[str]] = {}
    for line in out.splitlines():
        address, name = line.split("\t", 1)
        login = address.lower().partition("@")[0].rpartition("+")[2]
        if login.startswith(word) and login != word:
            found.setdefault(address.lower(), set()).add(unicodedata.normalize("NFC", name))
    return found


STARTS = [  # (history, question, the word, the person's name offered)
    ("requests", "first commit by lukasa", "lukasa", "Cory Benfield"),
    ("requests", "how many commits did lukasa make in 2016?", "lukasa", "Cory Benfield"),
    ("attrs", "first commit by tinche", "tinche", "Tin Tvrtković"),
    ("attrs", "tinche commits in 2025", "tinche", "Tin Tvrtković"),
    ("click", "when did ofekmeis last commit?", "ofekmeis", "Ofek Lev"),
    ("werkzeug", "how many commits did dasdas make in 2013?", "dasdas", "Daniel Neuhäuser"),
]  # fmt: skip


@pytest.mark.parametrize(("history", "question", "word", "person"), STARTS)
async def test_a_handle_written_short_offers_whose_it_begins(
    histories: dict[str, tuple[OrgGraph, Path]],
    history: str,
    question: str,
    word: str,
    person: str,
) -> None:
    """Fails on main 4b39642: NO_MATCH, '"lukasa" names no subject known here'."""
    graph, clone = histories[history]
    begins = authors_beginning(clone, word)
    assert len(begins) == 1 and person in next(iter(begins.values())), begins  # one address
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (result.outcome, result.limitations)
    offered = [unicodedata.normalize("NFC", c.name) for c in result.candidates]
    assert offered == [person], result.candidates
    prompt = result.clarification_prompt or ""
    assert f'"{word}" is no name' in prompt and "begins so" in prompt, prompt
    assert any(address in prompt for address in begins), (prompt, begins)


NOT_STARTS = [  # no one's handle begins so, or too short to say: a no-match as before
    ("werkzeug", "first commit by zzqqxx"),
    ("requests", "how many commits did qwzxvb make in 2016?"),
]


@pytest.mark.parametrize(("history", "question"), NOT_STARTS)
async def test_no_handle_begins_so_still_names_nothing(
    histories: dict[str, tuple[OrgGraph, Path]], history: str, question: str
) -> None:
    """Passes on main 4b39642 and now: nothing is offered that no handle begins with."""
    graph, clone = histories[history]
    word = question.split()[-1 if "by" in question else 4]
    assert not authors_beginning(clone, word), word
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, (result.outcome, result.clarification_prompt)
