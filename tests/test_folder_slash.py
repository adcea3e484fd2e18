"""A folder written with its slash after a place word ("what changed under src/ in May
2026?"): the tokens leave the slash out, so "under src" was read as one name, and the answer
said no commit author, file, module or repository is named "under src" (click, attrs, z42).
Now the reference is the path "src/" (engine/reading/references.py `paths`), said as the folder
it is; a folder that is a module ("under docs/") is answered with git's count of it."""

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

pytestmark = shared_history.present("click", "attrs")

click_clone, click, attrs_clone, attrs = shared_history.each("click", "attrs")
histories = shared_history.histories("click", "attrs")

ask = partial(answer, now=CLOCK)
THIS_YEAR = (datetime(2026, 1, 1, tzinfo=UTC), CLOCK)


@pytest.mark.parametrize("history", ["click", "attrs"])
async def test_a_folder_with_its_slash_is_that_folder_never_a_name(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    graph, _ = histories[history]
    result = await ask(graph, "what changed under src/ in May 2026?")
    said = " ".join(result.limitations)
    assert result.outcome is Outcome.NO_MATCH, result.direct_judgment
    assert '"src/" was read as the folder src/' in said, said
    assert "under src" not in said, said


@pytest.mark.parametrize("history", ["click", "attrs"])
async def test_a_folder_module_with_its_slash_is_counted_as_git_counts_it(
    histories: dict[str, tuple[OrgGraph, Path]], history: str
) -> None:
    graph, clone = histories[history]
    result = await ask(graph, "commits under docs/ this year")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    counted = commits(clone, *THIS_YEAR, "docs/")
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to docs "), result


async def test_a_path_under_src_is_still_its_module(click: OrgGraph) -> None:
    result = await ask(click, "what changed under src/click in May 2026?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    assert result.subject_keys == ("module:click/src/click",), result.subject_keys
