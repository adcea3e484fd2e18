"""Question types and their registry: one module per way facts answer a question, behind one
contract (engine/questions/base.py `Question`).

`default_questions` lists them in the order the synthesis asks them: the first whose
judgment is not None heads the answer, so a question type that only some questions of an
intent ask ("both", a comparison, "still") comes before the intent's own, and the status
judgment, which always answers, comes last. Claims are gathered from every one, in this order,
and their own reads before synthesis are made in it too (engine/investigation/pipeline.py): the
last change first, as it may read everything again from an earlier start.
Adding a question type: its module, and its row here.
"""

from __future__ import annotations

from engine.questions.base import Asked, Case, Found, Question, Reader, SynthesisInput
from engine.questions.both import Both
from engine.questions.busfactor import BusFactor
from engine.questions.changes import WhatChanged
from engine.questions.compared import Compared
from engine.questions.count import Count
from engine.questions.firstchange import FirstChange
from engine.questions.firstlast import FirstAndLast
from engine.questions.incidents import Incidents
from engine.questions.lastchange import LastChange
from engine.questions.lives import Lives
from engine.questions.months import BusiestMonth
from engine.questions.newest import NewestChange
from engine.questions.owners import Owners
from engine.questions.periods import PerPeriod
from engine.questions.ranked import Ranked
from engine.questions.status import Status
from engine.questions.still import Still
from engine.questions.unpeopled import Unpeopled
from engine.questions.who import Who


def default_questions() -> list[Question]:
    return [
        NewestChange(),  # reads the second of the one last change, at any age, when asked
        LastChange(),  # reads only: from the last change before the window, when it is asked
        Lives(),  # reads the second of the commit that created or deleted a path, when asked
        FirstChange(),  # reads the second of the first change, when it is asked
        FirstAndLast(),  # both in a window: its changes, and its first one's second if unlisted
        Compared(),  # "than last year": both periods, whatever the intent
        BusiestMonth(),  # reads each month's commits, when months are ranked
        PerPeriod(),  # reads each month's or week's commits, when they are asked by period
        Still(),
        Unpeopled(),  # claims only: the activity said when no contributor record names anyone
        Both(),
        Count(),
        Who(),
        Ranked(),
        WhatChanged(),
        Incidents(),
        BusFactor(),
        Owners(),
        Status(),  # always answers: last
    ]


__all__ = ["Asked", "Case", "Found", "Question", "Reader", "SynthesisInput", "default_questions"]
