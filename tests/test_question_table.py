"""A table of questions (phrasings x time phrases x subjects, and the hard cases) over a
history made with git here, each with its expected outcome, subject and window, and the
headline numbers computed from `git log` of that repository (not from the engine).

Counting rules the expectations apply, as the engine states them: a commit count is exact to
the instant (whole days from daily rollups, a day the window cuts from its commit records), so
a commit counts when it lies in the half-open window; people are ranked from daily rollups,
so there a commit counts when its whole UTC day lies in the window.
"""

from __future__ import annotations

import random
import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain.contract import InvestigationResult, Outcome
from engine.domain.embedding import HashingEmbedder
from engine.domain.errors import BadUserInput
from engine.investigation.investigate import InvestigationRequest, Investigator
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from engine.providers import default_providers
from engine.resolving.resolution import Resolver
from engine.resolving.ring import ReferenceRing
from graph.git.importer import GitImport, import_git
from tests import gitrepo
from tests.conftest import new_org
from tests.test_investigate import SIGNER, VERSIONS, investigator

AS_OF = datetime(2024, 12, 13, 12, 0, tzinfo=UTC)
CLOCK = datetime(2025, 2, 1, tzinfo=UTC)
DAY = timedelta(days=1)
PEOPLE = [
    ("Sam Lee", "sam@corp.example"),
    ("Alex Kim", "kim@corp.example"),
    ("Alex Chen", "chen@corp.example"),
    ("Alex", "alex@corp.example"),
    ("Jo Park", "jo@corp.example"),
]
PATHS = {"httpx": "httpx/client.py", "routing": "routing/core.py", "docs": "docs/guide.md"}


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def build(path: Path) -> gitrepo.Repo:
    """~230 commits from 2023-10 to just after AS_OF, by five people, in two packages
    (httpx/, routing/: __init__.py makes them package roots) and docs/."""
    repo = gitrepo.Repo(path, now=AS_OF)
    repo.write("httpx/__init__.py", "")
    repo.write("routing/__init__.py", "")
    rng = random.Random(14)
    moments = sorted((rng.uniform(-0.9, 430) for _ in range(230)), reverse=True)
    for n, days_ago in enumerate(moments):
        area = rng.choice(["httpx", "httpx", "routing", "docs"])
        who = PEOPLE[rng.choice([0, 0, 1, 1, 1, 2, 3, 4]) if area != "docs" else 4]
        repo.lines(PATHS[area], rng.randint(1, 9), f"c{n}")
        repo.commit(who, days_ago, f"{area}: change {n}")
    # A package named by a question word ("shipping" asks about throughput elsewhere).
    repo.write("shipping/__init__.py", "")
    for n, days_ago in enumerate((200.5, 120.25, 30.5, 3.5)):
        repo.lines("shipping/rates.py", 2, f"s{n}")
        repo.commit(PEOPLE[n % 2], days_ago, f"shipping: change {n}")
    return repo


@dataclass(frozen=True)
class Commit:
    at: datetime
    email: str
    paths: tuple[str, ...]


