"""A word (or run of words) no rule reads and nothing known is named by ends the question,
named, whatever else the question names (engine.resolving.firstnames.UNKNOWN): an independent
check (z32a F1) had "who touched the blorptastic in werkzeug yesterday" answered for the whole
repository werkzeug and "who worked on the quux widget in attrs in May 2026" for attrs, the
word said "Not understood, so not used", while the same questions without the repository's
name ended. Only the closed list of words that qualify a question and name nothing
(engine.reading.vocabulary FILLERS, NOT_NAMES: "how many times", "the best") is passed over
while answering; each control is answered with git's count. On werkzeug's and attrs' real
histories (../shared/data), in memory."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.shared_history import commits
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("werkzeug", "attrs")

werkzeug_clone, werkzeug, attrs_clone, attrs = shared_history.each("werkzeug", "attrs")

ask = partial(answer, now=CLOCK)


def ends_naming(result: object, words: str) -> bool:
    """No answer, and a limitation naming the words as not understood."""
    said = getattr(result, "limitations", ())
    return getattr(result, "outcome", None) is Outcome.NO_MATCH and any(
        n.startswith(f'"{words}" was not understood') for n in said
    )


UNKNOWN = [
    ("werkzeug", "who touched the blorptastic in werkzeug yesterday", "blorptastic"),
    ("werkzeug", "how many commits to the zorblax in src/werkzeug/routing in 2025", "zorblax"),
    ("werkzeug", "what changed in the frobnitz of werkzeug last month", "frobnitz"),
    ("attrs", "who worked on the quux widget in attrs in May 2026", "quux widget"),
    ("attrs", "did anyone touch the snorkel thing in _make.py this year", "snorkel thing"),
    ("attrs", "who changed _funcs.py for the gizmo in 2025", "gizmo"),
]


@pytest.mark.parametrize(("history", "question", "words"), UNKNOWN)
async def test_a_word_naming_nothing_beside_a_known_name_ends_the_question_named(
    werkzeug: OrgGraph, attrs: OrgGraph, history: str, question: str, words: str
) -> None:
    """It was answered for what else the question names, the words said unused."""
    graph = werkzeug if history == "werkzeug" else attrs
    result = await ask(graph, question)
    assert ends_naming(result, words), (result.outcome, result.subject_keys, result.limitations)
    assert not result.subject_keys


async def test_without_the_known_name_the_same_word_ends_too(werkzeug: OrgGraph) -> None:
    """The control: it ended before as well."""
    result = await ask(werkzeug, "who touched the blorptastic yesterday")
    assert result.outcome is Outcome.NO_MATCH
    assert any("blorptastic" in n for n in result.limitations)


async def test_how_many_times_is_a_count_of_commits(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    """ "times" is one of the words passed over: the commits are counted (git's figure)."""
    start, end = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    result = await ask(werkzeug, "how many times was serving.py changed in 2025")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("module:werkzeug/src/werkzeug/serving.py",)
    expected = commits(werkzeug_clone, start, end, "src/werkzeug/serving.py")
    assert f"{expected} commit(s)" in (result.direct_judgment or ""), result.direct_judgment
    assert not any("not understood" in n.lower() for n in result.limitations)


async def test_the_repository_asked_plainly_is_answered(attrs: OrgGraph, attrs_clone: Path) -> None:
    """The control of the quux widget: the repository alone is answered, git's people."""
    result = await ask(attrs, "who worked on attrs in May 2026")
    assert result.outcome is Outcome.ANSWERED and result.subject_keys == ("repository:attrs",)
    start, end = datetime(2026, 5, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)
    assert f"({commits(attrs_clone, start, end)} commit(s)" in (result.direct_judgment or "")


@pytest.mark.parametrize(
    ("history", "question"),
    [
        ("werkzeug", "when did it last change"),
        ("attrs", "who touched it last month"),
        ("attrs", "how many commits went into it in 2025"),
    ],
)
async def test_a_pronoun_standing_for_no_subject_named_ends_the_question(
    werkzeug: OrgGraph, attrs: OrgGraph, history: str, question: str
) -> None:
    """ "it" stands for nothing the question names: it was answered for the whole
    organisation (z32b #16: "No subject was named: answered for the whole organisation")."""
    result = await ask(werkzeug if history == "werkzeug" else attrs, question)
    assert result.outcome is Outcome.NO_MATCH, (result.subject_keys, result.limitations)
    assert any(n.startswith('"it": stands for a subject') for n in result.limitations)


async def test_a_pronoun_beside_the_subject_it_stands_for_is_answered(werkzeug: OrgGraph) -> None:
    result = await ask(werkzeug, "is serving.py still maintained or has it been abandoned")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("module:werkzeug/src/werkzeug/serving.py",)


async def test_a_word_saying_how_the_first_change_is_asked_is_passed_over(
    werkzeug: OrgGraph,
) -> None:
    """ "first added": the path's creation is asked (engine/questions/lives.py); "added" names
    nothing (it was said not understood beside the answer; it must not end the question now
    that such words do)."""
    result = await ask(werkzeug, "When was serving.py first added?")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("module:werkzeug/src/werkzeug/serving.py",)
    said = result.direct_judgment or ""
    assert said.startswith("werkzeug/serving.py was added at 2007-05-12T09:10:27Z: "), said
    assert "moved to src/werkzeug/serving.py at 2019-02-13 (adb0edd, by David Lord)" in said
    assert not any("not understood" in n.lower() for n in result.limitations)


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("sansio/multipart.py", "module:werkzeug/src/werkzeug/sansio/multipart.py"),
        ("routing/rules.py", "module:werkzeug/src/werkzeug/routing/rules.py"),
    ],
)
async def test_a_path_s_last_parts_name_the_one_module_whose_path_ends_so(
    werkzeug: OrgGraph, werkzeug_clone: Path, path: str, key: str
) -> None:
    """ "sansio/multipart.py" named nothing (no match): the one module whose path ends so is
    answered, said, with git's count."""
    result = await ask(werkzeug, f"how many commits to {path} in 2025")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (key,)
    assert any(n.startswith(f'"{path}" was taken to mean') for n in result.limitations)
    start, end = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    counted = commits(werkzeug_clone, start, end, key.split("/", 1)[1])
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to ")


