"""A question's parts answered in one result: each part (engine/reading/parts.py writes them)
run as a question of its own, then joined, each figure from its own part's facts.

Why one result: an answer that answers the first part and says the second was not leaves the
asker a second question to write, though both parts are questions answered here ("how many
commits went into attrs last month, and who made them?"). Joining keeps the result's contract:
each part's drivers and claimed facts are renumbered, never rewritten, and the joined result is
validated again against both parts' facts and reads (evidence-closed, engine.domain.validation).
A part not answered is named with its own reason; a later part answered over another time than
the first is not joined (it was another question).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence

from engine.domain.contract import (
    Axis,
    InvestigationResult,
    Outcome,
    TemporalLabel,
    TimeContext,
)
from engine.domain.facts import Fact, FactKind
from engine.domain.limitations import add_limitation
from engine.domain.validation import require_valid
from engine.investigation import heldjoins, laterjoins
from engine.reading import clauses
from engine.reading import parts as read_parts
from engine.reading.interpretation import Interpretation
from engine.reading.vocabulary import Intent


def _renumbered(part: InvestigationResult, drivers: int, claims: int) -> InvestigationResult:
    """The part with its drivers and claimed facts numbered after those before it."""
    ids = {c.id: f"claim-{claims + n + 1}" for n, c in enumerate(part.claimed_facts)}
    return part.model_copy(
        update={
            "claimed_facts": tuple(
                c.model_copy(update={"id": ids[c.id]}) for c in part.claimed_facts
            ),
            "drivers": tuple(
                d.model_copy(
                    update={
                        "id": f"driver-{drivers + n + 1}",
                        "claimed_fact_ids": tuple(ids.get(i, i) for i in d.claimed_fact_ids),
                    }
                )
                for n, d in enumerate(part.drivers)
            ),
            "changes": tuple(
                c.model_copy(update={"claimed_fact_id": ids.get(c.claimed_fact_id, "")})
                for c in part.changes
            ),
        }
    )


def _label(parts: Sequence[InvestigationResult], spans: bool) -> TemporalLabel | None:
    """The first part's label; over a first and a last change (`spans`), from the one to the
    other."""
    labels = [p.temporal_label for p in parts if p.temporal_label is not None]
    if not labels or not spans:
        return parts[0].temporal_label
    froms = [x.effective_from for x in labels if x.effective_from is not None]
    tos = [x.effective_to for x in labels if x.effective_to is not None]
    return labels[0].model_copy(
        update={
            "effective_from": min(froms) if froms else None,
            "effective_to": max(tos) if tos else None,
            "note": None,
        }
    )


def _context(asked: TimeContext, label: TemporalLabel | None) -> TimeContext:
    """The time the question asked about, over parts of their own times ("..., and when was
    his last commit?": this year and his last commit, at any age): from the first part's to
    the whole the parts' label covers."""
    if label is None or asked.axis is not label.axis or asked.axis is not Axis.RANGE:
        return asked
    start, end = asked.start, asked.end
    if start is not None and label.effective_from is not None:
        start = min(start, label.effective_from)
    if end is not None and label.effective_to is not None:
        end = max(end, label.effective_to)
    return asked.model_copy(update={"start": start, "end": end})


def _span(result: InvestigationResult) -> tuple[object, ...]:
    """The time an answer covers (its grain aside: a ranking reads commits to the instant)."""
    label = result.temporal_label
    return () if label is None else (label.axis, label.effective_from, label.effective_to)


def unjoined(
    first: InvestigationResult, part: InvestigationResult, asked: str, parts: read_parts.Parts
) -> str | None:
    """Why a part is not joined to the first's answer: not answered (its own reason), or
    answered about other subjects or over another time (where `parts` are of one window);
    None when joined."""
    if part.outcome is not Outcome.ANSWERED:
        why = part.clarification_prompt or next(iter(part.limitations), "")
        return f'"{asked}" was not answered: {why}'.rstrip(": ")
    ranks = part.interpretation.get("intent") == Intent.RANKED  # the subject's own parts
    ranks = ranks or parts.joins == "share"  # all commits, of which the first's made some
    mine = set(part.subject_keys)
    if parts.joins == "each":  # one of the first's subjects (a ranking's: under its scope)
        ranks = mine <= set(first.subject_keys) or first.interpretation.get("intent") == (
            Intent.RANKED
        )
    if not ranks and mine != set(first.subject_keys):
        return f'"{asked}" was read about other subjects than the first question{_APART}'
    if parts.one_window and _span(part) != _span(first):
        return f'"{asked}" was read over another time than the first question{_APART}'
    return None


# How the reason ends that a part read as another question than the first's subject and time.
_APART = ": ask it on its own."


def joined(
    base: InvestigationResult,
    parts: Sequence[InvestigationResult],
    checked: Sequence[tuple[Mapping[str, Fact], frozenset[str]]],
    said: str,
    unsaid: Sequence[str] = (),
    *,
    spans: bool = False,
) -> InvestigationResult:
    """The parts' answers as one result of the question asked (`base`: its id, question, time
    and reading), an answer: judgments in order, drivers, claimed facts, changes
    and subjects of each; the limitations of each once, less `unsaid` (the note that a part
    was not answered), with `said` (how the parts were read). Validated against every part's
    facts and reads (`checked`, in order)."""
    out: list[InvestigationResult] = []
    for part in parts:
        drivers = sum(len(p.drivers) for p in out)
        out.append(_renumbered(part, drivers, sum(len(p.claimed_facts) for p in out)))
    limitations: tuple[str, ...] = ()
    displaced = sum(p.limitations_displaced for p in parts)
    for text in [said, *(t for p in parts for t in p.limitations if t not in unsaid)]:
        limitations, displaced = add_limitation(limitations, text, displaced)
    states = dict.fromkeys(p.current_state for p in parts if p.current_state)
    label = _label(parts, spans)
    result = base.model_copy(
        update={
            "outcome": Outcome.ANSWERED,
            "clarification_prompt": None,
            "candidates": (),
            "direct_judgment": " ".join(p.direct_judgment or "" for p in parts).strip(),
            "current_state": "; ".join(s for s in states if s) or None,
            "drivers": tuple(d for p in out for d in p.drivers),
            "claimed_facts": tuple(c for p in out for c in p.claimed_facts),
            "changes": tuple(c for p in out for c in p.changes),
            "changes_total": sum(p.changes_total for p in parts),
            "coverage": tuple(dict.fromkeys(c for p in parts for c in p.coverage)),
            "limitations": limitations,
            "limitations_displaced": displaced,
            "subject_keys": tuple(dict.fromkeys(k for p in parts for k in p.subject_keys)),
            "temporal_label": label,
            "time_context": _context(base.time_context, label) if spans else base.time_context,
        }
    )
    facts = {i: f for found, _ in checked for i, f in found.items()}
    read = frozenset(r for _, seen in checked for r in seen)
    return require_valid(result, facts, read)


Checked = tuple[Mapping[str, Fact], frozenset[str]]
# Runs one part's question as the asker's, over the request's time: its result, what it was
# validated against and how it was read, or None when its time is refused.
Ask = Callable[[str], Awaitable[tuple[InvestigationResult, Checked, Interpretation] | None]]


async def answered(
    first: InvestigationResult, checked: Checked, understood: Interpretation, ask: Ask
) -> InvestigationResult:
    """The answer to every part of the question (`first`: the answer to the question read,
    `checked` what it was validated against; `understood.parts` its parts), or `first` with
    the part not answered named."""
    parts = understood.parts
    if parts is None or (not parts.whole and first.outcome is not Outcome.ANSWERED):
        return first
    unsaid = clauses.unanswered_note(understood.unanswered)
    held = _held(first, checked, parts, understood.people_listed(), unsaid)
    if held is not None:
        return held
    return await _each_asked(first, checked, parts, unsaid, ask)


def _held(
    first: InvestigationResult,
    checked: Checked,
    parts: read_parts.Parts,
    listed: int,
    unsaid: Sequence[str],
) -> InvestigationResult | None:
    """A later part the first answer holds, said from it (`first` as it is when it holds
    nothing to say); None when the parts are asked each as a question of its own."""
    if parts.named_by_first:  # "when was X last changed, and who made that change?"
        if not any(c.by_name for c in first.changes):
            return first
        return joined(first, [first], [checked], parts.said, unsaid)
    if parts.joins == "addresses":  # "..., and how does that change if we count all ...?"
        return joined(first, [first], [checked], parts.said, unsaid)
    if parts.joins == "listed":  # "who ..., and how many commits did each make?"
        said = _listed(first, parts.said, listed)
        return first if said is None else joined(first, [first], [checked], said, unsaid)
    if parts.joins == "bots" and not parts.questions:  # "who ..., and what share were bots?"
        share = laterjoins.bots_share(first)
        if share is None:
            return first
        return _added(joined(first, [first], [checked], parts.said, unsaid), share)
    if parts.joins in heldjoins.HELD:  # "who ..., and who did the most?": the answer holds it
        held = heldjoins.HELD[parts.joins](first)
        if held is None:
            return first
        result = joined(first, [first], [checked], parts.said, unsaid)
        return result.model_copy(update={"direct_judgment": f"{result.direct_judgment} {held}"
                                         .strip()})  # fmt: skip
    return None


async def _each_asked(
    first: InvestigationResult,
    checked: Checked,
    parts: read_parts.Parts,
    unsaid: Sequence[str],
    ask: Ask,
) -> InvestigationResult:
    """The parts each asked as a question of its own and joined, or `first` with the part
    not joined named (with its reason)."""
    runs = [await ask(q) for q in parts.questions]
    found = [r for r in runs if r is not None]
    reads = [read_parts.reads_as(r[2], e) for r, e in zip(found, parts.reads_as, strict=False)]
    if len(found) < len(runs) or not all(reads):
        return _unanswered(first, parts, None)
    done = [(r, c) for r, c, _ in found]
    done = done if parts.whole else [(first, checked), *done]
    asked = parts.questions if parts.whole else (None, *parts.questions)
    for (result, _), written in zip(done, asked, strict=True):
        why = None if written is None else unjoined(done[0][0], result, written, parts)
        if why is not None and not parts.whole:
            return first  # said not answered, whole, as it was: this part was written here
        if why is not None:
            answered = [d for d in done if d[0].outcome is Outcome.ANSWERED]
            return _unanswered(first, parts, why, answered, unsaid)
    results, checks = [r for r, _ in done], [c for _, c in done]
    result = joined(first, results, checks, parts.said, unsaid, spans=not parts.one_window)
    return _sentence_added(first, result, results, parts)


def _sentence_added(
    first: InvestigationResult,
    result: InvestigationResult,
    results: Sequence[InvestigationResult],
    parts: read_parts.Parts,
) -> InvestigationResult:
    """The joined `result` with the sentence made from both parts' claimed facts its join
    adds (engine/investigation/laterjoins.py, a share); `first` when the figures it needs
    are not claimed (the part stays said not answered)."""
    if parts.joins in laterjoins.ADDS:
        added = laterjoins.ADDS[parts.joins](results)
        if added is None:
            return first
        return _added(result, added) if added else result
    if parts.joins != "share":
        return result
    share = _share(results[-2], results[-1])  # the count asked, then all commits
    return first if share is None else _added(result, share)


def _added(result: InvestigationResult, sentence: str) -> InvestigationResult:
    """`result` with `sentence` after its judgment."""
    return result.model_copy(update={"direct_judgment": f"{result.direct_judgment} {sentence}"})


def _listed(first: InvestigationResult, said: str, listed: int) -> str | None:
    """How a "who" answer (`first`) gives each person's commits: all of them, or the first
    `listed` of how many (said, never passed over: engine/questions/who.py lists the few who
    led when asked for them, else up to PEOPLE_LISTED); None when it is no "who" answer."""
    counts = [c.value.get("contributors") for c in first.claimed_facts
              if c.kind is FactKind.ACTIVE_CONTRIBUTORS]  # fmt: skip
    if first.interpretation.get("intent") != Intent.WHO or len(counts) != 1:
        return None
    people = counts[0]
    if not isinstance(people, int) or people <= listed:
        return said
    return (f"{said[:-1]}, the {listed} with the most of the {people}: the others' "
            f"commits are not listed here.")  # fmt: skip


def _commits(result: InvestigationResult) -> int | None:
    """The one count of commits a count's answer claims, or None."""
    found = [c.value.get("commits") for c in result.claimed_facts
             if c.kind is FactKind.COMMIT_ACTIVITY]  # fmt: skip
    return found[0] if len(found) == 1 and isinstance(found[0], int) else None


def _share(part: InvestigationResult, whole: InvestigationResult) -> str | None:
    """The share of all commits (`whole`'s count) the first's count (`part`) is, both claimed
    facts of the answer; None when either is no one count of commits or there are none."""
    mine, total = _commits(part), _commits(whole)
    if mine is None or total is None or total == 0 or mine > total:
        return None
    return f"That is {mine} of the {total} commit(s), {100 * mine / total:.1f} % of them."


def _unanswered(
    first: InvestigationResult,
    parts: read_parts.Parts,
    why: str | None,
    answered: Sequence[tuple[InvestigationResult, Checked]] = (),
    unsaid: Sequence[str] = (),
) -> InvestigationResult:
    """`first` beside the part of two question words not answered, with why ("how many and
    by whom": the count answered, the "who" not). The question read whole not answered, the
    parts that are (`answered`) stand for it: "useragents.py first change and deletion" read
    whole was a no match ("deletion" asked of nothing), where its deletion, the second part,
    is answered; the first part is said."""
    if why is None:
        return first  # a part read as another question: the first's answer, as it was
    if first.outcome is not Outcome.ANSWERED and parts.whole and answered:
        results, checks = [r for r, _ in answered], [c for _, c in answered]
        first = joined(first, results, checks, parts.said, unsaid)
    if first.outcome is not Outcome.ANSWERED:
        return first
    limitations, displaced = add_limitation(first.limitations, why, first.limitations_displaced)
    return first.model_copy(update={"limitations": limitations, "limitations_displaced": displaced})
