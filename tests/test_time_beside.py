"""A word beside a time phrase that nothing read and that could change it ends the reading as
not understood, naming the words, never an answer over the phrase read without them (issue
32's independent check found "since Jan '23" answered over the latest January and "around the
time of PyCon 2019" over all of 2019, with the word only said unused: those are rows now, and
this is the rule for the words no row reads: "around 2019", "about 2 weeks ago"); and "as of
<a point>" in a question about the last change is that instant, not a window on that day. On
click's real history (../shared/data/click.bundle), in memory, with git's own dates."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from engine.domain.contract import Outcome
from engine.ports import OrgGraph
from tests import shared_history
from tests.helpers import refuses_naming
from tests.test_investigate import answer

CLOCK = datetime(2026, 6, 15, 12, tzinfo=UTC)
CORE = "src/click/core.py"

pytestmark = shared_history.present("click")


clone, click = shared_history.fixtures("click", "click")


ask = partial(answer, now=CLOCK)


def last_change(clone: Path, path: str, before: datetime) -> datetime:
    """The author time of the newest commit (no merges) to `path` before `before`, by git."""
    out = subprocess.run(
        ["git", "-C", str(clone), "log", "--no-merges", "--full-history", "--format=%at",
         "--", path],
        capture_output=True, check=True, text=True,
    ).stdout  # fmt: skip
    return max(t for s in out.split() if (t := datetime.fromtimestamp(int(s), UTC)) < before)


@pytest.mark.parametrize(
    ("question", "phrase"),
    [  # each answered on the old code over the window of the phrase read without the word
        # All of 2019, "around" said unused.
        ("who changed core.py around 2019?", "around 2019"),
        # The week that began 2 weeks ago, "about" said unused.
        ("who changed core.py about 2 weeks ago?", "about 2 weeks ago"),
        # All of March 2024, "fortieth" said unused.
        ("who changed core.py on the fortieth of March 2024?", "fortieth of March 2024"),
        # All of 2021, "Octuber" said to name nothing (no row reads this misspelling).
        ("who changed core.py in Octuber 2021?", "Octuber 2021"),
        # March 2024, "approximately" said unused.
        ("who changed core.py in March 2024 approximately?", "in March 2024 approximately"),
        # Sep-Dec 2019, "near" said unused.
        ("who changed core.py near the end of 2019?", "near the end of 2019"),
        # All of 2023, "fiscal" said unused (a fiscal year is not the calendar's).
        ("who changed core.py in fiscal 2023?", "fiscal 2023"),
        # The first week of 2020 for "the first weeks".
        ("who changed core.py in the first weeks of 2020?", "the first weeks of 2020"),
        # An independent check (x32): January 2025 alone, "sinse" said unused; all of 2025.
        ("who changed core.py sinse januray 2025?", "sinse januray 2025"),
        ("who changed core.py sine 2025?", "sine 2025"),
        # ... and a unit no rule read: the default year, said as "No time was named" ("lst
        # month" and "the past mnth" are read now: engine/reading/time/spellings.py).
        ("who changed core.py lsst month?", "lsst month"),
        ("who changed core.py in the past mnts?", "in the past mnts"),
        # A later check (y32): a unit after "last"/"past" no rule reads, the default year
        # answered ("No time was named"); and one beside a phrase read, that phrase answered.
        ("who changed core.py over the last fortnite?", "over the last fortnite"),
        # ("the past 3 mos" is read now: engine/reading/time/spellings.py)
        ("who changed core.py in the past 3 mnts?", "in the past 3 mnts"),
        ("who changed core.py lsst month in 2025?", "lsst month in 2025"),
        # t32: a season misspelt after "in the" was said unused and the default year answered
        ("who changed core.py in the sping?", "in the sping"),
        ("who changed core.py over the sumer?", "over the sumer"),
    ],
)
async def test_a_word_beside_a_time_that_could_change_it_is_named_never_dropped(
    click: OrgGraph, question: str, phrase: str
) -> None:
    result = await ask(click, question)
    assert result.outcome is not Outcome.ANSWERED, (question, result.direct_judgment)
    assert refuses_naming(result.limitations, phrase), result.limitations


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [  # the same phrases without the word, or with a word that does not touch the time
        ("who changed core.py in the summer of 2022?", "2022-06-01", "2022-09-01"),
        ("who changed core.py in summer '22?", "2022-06-01", "2022-09-01"),
        ("who changed core.py back in 2019?", "2019-01-01", "2020-01-01"),
        ("who changed core.py in the first week of 2020?", "2020-01-01", "2020-01-08"),
        ("who changed the parser in the 3 weeks before Christmas 2020?", "2020-12-04",
         "2020-12-25"),
        # x32: "easter" said unused and all of 2024 answered; a holiday is a day now, and
        # "over" it the days around it (z32a read "over Christmas" as the holiday, not the
        # day alone): Good Friday to Easter Monday (engine/reading/time/holidays.AROUND)
        ("who changed core.py over easter 2024?", "2024-03-29", "2024-04-02"),
        # What "last" counts is no unit: "the last couple of weeks" stays read
        ("who changed core.py the last couple of weeks?", "2026-06-01T12:00:00",
         "2026-06-15T12:00:00"),
        # y32: answered over the default year ("No time was named"); a unit written short
        ("who changed core.py in the past 3 mos?", "2026-03-15T12:00:00", "2026-06-15T12:00:00"),
        # c32b: "lst month" not understood; a word written short is read written out
        ("who changed core.py lst month?", "2026-05-01", "2026-06-01"),
    ],
)
async def test_a_phrase_with_nothing_unread_beside_it_is_answered_over_its_window(
    click: OrgGraph, question: str, start: str, end: str
) -> None:
    result = await ask(click, question)
    assert result.outcome is Outcome.ANSWERED, (question, result.limitations)
    label = result.temporal_label
    assert label is not None
    assert (label.effective_from, label.effective_to) == (
        datetime.fromisoformat(start).replace(tzinfo=UTC),
        datetime.fromisoformat(end).replace(tzinfo=UTC),
    )


async def test_as_of_a_point_asks_for_the_last_change_up_to_it(
    click: OrgGraph, clone: Path
) -> None:
    """"as of the end of 2023" read the months Sep-Dec 2023 as a window ("the end of 2023"
    as a period, "as" said unused): it is the instant 2024-01-01, and the newest change listed
    is git's last one before it."""
    result = await ask(click, "when was core.py last changed, as of the end of 2023?")
    assert result.outcome is Outcome.ANSWERED, result.limitations
    point = datetime(2024, 1, 1, tzinfo=UTC)
    assert result.time_context.as_of == point
    assert result.changes, result.direct_judgment
    assert result.changes[0].at == last_change(clone, CORE, point)