def git_log(path: Path) -> list[Commit]:
    text = subprocess.run(
        ["git", "-C", str(path), "log", "--no-merges", "--format=\x1e%at\x1f%aE", "--name-only"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    out = []
    for block in text.split("\x1e")[1:]:
        head, _, files = block.partition("\n")
        stamp, email = head.split("\x1f")
        paths = tuple(f for f in files.split("\n") if f)
        out.append(Commit(datetime.fromtimestamp(int(stamp), UTC), email, paths))
    return out


def counted(
    commits: list[Commit],
    start: datetime,
    end: datetime,
    area: str | None,
    person: str | None = None,
    exact: bool = False,
) -> list[Commit]:
    """Commits in [start, end) (exact) or whose whole UTC day lies in it, in an area, by a
    person."""
    out = []
    for c in commits:
        day = datetime(c.at.year, c.at.month, c.at.day, tzinfo=UTC)
        inside = start <= c.at < end if exact else start <= day and day + DAY <= end
        if not inside:
            continue
        if area is not None and not any(p.startswith(area + "/") for p in c.paths):
            continue
        if person is None or c.email == person:
            out.append(c)
    return out


# phrase -> the window it means at AS_OF (half-open).
TIMES = {
    "in 2024": (utc(2024, 1, 1), AS_OF),
    "in Q4 2024": (utc(2024, 10, 1), AS_OF),
    "in Q3 2024": (utc(2024, 7, 1), utc(2024, 10, 1)),
    "during Q2 2024": (utc(2024, 4, 1), utc(2024, 7, 1)),
    "in the last 3 months": (utc(2024, 9, 13, 12), AS_OF),
    "in the last 90 days": (AS_OF - 90 * DAY, AS_OF),
    "over the past 6 weeks": (AS_OF - 42 * DAY, AS_OF),
    "since 2024-06-01": (utc(2024, 6, 1), AS_OF),
    "between 2024-03-01 and 2024-06-30": (utc(2024, 3, 1), utc(2024, 7, 1)),
    "from March 2024 to May 2024": (utc(2024, 3, 1), utc(2024, 6, 1)),
    "in November 2024": (utc(2024, 11, 1), utc(2024, 12, 1)),
    "last quarter": (utc(2024, 7, 1), utc(2024, 10, 1)),
    "last month": (utc(2024, 11, 1), utc(2024, 12, 1)),
    "this year": (utc(2024, 1, 1), AS_OF),
    "last week": (utc(2024, 12, 2), utc(2024, 12, 9)),
    "in December 2023": (utc(2023, 12, 1), utc(2024, 1, 1)),
    # A point phrase in a question counting over time: its own period (the day; the week
    # that began two weeks before asOf).
    "on 2024-11-05": (utc(2024, 11, 5), utc(2024, 11, 6)),
    "2 weeks ago": (AS_OF - 14 * DAY, AS_OF - 7 * DAY),
    # Vague phrases: the last RECENT_DAYS (90) days before asOf, stated in the label.
    "lately": (AS_OF - 90 * DAY, AS_OF),
    "recently": (AS_OF - 90 * DAY, AS_OF),
    "these days": (AS_OF - 90 * DAY, AS_OF),
    "of late": (AS_OF - 90 * DAY, AS_OF),
    "in the past fortnight": (AS_OF - 14 * DAY, AS_OF),
    # Northern meteorological seasons; halves of a year; after a year.
    "last summer": (utc(2024, 6, 1), utc(2024, 9, 1)),
    "in the summer of 2024": (utc(2024, 6, 1), utc(2024, 9, 1)),
    "in H1 2024": (utc(2024, 1, 1), utc(2024, 7, 1)),
    "in the first half of 2024": (utc(2024, 1, 1), utc(2024, 7, 1)),
    "after 2023": (utc(2024, 1, 1), AS_OF),
    # "a few" is 3, "a couple" 2 (stated); weeks of a day; weekdays (asOf is a Friday).
    "in the last few weeks": (AS_OF - 21 * DAY, AS_OF),
    "over the last couple of months": (utc(2024, 10, 13, 12), AS_OF),
    "in the week of November 6th": (utc(2024, 11, 4), utc(2024, 11, 11)),
    "since last Tuesday": (utc(2024, 12, 10), AS_OF),
}
COUNT_PHRASINGS = [
    "how many commits to the {s} module {t}?",
    "how many commits did {s} get {t}?",
    "number of commits in {s} {t}",
]
WHO_PHRASINGS = [
    "who changed the {s} module {t}?",
    "which engineers changed {s} {t}?",
    "who has driven changes to the {s} module {t}?",
    "who made the most commits to the {s} module {t}?",
]
MODULES = {"httpx": "module:shop/httpx", "routing": "module:shop/routing"}


@dataclass(frozen=True)
class Case:
    question: str
    outcome: str  # answered, no_match, clarification_required, refused
    subject: str | None = None
    window: tuple[datetime, datetime] | None = None
    area: str | None = None  # what the headline counts: a package, or None for everything
    kind: str = "count"  # count, who, none
    person: str | None = None


def window_of(phrase: str) -> tuple[datetime, datetime]:
    return TIMES[phrase]


def cases() -> list[Case]:
    out = []
    for phrase in TIMES:
        for text in COUNT_PHRASINGS:
            for name, key in MODULES.items():
                out.append(
                    Case(text.format(s=name, t=phrase), "answered", key, window_of(phrase), name)
                )
        out.append(
            Case(
                f"how many commits to the shop repository {phrase}?",
                "answered",
                "repository:shop",
                window_of(phrase),
            )
        )
        for text in WHO_PHRASINGS:
            out.append(
                Case(
                    text.format(s="httpx", t=phrase),
                    "answered",
                    MODULES["httpx"],
                    window_of(phrase),
                    "httpx",
                    "who",
                )
            )
    y2024 = window_of("in 2024")
    out += [
        # No subject: the organisation (its one repository), and the label says so.
        Case("how many commits in 2024?", "answered", "repository:shop", y2024),
        Case(
            "who are the most active contributors in 2024?",
            "answered",
            "repository:shop",
            y2024,
            None,
            "who",
        ),
        # People, by whole name.
        Case(
            "how many commits did Alex Kim make in 2024?",
            "answered",
            "person:kim@corp.example",
            y2024,
            None,
            "count",
            "kim@corp.example",
        ),
        Case(
            "how many commits did Sam Lee make in Q4 2024?",
            "answered",
            "person:sam@corp.example",
            window_of("in Q4 2024"),
            None,
            "count",
            "sam@corp.example",
        ),
        # A whole name that is also the Alexes' first name, both active: asked which.
        Case("what did Alex change in 2024?", "clarification_required", None, y2024, kind="none"),
        # Understood more often: "most active on", "still maintained", no time named (whether
        # it is still changed reads its last year, not an unnamed 30 days).
        Case("most active on httpx in 2024", "answered", MODULES["httpx"], y2024, "httpx", "who"),
        Case(
            "is httpx still maintained?",
            "answered",
            MODULES["httpx"],
            (AS_OF - 365 * DAY, AS_OF),
            kind="none",
        ),
        # Whom to ask for a review is a matter of now: the default year ("who knows X best?"
        # asks about X's whole history: engine/resolving/wholehistory.KNOWING).
        Case(
            "who should review changes to the routing module?",
            "answered",
            MODULES["routing"],
            (AS_OF - 365 * DAY, AS_OF),
            "routing",
            "who",
        ),
        # A subject named by a vocabulary word is still the subject.
        Case(
            "how many commits to the shipping module in 2024?",
            "answered",
            "module:shop/shipping",
            y2024,
            "shipping",
        ),
        Case(
            "who changed the shipping module in 2024?",
            "answered",
            "module:shop/shipping",
            y2024,
            "shipping",
            "who",
        ),
        # Misspelt and differently cased: the one close subject, and the answer says so.
        Case(
            "how many commits to the htpx module in 2024?",
            "answered",
            MODULES["httpx"],
            y2024,
            "httpx",
        ),
        Case("how many commits to httpxx in 2024?", "answered", MODULES["httpx"], y2024, "httpx"),
        Case(
            "how many commits to the Routing module in 2024?",
            "answered",
            MODULES["routing"],
            y2024,
            "routing",
        ),
        # Absent subjects.
        Case("how many commits to the zqxv module in 2024?", "no_match"),
        Case("who changed the nonexistentpkg module last month?", "no_match"),
        # Future times are refused, naming the phrase; ranges over 400 days ask again,
        # offering the last 400 days (test_a_range_too_wide_offers_the_widest_allowed).
        Case("how many commits to the httpx module in 2025?", "refused"),
        Case("how many commits to the httpx module since 2020?", "clarification_required"),
        Case(
            "how many commits to the httpx module in the last 500 days?", "clarification_required"
        ),
        Case("how many commits to the httpx module before 2024?", "clarification_required"),
        # The future: refused as "in 2030" is (it answered the past year, said).
        Case("how many commits to the httpx module next week?", "refused"),
        # A time phrase not understood: named, never answered over another window (it was
        # answered for the default window, said beside it).
        Case("how many commits to the httpx module since the outage?", "no_match"),
    ]
    return out


CASES = cases()


@pytest.fixture(scope="module")
async def shop(tmp_path_factory: pytest.TempPathFactory) -> tuple[OrgGraph, list[Commit]]:
    path = tmp_path_factory.mktemp("table") / "shop"
    build(path)
    store = MemoryStore(embedder=HashingEmbedder(128))
    org = new_org()
    await store.bootstrap(org)
    graph = store.org(org)
    await import_git(graph, GitImport(path))
    return graph, git_log(path)


async def ask(graph: OrgGraph, question: str, receipts: tuple[str, ...] = ()) -> InvestigationResult:
    engine = Investigator(
        graph,
        Resolver(graph, ReferenceRing(), graph.org_id),
        default_providers(),
        DeterministicSynthesizer(),
        SIGNER,
        VERSIONS,
        now=lambda: CLOCK,
    )
    request = InvestigationRequest(question, as_of=AS_OF, prior_receipts=receipts)
    result, _ = await engine.investigate("me", request)
    return result


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 150 and len({c.question for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.question for c in CASES])
async def test_question(shop: tuple[OrgGraph, list[Commit]], case: Case) -> None:
    graph, commits = shop
    if case.outcome == "refused":
        with pytest.raises(BadUserInput, match=r'^"'):
            await ask(graph, case.question)
        return
    result = await ask(graph, case.question)
    assert result.outcome is Outcome(case.outcome)
    if result.outcome is not Outcome.ANSWERED:
        return
    assert result.subject_keys == (case.subject,)
    assert case.window is not None and result.temporal_label is not None
    assert (result.temporal_label.effective_from, result.temporal_label.effective_to) == (
        case.window
    )
    headline = result.direct_judgment or ""
    # Counts, and since e5f95d5 the people ranked too, are read to the instant: a day the
    # window cuts comes from its commit records, as git counts it.
    expected = counted(commits, *case.window, case.area, case.person, exact=True)
    if case.kind == "count":
        by = "by" if case.person else "to"
        assert headline.startswith(f"{len(expected)} commit(s) {by} "), headline
    elif case.kind == "who":
        top = Counter(c.email for c in expected).most_common()
        if not top:
            assert headline.startswith("No one changed"), headline
            return
        found = re.search(r"ranked by commits: (.+?) \((\d+) commit", headline)
        assert found is not None, headline
        names = {email: name for name, email in PEOPLE}
        leaders = {names[e] for e, n in top if n == top[0][1]}
        assert found.group(1) in leaders and int(found.group(2)) == top[0][1], headline


async def test_a_shared_name_lists_the_others(shop: tuple[OrgGraph, list[Commit]]) -> None:
    graph, _ = shop
    result = await ask(graph, "what did Alex change in 2024?")
    # Namesakes active in 2024: asked which, Alex's own whole name first (issue 31).
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    assert {c.subject_key for c in result.candidates} == {
        "person:alex@corp.example",
        "person:kim@corp.example",
        "person:chen@corp.example",
    }


async def test_a_misspelt_name_says_what_it_was_taken_to_mean(
    shop: tuple[OrgGraph, list[Commit]],
) -> None:
    graph, _ = shop
    result = await ask(graph, "how many commits to the htpx module in 2024?")
    assert any('"htpx" names no subject exactly' in n for n in result.limitations)
    result = await ask(graph, "how many commits to the Routing module in 2024?")
    assert not any("names no subject exactly" in n for n in result.limitations)


@pytest.mark.parametrize(
    ("phrase", "suggestion", "window"),
    [
        ("since 2020", "in the last 400 days", (AS_OF - 400 * DAY, AS_OF)),
        ("in the last 500 days", "in the last 400 days", (AS_OF - 400 * DAY, AS_OF)),
        # An open start: the 400 whole days before 2024-01-01.
        (
            "before 2024",
            "between 2022-11-27 and 2023-12-31",
            (utc(2022, 11, 27), utc(2024, 1, 1)),
        ),
    ],
)
async def test_a_range_too_wide_offers_the_widest_allowed(
    shop: tuple[OrgGraph, list[Commit]],
    phrase: str,
    suggestion: str,
    window: tuple[datetime, datetime],
) -> None:
    """The clarification names the phrase and the cap, offers a question for the widest
    allowed window ending where the phrase ends, and its receipt binds the subject on that
    question: asked with it, the answer covers that window, counted as git counts it."""
    graph, commits = shop
    question = f"how many commits to the httpx module {phrase}?"
    result = await ask(graph, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED
    prompt = result.clarification_prompt or ""
    offered = f"how many commits to the httpx module {suggestion}?"
    assert prompt.startswith(f'"{phrase}" asks for') and "400 days" in prompt, prompt
    assert f'"{offered}"' in prompt, prompt
    assert [c.subject_key for c in result.candidates] == [MODULES["httpx"]]
    receipt = result.candidates[0].receipt
    again = await ask(graph, offered, (receipt,))
    assert again.outcome is Outcome.ANSWERED and again.subject_keys == (MODULES["httpx"],)
    label = again.temporal_label
    assert label is not None and (label.effective_from, label.effective_to) == window
    expected = counted(commits, *window, "httpx")
    assert (again.direct_judgment or "").startswith(f"{len(expected)} commit(s) to ")


async def test_a_range_too_wide_is_refused_without_clarification(
    shop: tuple[OrgGraph, list[Commit]],
) -> None:
    engine = investigator(shop[0], now=CLOCK)
    request = InvestigationRequest(
        "how many commits to the httpx module since 2020?",
        as_of=AS_OF,
        allow_clarification=False,
    )
    with pytest.raises(BadUserInput, match=r'^"since 2020": the range is wider than 400 days'):
        await engine.investigate("me", request)


@pytest.mark.parametrize("phrase", ["lately", "recently", "these days", "of late"])
async def test_a_vague_phrase_is_the_last_90_days_and_the_label_says_so(
    shop: tuple[OrgGraph, list[Commit]], phrase: str
) -> None:
    graph, _ = shop
    result = await ask(graph, f"who has driven changes to the routing module {phrase}?")
    label = result.temporal_label
    assert label is not None and label.note == f'"{phrase}" is read as the last 90 days'
    assert any(n.startswith(label.note) for n in result.limitations)


async def test_unusable_time_phrases_are_stated(shop: tuple[OrgGraph, list[Commit]]) -> None:
    graph, _ = shop
    for phrase in ("since the outage", "next sprint"):
        result = await ask(graph, f"how many commits to the httpx module {phrase}?")
        assert any(f'"{phrase}' in n and "not understood" in n for n in result.limitations)


async def test_many_later_times_end_the_question_never_a_failure(
    shop: tuple[OrgGraph, list[Commit]],
) -> None:
    """Later time phrases made more limitations than the contract allows (cut at the cap,
    counted as displaced): each was 'Only the first time phrase is used', 2024 answered. A
    later time now ends the question, naming the first two with the question to ask about
    each (engine.reading.uncompared.two_times), never a failure. The cap itself is the
    contract's (tests/test_answer.py, tests/test_validation.py)."""
    graph, _ = shop
    question = (
        "how is httpx doing in 2024, in 2023, in 2022, in 2021, in 2020, in 2019, in 2018, "
        "in 2017 and in 2016?"
    )
    result = await ask(graph, question)
    assert result.outcome is Outcome.NO_MATCH, result.limitations
    (said,) = [n for n in result.limitations if "are two times named" in n]
    assert said.startswith('"in 2024" (') and '"in 2023" (' in said
