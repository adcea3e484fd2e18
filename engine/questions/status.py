"""A status question ("how is X doing?", "why is X behind?"): the lead finding of the facts
that can show a subject behind or under strain; with none of those (a git history holds
commits only), what was looked at and what is missing, and each subject's last change before
the window when it had none in it. The question type asked when no other answers: registered
last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.domain.contract import ClaimedFact, Driver, Standing
from engine.domain.facts import HEALTH_KINDS
from engine.providers import Window
from engine.questions import activity
from engine.questions.base import Case, Question, claim_also, when
from engine.questions.lastchange import Last
from engine.questions.still import older
from engine.reading.vocabulary import Intent


class Status(Question):
    """Everything else: the status judgment."""

    name = "status"

    def judgment(self, case: Case) -> str | None:
        # A withheld driver (an episode's words) is never the judgment: it rests on no fact.
        shown = [d for d in case.drivers if d.standing is not Standing.WITHHELD]
        names = case.names
        subject = case.scope
        people = bool(names) and all(k.startswith("person:") for k in names)
        if not any(f.kind in HEALTH_KINDS for f in case.facts):
            if _busy(case):  # "how busy was X in June?": its activity, not its health
                return activity.judgment(case.facts, names, case.window) + _last_of(
                    older(case), names
                )
            leads = _leads(shown, names)
            said = _unchecked(subject, leads, case.window, people)
            return said + _last_of(older(case), names)  # read by Still
        if not shown:
            return f"No canonical fact shows {subject} behind or under strain in this window."
        primary = [d for d in shown if d.standing is Standing.PRIMARY]
        lead = primary[0] if primary else shown[0]
        if case.intent == Intent.WHY_BEHIND:
            return f"{subject} is behind. Main reason: {lead.statement}"
        return f"{subject}: {lead.statement}"

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        if not _busy(case) or any(f.kind in HEALTH_KINDS for f in case.facts):
            return []
        return claim_also([f for k in case.names for f in activity.used(case.facts, k)], claimed)


def _busy(case: Case) -> bool:
    """A status asking only how active its named subjects (no person alone) were."""
    people = bool(case.names) and all(k.startswith("person:") for k in case.names)
    return bool(case.names) and not people and activity.asked(case.asked)


MISSING = "no incident, deploy, pull-request or work-item facts"


def _leads(shown: Sequence[Driver], names: Mapping[str, str]) -> list[Driver]:
    """The first driver about each subject, in the order the subjects were named: with two
    ("compare core.py and parser.py"), the judgment gave core.py's figures alone, parser.py's
    only among the drivers."""
    leads: list[Driver] = []
    for key in names:
        lead = next((d for d in shown if key in d.subject_keys), None)
        if lead is not None and lead not in leads:
            leads.append(lead)
    return leads or list(shown[:1])


def _unchecked(subject: str, leads: Sequence[Driver], window: Window, people: bool) -> str:
    """A status question answered from no health fact (a git history holds commits only):
    the answer says what was looked at and what is missing, once, instead of a verdict
    ("No canonical fact shows X behind or under strain") that nothing was checked for.
    People have no health facts at all: their answer is their changes. `leads`: the lead
    driver of each subject, all of them said."""
    said = " ".join(d.statement for d in leads)
    if people:
        return f"{subject}: {said or f'no commit was recorded {when(window)}.'}"
    it = "them" if len(leads) > 1 else "it"
    head = f"The health of {subject} is not judged: {MISSING} were found for {it} {when(window)}"
    if not leads:  # which reads found nothing is a limitation (framing.limitations_of)
        return f"{head}."
    whose = "its" if len(leads) == 1 else "their"
    return f"{head}; only {whose} changes were read. {said}"


def _last_of(older: Mapping[str, Last | None], names: Mapping[str, str]) -> str:
    """The last change before the window of each subject that had none in it."""
    return "".join(
        f" {names.get(k, k)}'s last change before it was on {last.at:%Y-%m-%d} "
        f'("{last.title}", {last.ref}).'
        if last is not None
        else f" {names.get(k, k)} had no change before it either."
        for k, last in older.items()
    )
