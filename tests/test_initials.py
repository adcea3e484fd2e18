"""A name with an initial ("C. Sachs", "R. Alex Matevish") is one reference: the question was
cut at the initial's period, and "C" or "R" asked which of everyone whose name holds that
letter was meant (issue 31, identities). On attrs, cloned from ../shared/data and imported
into the in-memory store, each figure from `git log --no-merges --author`."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.investigation.investigate import InvestigationRequest
from engine.ports import OrgGraph
from tests import shared_history
from tests.test_investigate import investigator

CLOCK = datetime(2026, 9, 1, 12, tzinfo=UTC)

pytestmark = shared_history.present("attrs")


clone, attrs = shared_history.fixtures("attrs", "attrs")


def git_commits(clone: Path, author: str, year: int) -> int:
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at",
         f"--author={author}"],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    return sum(datetime.fromtimestamp(int(t), UTC).year == year for t in out.split())


@pytest.mark.parametrize(
    ("asked", "author", "key", "year"),
    [
        ("C. Sachs", "christian.sachs@", "person:christian.sachs@sachsmail.de", 2022),
        ("C. Scahs", "christian.sachs@", "person:christian.sachs@sachsmail.de", 2022),  # a typo
        ("R. Alex Matevish", "alex@matevi.sh", "person:alex@matevi.sh", 2019),
    ],
)
async def test_a_name_with_an_initial_is_one_reference(
    attrs: OrgGraph, clone: Path, asked: str, author: str, key: str, year: int
) -> None:
    """Before: CLARIFICATION_REQUIRED, '"C" could mean: C. Sachs ...; David C Ellis ...'."""
    result, _ = await investigator(attrs, now=CLOCK).investigate(
        "me", InvestigationRequest(f"how many commits did {asked} make in {year}?")
    )
    assert result.outcome is Outcome.ANSWERED, result.clarification_prompt
    assert result.subject_keys == (key,)
    expected = git_commits(clone, author, year)
    assert expected == 1
    assert (result.direct_judgment or "").startswith(f"{expected} commit(s) by ")