async def test_a_first_name_only_inside_other_words_elsewhere_is_its_one_carrier(
    attrs: OrgGraph, attrs_clone: Path
) -> None:
    """ "tin" is a whole word of one person's name only (Tin Tvrtković; "Martin", "testing"
    hold it inside a word): it asked which person, offering that one (c33b a09)."""
    result = await ask(attrs, "how many commits did tin make in 2025")
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    assert result.subject_keys == ("person:tinchester@gmail.com",)
    start, end = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    counted = commits(attrs_clone, start, end, author="tinchester@gmail.com")
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) by Tin Tvrtkovi")


async def test_a_first_name_of_one_person_is_that_person(werkzeug: OrgGraph) -> None:
    """The control: "armin" was that person before too."""
    result = await ask(werkzeug, "what did armin change in 2008")
    assert result.outcome is Outcome.ANSWERED
    assert any(n.startswith('"armin" was taken to mean') for n in result.limitations)


async def test_a_name_before_commits_is_whose_commits(attrs: OrgGraph, attrs_clone: Path) -> None:
    """ "hynek commits": a name no rule read, tried as a name, is the person whose commits are
    counted (c33a r10: "dependabot commits" counted everyone's, "dependabot" said unused)."""
    result = await ask(attrs, "how many hynek commits went into attrs in 2025")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    start, end = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    counted = commits(attrs_clone, start, end, author="hs@ox.cx")
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to attrs by Hynek")
    assert any(n.startswith('"hynek" was taken to mean Hynek Schlawack') for n in result.limitations)


async def test_a_name_before_commits_carried_by_two_asks_which(werkzeug: OrgGraph) -> None:
    result = await ask(werkzeug, "how many dependabot commits went into werkzeug in 2025")
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert {c.name for c in result.candidates} == {"dependabot[bot]", "dependabot-preview[bot]"}
