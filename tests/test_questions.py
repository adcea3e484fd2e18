"""Question types (engine/questions/): one module each, behind one contract, registered in
order. A question type added is its module and its row: the synthesizer asks it in the
registry's order, its judgment heads the answer and its claims close what it states, through
the whole investigation and the result contract's validation."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain.contract import Axis, ClaimedFact, InvestigationResult, Outcome
from engine.domain.facts import FactKind
from engine.investigation.investigate import InvestigationRequest, Investigator
from engine.ports import OrgGraph
from engine.providers import Window, default_providers
from engine.questions import SynthesisInput, default_questions
from engine.questions.base import Asked, Case, Found, Question, Reader, claim_also
from engine.reading.vocabulary import Intent
from engine.resolving.resolution import Resolver
from engine.resolving.ring import ReferenceRing
from tests.test_investigate import NOW, SIGNER, VERSIONS, demo, memory  # noqa: F401 (fixtures)

QUESTIONS = Path(__file__).resolve().parent.parent / "engine" / "questions"
# Modules of engine/questions/ that hold no question type: the contract.
HELPERS = {"__init__.py", "base.py", "botsown.py", "lifesteps.py", "activity.py"}  # botsown:
# the bots' part, for count and who; lifesteps: which commit of a path's life is asked, for
# lives.py; activity: how busy a subject was, for status.py
ENGINE = QUESTIONS.parent


def _types_defined(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef)
        and any(isinstance(b, ast.Name) and b.id == "Question" for b in node.bases)
    ]


def test_each_module_holds_one_registered_question_type() -> None:
    registered = {type(q).__name__: type(q).__module__ for q in default_questions()}
    found = {}
    for path in sorted(QUESTIONS.glob("*.py")):
        defined = _types_defined(path)
        if path.name in HELPERS:
            assert defined == [], (path.name, defined)
            continue
        assert len(defined) == 1, (path.name, defined)  # one module per question type
        found[defined[0]] = f"engine.questions.{path.stem}"
    assert found == registered
    names = [q.name for q in default_questions()]
    assert len(set(names)) == len(names)
    assert names[-1] == "status"  # always answers: asked last


def test_every_intent_is_answered_by_a_registered_type() -> None:
    """The last row judges whatever no other did: no intent is left without a judgment."""
    window = Window(NOW, NOW, False)
    for intent in Intent:
        inputs = SynthesisInput("", intent, (), (), (), (), window, Axis.CURRENT)
        case = Case(inputs, {"repository:a": "a"})
        judged = [q.name for q in default_questions() if q.judgment(case) is not None]
        assert judged, intent


class Busiest(Question):
    """A question type added by a test: "how busy" questions about changes, judged from the
    commit activity facts, each figure claimed."""

    name = "busiest"

    def judgment(self, case: Case) -> str | None:
        if case.intent != Intent.COUNT:
            return None
        commits = [f for f in case.facts if f.kind is FactKind.COMMIT_ACTIVITY]
        total = sum(int(f.value.get("commits") or 0) for f in commits)
        return f"BUSIEST: {total} commit(s) to {case.scope}."

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        if case.intent != Intent.COUNT:
            return []
        return claim_also([f for f in case.facts if f.kind is FactKind.COMMIT_ACTIVITY], claimed)


QUESTION = "how many commits to payments-api in the last 90 days?"


async def _asked(graph: OrgGraph, added: Question) -> InvestigationResult:
    """QUESTION through the whole investigation, `added` registered first; answered."""
    synthesizer = DeterministicSynthesizer([added, *default_questions()])
    engine = Investigator(
        graph, Resolver(graph, ReferenceRing(), graph.org_id), default_providers(), synthesizer,
        SIGNER, VERSIONS, now=lambda: NOW,
    )  # fmt: skip
    result, _ = await engine.investigate("me", InvestigationRequest(QUESTION))
    assert result.outcome is Outcome.ANSWERED, result.limitations
    return result


async def test_a_question_type_added_is_one_module_and_one_row(demo: OrgGraph) -> None:  # noqa: F811
    """Registered ahead of the count, it heads a count question's answer through the whole
    investigation, and its claims pass the result contract's validation."""
    result = await _asked(demo, Busiest())
    judgment = result.direct_judgment or ""
    assert judgment.startswith("BUSIEST: ") and "payments-api" in judgment, judgment
    activity = [c for c in result.claimed_facts if c.kind is FactKind.COMMIT_ACTIVITY]
    assert activity, result.claimed_facts
    # Without its row, the count heads the same question.
    plain = Investigator(
        demo, Resolver(demo, ReferenceRing(), demo.org_id), default_providers(),
        DeterministicSynthesizer(), SIGNER, VERSIONS, now=lambda: NOW,
    )  # fmt: skip
    counted, _ = await plain.investigate("me", InvestigationRequest(QUESTION))
    assert not (counted.direct_judgment or "").startswith("BUSIEST")


class LastThirty(Question):
    """A question type added by a test with a read of its own: a count question's commits in
    the last 30 days of its window, read through the reader it is given, kept for its
    judgment and claimed."""

    name = "last 30 days"

    async def read(self, asked: Asked, reader: Reader) -> Found | None:
        if asked.intent != Intent.COUNT:
            return None
        window = asked.window
        last = replace(window, start=window.end - timedelta(days=30))
        read = await reader.facts(asked.subjects, [FactKind.COMMIT_ACTIVITY], last)
        facts = [f for r in read for f in r.facts]
        total = sum(int(f.value.get("commits") or 0) for f in facts)
        return Found(results=tuple(read), kept=(total, tuple(f.id for f in facts)))

    def judgment(self, case: Case) -> str | None:
        kept = case.inputs.kept.get(self.name)
        if case.intent != Intent.COUNT or not isinstance(kept, tuple):
            return None
        return f"LAST 30 DAYS: {kept[0]} commit(s) to {case.scope}."

    def claims(self, case: Case, claimed: Sequence[ClaimedFact]) -> list[ClaimedFact]:
        kept = case.inputs.kept.get(self.name)
        ids = kept[1] if isinstance(kept, tuple) else ()
        return claim_also([f for f in case.facts if f.id in ids], claimed)


async def test_a_question_type_with_a_read_of_its_own_needs_no_pipeline_edit(
    demo: OrgGraph,  # noqa: F811
) -> None:
    """Its row alone: the pipeline runs its read (over a window of its own choosing, through
    the reader), its judgment reads back what it kept, and its claims close to the facts it
    read, through the result contract's validation."""
    result = await _asked(demo, LastThirty())
    judgment = result.direct_judgment or ""
    assert judgment.startswith("LAST 30 DAYS: ") and "payments-api" in judgment, judgment
    figure = int(judgment.split()[3])
    own = [
        c for c in result.claimed_facts
        if c.kind is FactKind.COMMIT_ACTIVITY and c.window_start == NOW - timedelta(days=30)
    ]  # fmt: skip
    assert [c.value["commits"] for c in own] == [figure], result.claimed_facts


def test_the_pipeline_names_no_question_type() -> None:
    """engine/investigation/ takes from engine/questions/ only the contract: the reads and
    judgments of each type are behind it."""
    contract = {"Asked", "Found", "Question", "Reader", "SynthesisInput", "Case"}
    for path in sorted((ENGINE / "investigation").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "engine.questions"
            ):
                names = {a.name for a in node.names}
                assert node.module == "engine.questions" and names <= contract, (path.name, names)
