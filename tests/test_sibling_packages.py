"""A module's name written as words whose first word names the repository ("attrs validators")
reads two ways: the dotted name attrs.validators (src/attrs/validators.py), and the validators
of the repository attrs, which holds src/attr/validators.py too. It asks which
(engine.resolving.within.read_as_scope): an independent check (z32a a02) had it answered for
src/attrs/validators.py alone while the code, and the window's one commit, are in
src/attr/validators.py. Where the repository holds one module of the name ("click core",
"werkzeug routing") it is answered, with git's count. On attrs', click's and werkzeug's real
histories (../shared/data)."""

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

pytestmark = shared_history.present("attrs", "werkzeug")

attrs_clone, attrs, werkzeug_clone, werkzeug = shared_history.each("attrs", "werkzeug")

ask = partial(answer, now=CLOCK)


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("what changed in attrs validators in August 2026", "validators"),
        ("how many commits to attrs converters in 2025", "converters"),
        ("who touched attrs exceptions this year", "exceptions"),
    ],
)
async def test_a_name_reading_as_the_repository_s_modules_asks_which(
    attrs: OrgGraph, question: str, name: str
) -> None:
    """It answered for src/attrs/<name>.py alone."""
    result = await ask(attrs, question)
    assert result.outcome is Outcome.CLARIFICATION_REQUIRED, (result.subject_keys,)
    assert {c.subject_key for c in result.candidates} == {
        f"module:attrs/src/attr/{name}.py", f"module:attrs/src/attrs/{name}.py"
    }  # fmt: skip


async def test_the_dotted_name_is_the_one_module(attrs: OrgGraph, attrs_clone: Path) -> None:
    """Written dotted, "attrs.validators" is one module's name: answered, git's count."""
    result = await ask(attrs, "how many commits to attrs.validators in 2022")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("module:attrs/src/attrs/validators.py",)
    start, end = datetime(2022, 1, 1, tzinfo=UTC), datetime(2023, 1, 1, tzinfo=UTC)
    counted = commits(attrs_clone, start, end, "src/attrs/validators.py")
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to ")


async def test_one_module_of_the_name_in_the_repository_is_answered(
    werkzeug: OrgGraph, werkzeug_clone: Path
) -> None:
    result = await ask(werkzeug, "how many commits to werkzeug routing in 2025")
    assert result.outcome is Outcome.ANSWERED
    assert result.subject_keys == ("module:werkzeug/src/werkzeug/routing",)
    start, end = datetime(2025, 1, 1, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    counted = commits(werkzeug_clone, start, end, "src/werkzeug/routing")
    assert (result.direct_judgment or "").startswith(f"{counted} commit(s) to ")
