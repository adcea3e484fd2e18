"""What the answer must say about how its time and subjects were chosen (`Disclosures`),
and what a committed reference discloses: chosen from the actor's recent references, a
misspelt name taken to mean a subject, a name other people also carry
(engine.resolving.subjects)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.ports import SubjectDirectory
from engine.providers import Window
from engine.reading.interpretation import Interpretation
from engine.reading.references import is_path
from engine.resolving import together
from engine.resolving.resolution import Candidate, Resolved, Stage, handle_forms, handles


@dataclass
class Disclosures:
    """What the answer must say about how its time and subjects were chosen."""

    notes: list[str] = field(default_factory=list)  # limitations, in the order found
    candidates: tuple[Candidate, ...] = ()  # others a committed reference could mean
    organisation_wide: bool = False
    # one person's part of the subjects (engine.resolving.together)
    part: together.Part | None = None
    # What a ranking question named, holding what it ranks (engine.resolving.rankedsubjects):
    # a question naming no time asks about its whole history (engine.resolving.wholehistory).
    ranked_in: list[StoredSubject] = field(default_factory=list)
    # What the actor's recent references chose: the judgment says it, not only a limitation.
    remembered: list[str] = field(default_factory=list)

    def judged(self, judgment: str | None) -> str | None:
        """The judgment, saying which of its subjects the actor's recent references chose."""
        if not judgment or not self.remembered:
            return judgment
        return f"{judgment} ({'; '.join(self.remembered)}: chosen from your recent references.)"


async def disclose(
    graph: SubjectDirectory,
    reference: str,
    outcome: Resolved,
    told: Disclosures,
    since: datetime | None = None,
) -> None:
    """What the answer must say about how a reference was committed: chosen from the
    actor's recent references, a path the module has had only since a move the answer
    reaches before (`since`: the earliest instant it counts from, None for its whole
    history: `reach`), or a name other people also carry."""
    if outcome.stage is Stage.RING:
        told.remembered.append(f'"{reference}" read as {outcome.subject.name}')
        told.notes.append(
            f'"{reference}" was chosen from your recent references '
            f"({outcome.subject.name}); name it fully to ask about another."
        )
    subject = outcome.subject
    if outcome.stage is Stage.HYBRID and normalise(reference) not in {
        normalise(h) for h in handles(subject)
    }:
        told.notes.append(
            f'"{reference}" names no subject exactly: it was taken to mean {subject.name} '
            f"({subject.key})."
        )
    if former := _former_name(reference, subject):
        told.notes.append(former)
    elif moved := moved_path(reference, subject, since):
        told.notes.append(moved)
    if subject.kind is not SubjectKind.PERSON:
        return
    found, _ = await graph.search_all_tokens(reference, [SubjectKind.PERSON], 10)
    needle = normalise(reference)
    others = [
        subject
        for subject, _ in found
        if subject.key != outcome.subject.key
        and any(needle in normalise(h).split() for h in handles(subject))
    ]
    if others:
        names = ", ".join(f"{o.name} ({o.key})" for o in others[:5])
        told.notes.append(
            f'"{reference}" also names {names}: this answer is for {outcome.subject.name} '
            f"({outcome.subject.key}) only; ask again with one of the candidates' receipts."
        )
        told.candidates = tuple(Candidate(o, 0.5) for o in others[:5])


def _former_name(reference: str, subject: StoredSubject) -> str | None:
    """What the answer says when the reference is only one of the subject's earlier names
    (a file's path before it moved, "click/core.py" for src/click/core.py): the name it is
    known by now, and its path."""
    needle = normalise(reference)
    now = handles(subject.model_copy(update={"previous_names": []}))
    if not subject.previous_names or any(
        needle in handle_forms(h, subject.kind.value) for h in now
    ):
        return None
    if not any(needle in handle_forms(h, subject.kind.value) for h in subject.previous_names):
        return None
    path = subject.attributes.get("path")
    where = f", its path now {path}" if path else ""
    return f'"{reference}" is a former name of {subject.name}: answered for {subject.name}{where}.'


def reach(window: Window | None, understood: Interpretation) -> datetime | None:
    """The earliest instant an answer counts from: None when it may reach the first change
    (a first change asked, no window known), else its window's start."""
    return None if window is None or understood.asks_first else window.start


def moved_path(reference: str, subject: StoredSubject, since: datetime | None) -> str | None:
    """What the answer says when the question writes a module's path, the module got that
    path in a move (graph/git/records.py: `moved_at`, `moved_from`) and the answer counts
    from before it: the changes made under the earlier path are counted for it, as DESIGN's
    subjects are followed through moves, but `git log -- PATH` alone lists only those made
    at the path ("the oldest commit that touches src/requests" was 2011's "generic skeleton",
    made at requests/, unsaid: git log -- src/requests starts in 2022)."""
    at, before, path = (subject.attributes.get(k) for k in ("moved_at", "moved_from", "path"))
    if not (isinstance(at, str) and isinstance(before, str) and isinstance(path, str)):
        return None
    written = reference.strip().strip("/")
    if not is_path(written) or written.casefold() != path.casefold():
        return None
    moved = datetime.fromisoformat(at)
    if since is not None and since >= moved:
        return None
    # Every earlier path, not only the newest: click's tests/test_utils was tests/test_utils_2
    # and tests/test_utils.py (a file that became the package) at once, and 2025's commits
    # were all made to the file.
    earlier = list(dict.fromkeys([before, *(n for n in subject.previous_names if "/" in n)]))
    paths = " ".join(earlier)
    said = earlier[0] if len(earlier) == 1 else f"{', '.join(earlier[:-1])} and {earlier[-1]}"
    return (
        f'"{reference}" has been the path of {subject.name} since {moved.date().isoformat()}; '
        f"before that it was {said}, and the changes made there are counted too (as `git log "
        f"-- {path} {paths}` lists them): `git log -- {path}` alone lists only those made at "
        f"{path}."
    )
