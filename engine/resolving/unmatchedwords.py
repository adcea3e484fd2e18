"""Words next to a committed reference that no name matched.

Known names are matched longest first, so a phrase naming something the graph does not know
can still match one of its words: "who should review changes to shell completion?" finds a
module named `completion` when nothing is named `shell completion`. Unless the whole phrase
describes a file or folder (engine.resolving.descriptions), or the words after the name of
a repository or package name a part of it (engine.resolving.partwords: "the werkzeug
debugger"), the question then ends naming the phrase: answered for `completion` alone,
"shell" said unused, it answered another, coarser question ("the oauth middleware" was
werkzeug.middleware whole, "attrs src" all of attrs).

The phrase around a reference is the run of neighbouring content words (joined by plain
spaces; no stop, vocabulary, kind or time word, no other reference, no filler such as
"best") that holds it; the words of the run outside the reference are the unmatched ones.
Both are read with the question (engine/reading/runs.py), never from its text here.

The same words can tell apart subjects that share the reference: "the termui example" is
the one of the two modules named `termui` (examples/termui and click.termui) whose names
also hold "example(s)"; only when exactly one of all of them does, and the answer says so.
"""

from __future__ import annotations

from engine.domain.models import StoredSubject
from engine.domain.text import normalise
from engine.reading import meaning
from engine.reading import references as r
from engine.reading.interpretation import Interpretation
from engine.resolving.matching import handles
from engine.resolving.resolution import Ambiguous


def unmatched_words(reference: str, understood: Interpretation) -> tuple[str, list[str]] | None:
    """(the phrase, its words outside the reference) when the reference is part of a longer
    run of content words (read with the question: engine.reading.runs); None when it stands
    alone."""
    found = understood.beside_of(reference)
    return None if found is None else (found.phrase, list(found.words))


def qualified(reference: str, understood: Interpretation) -> bool:
    """Words before the reference in its run qualify it ("the oauth middleware", "fancy
    routing"): a part of it they name, or nothing. Words only after it ("core.py busier than
    last year", "the wsgi modul") are as often the question's own, read elsewhere or said."""
    found = unmatched_words(reference, understood)
    return found is not None and not found[0].startswith(reference)


def unmatched_note(
    reference: str, subject: StoredSubject, understood: Interpretation
) -> list[str]:
    """The note ending a question when words next to its reference matched nothing and name
    no part of it (engine.resolving.partwords): it was answered for the reference alone,
    '"attrs src" names no subject: ... "src" was not used' beside the whole repository's
    figure."""
    found = unmatched_words(reference, understood)
    if found is None:
        return []
    phrase, words = found
    unused = " ".join(words)
    return [
        f'"{phrase}" names no subject known here: only "{reference}" matched, '
        f'{subject.name} ({subject.key}), and "{unused}" names no part of it, so no answer '
        f"is given for {subject.name} in its place. Name the subject fully (or quote it) "
        "to ask about it."
    ]


def unread_note(understood: Interpretation) -> list[str]:
    """The limitations naming the words of the question no rule read (none when they were
    tried as names instead: engine.reading.references.unread), and the words read but not computed
    beside an answer (engine.reading.meaning)."""
    said = meaning.notes(understood.unasked)
    if not understood.unread or "references_unread" in understood.notes:
        return said
    words = ", ".join(f'"{w}"' for w in understood.unread)
    return [
        f"Not understood, so not used: {words}. A name nothing here knows is looked up as "
        "written when quoted.",
        *said,
    ]


def missing_note(reference: str, understood: Interpretation) -> str:
    """What a no match says of a reference that named nothing: a word no rule read, tried
    as a name only because the question named nothing else ("what did the team do after
    the offsite?": "offsite"), is said not understood, not only unknown as a name."""
    if "references_unread" in understood.notes:
        return (
            f'"{reference}" was not understood: no rule here reads it, and it names no '
            "subject known here either."
        )
    return f'"{reference}" names no subject known here.{file_note(reference)}'


def file_note(reference: str) -> str:
    """Why a file named by its path names nothing ("how many commits to datastructures.py?"):
    every file of a repository's imported head is a subject (docs/git-import.md, "Every
    file"), so a path naming none is a file deleted or moved before the head, or one never in
    the history. No count is given for the directory or repository in its place: that would
    answer another question."""
    if not r.is_path(reference):
        return ""
    return (
        " Every file of a repository as it is now is a subject; a file deleted or moved since "
        f'(or never in its history) is not, so commits to "{reference}" are not counted here. '
        "Ask about the directory that held it, or its path now."
    )


def _forms(word: str) -> set[str]:
    """A word, singular or plural: "example" is in the path `examples/termui`."""
    folded = normalise(word)
    return {folded, folded + "s", folded.removesuffix("s")} - {""}


def narrowed(
    reference: str, outcome: Ambiguous, understood: Interpretation
) -> tuple[StoredSubject, str] | None:
    """The one subject of a tie whose names also hold the words next to the reference, and
    the note saying how it was chosen; None unless every tied subject was seen and exactly
    one holds them all."""
    found = unmatched_words(reference, understood)
    if found is None or outcome.total is None or outcome.total > len(outcome.candidates):
        return None
    phrase, words = found
    fits = []
    for candidate in outcome.candidates:
        tokens = {t for h in handles(candidate.subject) for t in normalise(h).split()}
        if all(_forms(w) & tokens for w in words):
            fits.append(candidate.subject)
    if len(fits) != 1:
        return None
    chosen = fits[0]
    others = ", ".join(
        f"{c.subject.name} ({c.subject.key})"
        for c in outcome.candidates
        if c.subject.key != chosen.key
    )
    return chosen, (
        f'"{phrase}": "{reference}" also names {others}; answered for {chosen.name} '
        f'({chosen.key}), the one whose names hold "{" ".join(words)}".'
    )


def names_something(reference: str, understood: Interpretation) -> bool:
    """A reference naming nothing known that the question does name someone or something
    by (after "by", quoted, beside a kind word): answered without it, the answer was
    everyone's ("how many commits by zed to werkzeug?") or another subject's. A reference
    read only by its position ("who chaged the parsr?": "chaged") is said instead."""
    if reference in understood.actors:  # "has every contributor": everyone, said
        words = normalise(reference).split()
        return bool(words) and normalise(reference) not in BY_IDIOMS and words[0] not in EVERYONE
    return not {"references_by_position", "references_unread"} & set(understood.notes)


# Words after "by" that name no one and leave the question as it was ("made by hand"): said,
# and everyone's count answered. Any other word there ("by bots", "by author", "by zed")
# names who acted: answered without them, the count was another question's.
BY_IDIOMS = frozenset({"hand", "default", "mistake", "accident", "design", "far"})
EVERYONE = frozenset({"every", "each", "all", "any", "everyone", "everybody"})
