"""A question over a union of windows ("how many commits in March and July 2026?",
"validators.py lines march and august"), answered window by window and the figures added.

Why here: one window cannot hold two periods with a gap between them (the time between would be
counted), so the reader writes the question once per window (engine/reading/time/unions.py)
and each is run as a question of its own, its parts included ("..., and who made them?").
The answer is every window's answer joined (engine/investigation/parts.py: drivers and claimed
facts renumbered, validated again against every window's facts), led by the sum over the
windows: commits and lines added, people merged by who they are, each figure from a claimed
fact. A window whose question is not answered, or reads another time than its window, ends
the union: the question's own answer (the phrase named not understood) stands, never a part
of the union answered alone.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from engine.domain.contract import Axis, ClaimedFact, InvestigationResult, Outcome, TimeContext
from engine.domain.facts import FactKind
from engine.domain.limitations import add_limitation
from engine.investigation import parts
from engine.reading.interpretation import Interpretation
from engine.reading.time.unions import Union, Window

# One question run: its result, what it was validated against, how it was read.
Part = tuple[InvestigationResult, parts.Checked, Interpretation]
# Runs one window's question, its parts answered: the result, what it and its parts were
# validated against, and how it was read; None when its time is refused.
AskWhole = Callable[
    [str], Awaitable[tuple[InvestigationResult, list[parts.Checked], Interpretation] | None]
]


async def answered(
    first: InvestigationResult, understood: Interpretation, ask: AskWhole
) -> InvestigationResult:
    """The union's answer, or `first` (the question as read: its phrase not understood)
    when a window is not answered over its own time."""
    union = understood.union
    if union is None:
        return first
    done: list[InvestigationResult] = []
    checks: list[parts.Checked] = []
    for window, written in zip(union.windows, union.questions, strict=True):
        run = await ask(written)
        if run is None or not _over(run[2], window):
            return first
        if run[0].outcome is not Outcome.ANSWERED:
            return _unanswered(first, union, written, run[0])
        done.append(run[0])
        checks += run[1]
    base = first.model_copy(update={"time_context": _context(done)})
    joined = parts.joined(base, done, checks, union.said(), spans=True)
    judgments = [
        f"{w.words}: {r.direct_judgment or ''}" for w, r in zip(union.windows, done, strict=True)
    ]
    summed = total(union, done)
    return joined.model_copy(update={"direct_judgment": " ".join([summed, *judgments]).strip()})


def _unanswered(
    first: InvestigationResult, union: Union, written: str, result: InvestigationResult
) -> InvestigationResult:
    """`first` (not answered), saying the union was read and why a window's question was
    not answered, in place of the phrase said not understood."""
    why = result.clarification_prompt or next(iter(result.limitations), "")
    said = f'{union.read()} "{written}" was not answered: {why}'.rstrip(": ")
    said += ("" if said.endswith((".", "?", "!")) else ".") + " Ask again once that is settled."
    kept = [t for t in first.limitations if not any(f'"{p}"' in t for p in union.inner)]
    limitations: tuple[str, ...] = ()
    displaced = first.limitations_displaced
    for text in [said, *kept]:
        limitations, displaced = add_limitation(limitations, text, displaced)
    return first.model_copy(update={"limitations": limitations, "limitations_displaced": displaced})


def _context(done: Sequence[InvestigationResult]) -> TimeContext:
    """The windows' time context: a range from the first's start to the last's end (the
    label says the windows), else the first's (the current axis)."""
    contexts = [r.time_context for r in done]
    if any(c.axis is not Axis.RANGE for c in contexts):
        return contexts[0]
    starts = [c.start for c in contexts if c.start is not None]
    ends = [c.end for c in contexts if c.end is not None]
    return contexts[0].model_copy(update={"start": min(starts), "end": max(ends)})


def _over(understood: Interpretation, window: Window) -> bool:
    """Whether a window's question was read over that window and nothing else."""
    return (
        understood.union is None
        and not understood.time_not_understood
        and (understood.start, understood.end) == (window.start, window.end)
    )


def total(union: Union, done: Sequence[InvestigationResult]) -> str:
    """The sum over the windows of what every window's answer claims: commits, lines added
    and removed, the people merged (each person's commits added across the windows)."""
    claims = [[c for c in r.claimed_facts if c.actor_key is None and not c.others] for r in done]
    said: list[str] = []
    commits = _summed(claims, FactKind.COMMIT_ACTIVITY, "commits")
    if commits is not None:
        said.append(f"{commits} commit(s)")
    added = _summed(claims, FactKind.CHURN, "lines_added")
    removed = _summed(claims, FactKind.CHURN, "lines_removed")
    if added is not None and removed is not None:
        said.append(f"{added + removed} line(s) changed (+{added} -{removed})")
    people = _people(claims)
    if people:
        said.append(people)
    names = " and ".join(w.words for w in union.windows)
    if not said:
        return f"Over {names} (each answered below, the time between not counted):"
    return f"Over {names} together (the time between not counted): {'; '.join(said)}."


def _summed(claims: list[list[ClaimedFact]], kind: FactKind, key: str) -> int | None:
    """`key` of `kind` added over the windows, when every window claiming it claims it of
    the same one subject (a window claiming none had none: its answer says so); else None.
    Never over several subjects: a commit touching two would count twice (as
    engine/questions/count.py says of each subject's count, "not added up")."""
    subjects = {frozenset(c.subject_key for c in found if c.kind is kind) for found in claims}
    subjects.discard(frozenset())
    if len(subjects) != 1 or len(next(iter(subjects))) != 1:
        return None
    values = [c.value.get(key) for found in claims for c in found if c.kind is kind]
    if not all(isinstance(v, int) for v in values):
        return None
    return sum(v for v in values if isinstance(v, int))


def _people(claims: list[list[ClaimedFact]]) -> str | None:
    """The people of every window merged, most commits first. A window's fact lists its top
    people only when it has many: a person's sum is exact only where every window lists them
    or lists everyone, so only those are added (the others are in each window's answer)."""
    lists: list[tuple[dict[str, int], bool]] = []
    for found in claims:
        facts = [c for c in found if c.kind is FactKind.ACTIVE_CONTRIBUTORS]
        if len(facts) > 1:
            return None  # several subjects' people: merged by each answer, not here
        if facts:
            value = facts[0].value
            names, counts = value.get("top_names") or [], value.get("top_commits") or []
            listed = {str(n): int(c) for n, c in zip(names, counts, strict=False)}
            lists.append((listed, len(listed) == value.get("contributors")))
    everyone = {name for listed, _ in lists for name in listed}
    exact = {
        name: sum(listed.get(name, 0) for listed, _ in lists)
        for name in everyone
        if all(name in listed or whole for listed, whole in lists)
    }
    if not exact:
        return None
    ranked = sorted(exact.items(), key=lambda p: (-p[1], p[0]))
    said = ", ".join(f"{name} ({n} commit(s))" for name, n in ranked)
    if len(exact) == len(everyone) and all(whole for _, whole in lists):
        return f"{len(ranked)} people: {said}"
    return f"of the people each window names, added where every window counts them: {said}"
