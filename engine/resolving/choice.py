"""What a receipt's choice answers, and the question's other references beside it.

A clarification asks about one reference ("Kevin" could mean three people); the caller asks
again with the chosen candidate's receipt. The rest of the question still stands: "how many
commits to utils.py in 2025 by Kevin Deldycke?" asked which utils.py, and once click.utils was
chosen answered 1 commit to click.utils, everyone's, Kevin Deldycke dropped unsaid; "how many
commits did Kevin make to core.py in August 2026?" asked which Kevin again after each choice.
So the receipt answers the reference whose candidates hold its subject (or the first name
its person carries), and every other reference is read as without a receipt: one naming a
subject joins it, and one that names nothing or could mean several is left to be read as
any reference is (engine.resolving.subjects: said, asked about, or ending the question). Dropped,
"how many commits did john smith make to utils.py?" answered everyone's count once click.utils
was chosen, and "... by davidism" never asked whether David Lord was meant.

A receipt chosen from subjects the question named unambiguously together (a person and a
module asked about something not computed for a person's part: engine.resolving.together) answers no
reference: that choice is the question's subject alone, as before, the others said left out.
Only there is a choice made among subjects named unambiguously: where the question, asked
without receipts, would not ask which of them is meant (one person's part of a module is
computed, or no person is named beside other subjects), the receipts confirm subjects it
names, and the others it names stand beside them. A too-wide time or a whole history asks
again offering "... in the last 400 days?" with the receipts of what was resolved (a
person's part offers the module or repository alone): "How many commits has denuoweb
authored in click in the last 400 days?" asked with click's receipt answered 334 commits to
click, everyone's, with denuoweb "left out", where the question asks his 36.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import normalise
from engine.reading.interpretation import Interpretation
from engine.resolving import together
from engine.resolving.disclosures import Disclosures
from engine.resolving.resolution import Ambiguous, NotFound, handles
from engine.resolving.within import Within

# One reference read as engine.resolving.subjects reads it: (reference, its kind word, the notes it
# adds).
Reader = Callable[
    [str, SubjectKind | None, Disclosures],
    Awaitable[StoredSubject | Ambiguous | NotFound | Within],
]


async def beside(
    chosen: Sequence[StoredSubject], understood: Interpretation, read: Reader, told: Disclosures
) -> tuple[list[StoredSubject], frozenset[str] | None]:
    """The receipts' subjects and, when they answer one of the question's references, the
    subjects its other references name (their notes said), with the references read here
    when others are still to be read as any reference is (None: none is); otherwise the
    receipts' subjects alone."""
    keys = {s.key for s in chosen}
    if understood.scopes:
        return list(chosen), None
    answered = _first_name_answered(chosen, understood.unread)
    found: list[StoredSubject] = []
    notes: list[str] = []
    done: set[str] = set()
    kinds = understood.reference_kinds or (None,) * len(understood.references)
    for reference, kind in zip(understood.references, kinds, strict=False):
        scratch = Disclosures()
        outcome = await read(reference, kind, scratch)
        if _offers(outcome, keys):  # the receipt answers what this reference asked
            answered = True
            done.add(reference)
        elif isinstance(outcome, StoredSubject):
            done.add(reference)
            if outcome.key not in keys:
                found.append(outcome)
                notes += scratch.notes
    if not answered and _asks_which([*chosen, *found], understood):
        # chosen among subjects named together: the others are said left out
        told.notes.extend(_left_out(chosen, found))
        return list(chosen), None
    told.notes.extend(notes)
    left = set(understood.references) - done
    return [*chosen, *found], frozenset(done) if left else None


def _offers(outcome: object, keys: set[str]) -> bool:
    """Whether a reference's reading asks which subject is meant and offers a receipt's: an
    ambiguous name, or a kind the name is not ("the click repo" offering the src/click
    package and the repository holding it: engine.resolving.kinded), whose Within carries
    its candidates with no subject."""
    if isinstance(outcome, Ambiguous):
        return bool(keys & {c.subject.key for c in outcome.candidates})
    if isinstance(outcome, Within) and outcome.subject is None:
        return bool(keys & {c.subject.key for c in outcome.candidates})
    return False


def _asks_which(subjects: Sequence[StoredSubject], understood: Interpretation) -> bool:
    """Whether the question, its subjects read without receipts, asks which one is meant
    (engine.resolving.subjects: a person beside other subjects, no part of one in the other
    computed): only then does a receipt choose among subjects named unambiguously."""
    if together.part_of(subjects, understood.fact_kinds, understood.excluding) is not None:
        return False
    return together.people_with_others(subjects, understood.compares) is not None


def _left_out(chosen: Sequence[StoredSubject], others: Sequence[StoredSubject]) -> list[str]:
    """What a receipt choosing among subjects named together leaves out: a person chosen from
    "how many commits did David Lord and Kevin Deldycke make to core.py?" answered David
    Lord's commits everywhere, core.py and Kevin Deldycke dropped unsaid."""
    if not others:
        return []
    left = ", ".join(f"{s.name} ({s.key})" for s in others)
    kept = ", ".join(s.name for s in chosen)
    return [f"{left}, named beside {kept}, left out: the choice made {kept} the only subject."]


def _first_name_answered(chosen: Sequence[StoredSubject], unread: Sequence[str]) -> bool:
    """A chosen person carries one of the question's unread words as a word of a name (the
    first name a clarification asked about: engine.resolving.together.first_names)."""
    words = {normalise(run) for run in unread}
    return any(
        word in normalise(h).split()
        for s in chosen if s.kind is SubjectKind.PERSON
        for h in handles(s) for word in words
    )  # fmt: skip
