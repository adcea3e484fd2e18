"""The words a question asks with, read as rules rather than phrasing by phrasing: verbs of
changing code in every question type (engine/reading/verbs.py: "which modules churned the
most?", "who has been tinkering with X?", "what was reworked in X?", "is X still actively
developed?"), and where a question says it is asked ("requests: who touched models.py?",
engine/reading/scopes.py). The reading is checked on its own, then through `investigate` on
requests' history (cloned from ../shared/data, imported once for this module), each answer
against the one the plain phrasing gets and the figure from `git log`."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import InvestigationResult, Outcome
from engine.ports import OrgGraph
from engine.reading.interpretation import interpret
from engine.reading.vocabulary import Intent
from tests import shared_history
from tests.test_investigate import answer

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)
MODELS = "module:requests/src/requests/models.py"

# Ten or more phrasings per question type, each with a verb (or a light verb and a change
# noun) that no rule read before engine/reading/verbs.py: each was said not understood, and a
# ranking, a list of changes or a "still" question ended unanswered or was answered as
# another type.
RANKED = [
    "which modules churned the most from 2024 through 2025",
    "which modules got churned the most in 2024",
    "which modules were reworked the most in 2024",
    "which files saw the most edits in 2024",
    "which modules were hammered the most in 2025",
    "which files were touched most often last year",
    "which modules were refactored the most in 2022",
    "which files were rewritten the most in 2021",
    "which files received the most modifications in 2023",
    "which modules underwent the most revisions in 2024",
    "which files were tweaked the most in 2024",
    "what were the hottest files in 2024",
    "which modules were overhauled the most in 2023",
    "which files got the most attention in 2025",
]
WHO = [
    "who has been hacking on the routing package this year",
    "who churned datastructures in 2025",
    "who churned through datastructures in 2025",
    "who rewrote parts of the routing package in 2023",
    "who has been tinkering with wsgi.py this year",
    "who refactored serving.py in 2022",
    "who hammered on serving.py in 2025",
    "who's been poking at serving.py lately",
    "who reworked the debug package in 2024",
    "who patched serving.py in 2024",
    "who overhauled the routing package in 2022",
    "who revamped wsgi.py in 2023",
    "who maintains serving.py",
    "who cleaned up the routing package in 2023",
    "who has been fiddling with wsgi.py lately",
]
WHAT_CHANGED = [
    "what was reworked in the debug package in 2024",
    "what went into wsgi.py in 2024",
    "what's been done to datastructures lately",
    "what was refactored in serving.py in 2024",
    "what got tweaked in serving.py last month",
    "what was patched in wsgi.py in 2024",
    "what has been rewritten in the routing package this year",
    "what did David Lord rework in 2024",
    "what was overhauled in serving.py in 2023",
    "what was improved in wsgi.py in 2024",
    "what has been hacked on in serving.py this year",
]
STILL = [
    "is routing still actively developed",
    "is wsgi.py still getting commits",
    "is serving.py still under active development",
    "does anyone still touch the debug package",
    "is anyone still maintaining local.py",
    "is serving.py still being worked on",
    "does datastructures still get changes",
    "is wsgi.py still receiving updates",
    "is the routing package still in development",
    "is serving.py still being refactored",
    "is local.py still seeing commits",
]
LAST = [
    "when was serving.py last refactored",
    "when was local.py last tweaked",
    "when did someone last rework routing",
    "when was wsgi.py last patched",
    "when did anyone last hack on serving.py",
    "when was the debug package last overhauled",
    "when was datastructures last updated",
    "when was serving.py last reworked",
    "when did anyone last tinker with local.py",
    "when was routing last revised",
]
NOW = datetime(2026, 5, 10, 12, tzinfo=UTC)
KNOWN = frozenset(
    {"routing", "serving.py", "wsgi.py", "datastructures", "debug", "local.py", "David Lord"}
)


@pytest.mark.parametrize("question", RANKED)
def test_a_change_verb_asks_for_a_ranking(question: str) -> None:
    understood = interpret(question, NOW)
    assert understood.ranking is not None, understood
    assert understood.unread == () and understood.references == ()


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        *((q, Intent.WHO) for q in WHO),
        *((q, Intent.WHAT_CHANGED) for q in WHAT_CHANGED),
        *((q, Intent.STILL) for q in STILL),  # whether it is still changed
    ],
)
def test_a_change_verb_asks_its_question_type(question: str, intent: Intent) -> None:
    understood = interpret(question, NOW, KNOWN.__contains__)
    assert understood.intent is intent
    assert understood.unread == () and understood.beside == ()


@pytest.mark.parametrize("question", LAST)
def test_a_change_verb_after_last_asks_for_the_last_change(question: str) -> None:
    understood = interpret(question, NOW, KNOWN.__contains__)
    assert understood.asks_last and understood.intent is Intent.WHAT_CHANGED
    assert understood.unread == () and understood.beside == ()


@pytest.mark.parametrize(
    "question", ["who flibbered serving.py in 2024", "which modules were zorked the most"]
)
def test_a_verb_no_row_knows_is_still_named(question: str) -> None:
    """Read as a name (said to name nothing), beside a name or as a word nobody read: the
    answer says it, never reads it as a change."""
    understood = interpret(question, NOW, KNOWN.__contains__)
    said = f"{understood.unread} {understood.references} {understood.beside}"
    assert any(word in said for word in ("flibbered", "zorked"))


@pytest.mark.parametrize(
    ("question", "outer", "inner"),
    [
        ("requests: who touched models.py this year?", "requests", "models.py"),
        ("in requests, who touched models.py this year?", "requests", "models.py"),
        ("who touched models.py this year, in requests?", "requests", "models.py"),
        ("In the requests repo - what changed in models.py?", "requests", "models.py"),
        ("for requests: when was sessions.py last changed?", "requests", "sessions.py"),
    ],
)
def test_where_a_question_is_asked_holds_what_it_names(
    question: str, outer: str, inner: str
) -> None:
    known = {"requests", "models.py", "sessions.py"}.__contains__
    scopes = interpret(question, NOW, known).scopes
    assert [(s.outer, s.inner, s.prefix) for s in scopes] == [(outer, inner, True)]


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("who refactored the make module in 2024", Intent.WHO),
        ("what is the bus factor of the make module", Intent.STATUS),
        ("who changed the patch package in 2024", Intent.WHO),
    ],
)
def test_a_verb_naming_a_module_before_its_kind_word_is_its_name(
    question: str, intent: Intent
) -> None:
    """ "the make module" (attrs' _make.py): "make" was read as a verb, so the question named
    no subject and was answered for the whole organisation, and a bus factor was read as
    "what changed"."""
    understood = interpret(question, NOW)
    assert len(understood.references) == 1 and understood.references[0] in question
    assert understood.references[0] in {"make", "patch"}
    assert understood.intent is intent


def test_a_list_of_names_is_no_place() -> None:
    known = {"core.py", "parser.py"}.__contains__
    assert interpret("core.py, parser.py: who changed them?", NOW, known).scopes == ()


# --- through investigate, on requests' history ----------------------------------------------

pytestmark = shared_history.present("requests")


clone, requests_ = shared_history.fixtures("requests", "requests_")


ask = partial(answer, now=CLOCK)


def said_unread(result: InvestigationResult) -> bool:
    return any("not understood" in n.lower() or "not used" in n for n in result.limitations)


@pytest.mark.parametrize(
    ("question", "plain"),
    [
        ("which files churned the most in 2024?", "which files changed the most in 2024?"),
        ("which files were reworked the most in 2024?", "which files changed the most in 2024?"),
        ("which files saw the most edits in 2024?", "which files changed the most in 2024?"),
        ("which files were touched most often in 2024?", "which files changed the most in 2024?"),
        ("who has been tinkering with sessions.py in 2024?", "who changed sessions.py in 2024?"),
        ("who refactored sessions.py in 2024?", "who changed sessions.py in 2024?"),
        ("what went into sessions.py in 2024?", "what changed in sessions.py in 2024?"),
        ("what was reworked in sessions.py in 2024?", "what changed in sessions.py in 2024?"),
        ("is sessions.py still actively developed?", "is sessions.py still maintained?"),
        ("is anyone still maintaining sessions.py?", "is sessions.py still maintained?"),
    ],
)
async def test_a_change_verb_is_answered_as_its_plain_phrasing(
    requests_: OrgGraph, question: str, plain: str
) -> None:
    """Each was a no match naming the verb, or answered as another question type (the
    health of the module, who changed it), or answered with the verb said not understood."""
    asked, expected = await ask(requests_, question), await ask(requests_, plain)
    assert expected.outcome is Outcome.ANSWERED
    assert asked.outcome is Outcome.ANSWERED, asked.limitations
    assert asked.subject_keys == expected.subject_keys
    assert asked.direct_judgment == expected.direct_judgment
    assert not said_unread(asked), asked.limitations


async def test_a_ranking_by_lines_says_it_ranks_by_commits(requests_: OrgGraph) -> None:
    result = await ask(requests_, "which files churned the most in 2024?")
    assert any("not by lines changed" in n for n in result.limitations)


async def test_a_verb_no_row_knows_is_said(requests_: OrgGraph) -> None:
    result = await ask(requests_, "who flibbered sessions.py in 2024?")
    assert any('"flibbered"' in n for n in result.limitations)


def git_authors(clone: Path, path: str, since: str, until: str) -> dict[str, int]:
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at %an",
         "--", path],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    start, stop = datetime.fromisoformat(since), datetime.fromisoformat(until)
    counts: dict[str, int] = {}
    for line in out.splitlines():
        at, name = line.split(" ", 1)
        if start <= datetime.fromtimestamp(int(at), UTC) < stop:
            counts[name] = counts.get(name, 0) + 1
    return counts


@pytest.mark.parametrize(
    "question",
    [
        "requests: who touched models.py in 2024?",
        "in requests, who touched models.py in 2024?",
        "who touched models.py in 2024, in requests?",
        "In the requests repo: who touched models.py in 2024?",
    ],
)
async def test_the_repository_a_question_is_asked_in_holds_its_file(
    requests_: OrgGraph, clone: Path, question: str
) -> None:
    """v32's r6: "requests: who touched models.py this year?" ranked the whole repository's
    people beside the file's (Nate Prewitt 49 commits: the repository's). Now the file only,
    as git counts it."""
    result = await ask(requests_, question)
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == (MODELS,)
    counts = git_authors(clone, "src/requests/models.py", "2024-01-01T00:00:00+00:00",
                         "2025-01-01T00:00:00+00:00")  # fmt: skip
    top = max(counts, key=lambda n: counts[n])
    assert result.direct_judgment is not None
    assert f"{top} ({counts[top]} commit(s)" in result.direct_judgment
