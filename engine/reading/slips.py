"""Question words typed one slip away ("chnages to setters.py", "how many comits", "how many
contibutors"): read as the word they miss, and said beside the answer.

A word nothing else read, of six letters or more, one slip (two letters swapped, one left out, one
added, one mistyped: engine.reading.verbs.nearest) from exactly one word of QUESTION_WORDS (the
question's fact, kind and people words, and the reader's own closed lists: stop words, fillers:
"diffrent" is "different", "somone" "someone"), keeping its first and last letter, is read as that
word: the question's later readings (fact phrases, the intent, a ranking) see the word it misses.
Before, such a word was said not understood and the question answered without it: "how many
contibutors to werkzeug" counted commits, "chnages to setters.py" ended as asking nothing.

What is never read so: a known name (read before this, its words taken), a path or dotted name, a
word written capitalised after the first (a name nothing here knows: "Comits"), a word of the
reader's own lists (read as itself), and the real words of NOT_SLIPS. Verbs are read where a verb is
due (engine.reading.wordrules, "misspelt verb"), where a word is surely a verb.

A kind word is read so from five letters, its last letter left out too ("the wsgi modul", "the _make
modul", "the routing packag"): a kind word ends the name before it, and "modul" was said unused
beside werkzeug.wsgi, or read as a name of its own while "_make" was dropped (`kind_slip`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.reading import references as r
from engine.reading import vocabulary as v
from engine.reading.time.spellings import WORD_SPELLINGS
from engine.reading.verbs import CHANGE_NOUNS, LIGHT_VERBS, nearest, slip

# The words of a question's kind, facts and people a slip of is read as them.
QUESTION_WORDS = (
    frozenset(phrase for phrase in v.FACT_VOCABULARY if " " not in phrase)
    | frozenset(v.KIND_WORDS)
    | CHANGE_NOUNS
    | {"committer", "author", "developer", "busiest"}
    # The reader's own closed lists (stop words, the words qualifying a question or a kind):
    # "how many diffrent people touched serving.py?" ended on "diffrent" while "comits" was
    # read; a slip is a rule over the words the reader knows, not a list of misspellings.
    # Not a verb's: a verb is read so only where a verb is due ("misspelt verb", wordrules).
    | (v.STOP_WORDS - v.CHANGE_VERBS - LIGHT_VERBS)
    | v.FILLERS
    | v.NOT_NAMES
    | v.NEWCOMERS
)
# Real words one slip from a question word, never read as it.
NOT_SLIPS = frozenset(
    {"chances", "charges", "skipping", "shopping", "protect", "preview", "previews"}
    | {"attentive", "packager", "packagers", "services", "serviced", "modular", "authored"}
    | {"expect", "expects"}
)
NOTE = 'read as "{word}": no word here is spelt so; it is one slip away.'
# Question words written short in chat, read as the word written out ("most active ppl over
# xmas" ended, "ppl" not understood); said beside the answer as read.
# Calendar units written short, as the time reader's rows spell them
# (engine/reading/time/spellings.WORD_SPELLINGS), where no time phrase read them: "busiest wk
# in 2026", "which qtr of 2025 was the busiest" ended on "wk"/"qtr" not understood (on attrs
# "wk" was asked as a person's address), where "busiest week" is answered. Not "yr" ("your"
# in chat) nor "q" (a letter).
SHORT = {"ppl": "people", "ppls": "people", "contribs": "contributors"} | {
    short: word
    for short, (word, _) in WORD_SPELLINGS.items()
    if word.rstrip("s") in {"week", "month", "quarter"} and len(short) > 1
}
SHORT_NOTE = 'read as "{word}" (written short).'
# Words meaning a question word in a git history, read as it: what a person contributes to
# one is its commits (no pull request, review or issue is in it). "Tin Tvrtkovic's last
# contribution" and "when did X last contribute?" ended on "contribution"/"contribute" not
# understood (z38a A6), where "X's last commit" is answered. "contributed" is a fact word of
# its own (people who committed: engine/reading/vocabulary.py).
MEANS = {
    "contribution": "commit", "contribute": "commit",
    "contributes": "commits",
}  # fmt: skip
MEANS_NOTE = (
    'read as "{word}": what someone contributes to a git history is its commits (pull '
    "requests, reviews and issues are not in it)."
)


@dataclass(frozen=True, slots=True)
class Slip:
    """A word of the question as written, and the question word it was read as."""

    written: str
    read_as: str
    short: bool = False
    meant: bool = False  # a word meaning the question word (MEANS), not a slip of it

    @property
    def note(self) -> str:
        said = MEANS_NOTE if self.meant else SHORT_NOTE if self.short else NOTE
        return f'"{self.written}": ' + said.format(word=self.read_as)


def read_slips(text: str, tokens: list[r.Token]) -> list[Slip]:
    """The free tokens one slip from a question word, their `norm` made that word (they stay
    free: the readings after this read them as it)."""
    found: list[Slip] = []
    for i, token in enumerate(tokens):
        written = text[token.start : token.end]
        if not _may_slip(token, written, first=i == 0):
            continue
        if token.norm in MEANS:
            found.append(Slip(written, MEANS[token.norm], meant=True))
            token.norm = MEANS[token.norm]
            continue
        if token.norm in SHORT:
            found.append(Slip(written, SHORT[token.norm], short=True))
            token.norm = SHORT[token.norm]
            continue
        word = nearest(token.norm, QUESTION_WORDS, edges_kept=True) or kind_slip(token.norm)
        if word is not None:
            token.norm = word
            found.append(Slip(written, word))
    return found


def _may_slip(token: r.Token, written: str, *, first: bool) -> bool:
    """A plain lower-case word no rule reads (capitalised only first in the question)."""
    return (
        r.content(token)
        and token.norm.isalpha()
        and token.norm not in NOT_SLIPS
        and token.norm not in v.FILLERS
        and not r.is_written_name(written)
        and (first or not written[:1].isupper())
    )


# Kind words a slip of five letters or more is read as: six letters or more (a slip of
# "repo" or "team" is as often another word).
_KINDS = tuple(k for k in v.KIND_WORDS if len(k) >= 6)


def kind_slip(word: str) -> str | None:
    """The one kind word `word` is a slip of, its first letter kept: two letters swapped or
    one left out (the last one too: "modul", "packag"); never one added ("persona" is no
    slip of "person", "packager" none of "package"); None when none or several are as near,
    or `word` is shorter than five letters."""
    if len(word) < 5:
        return None
    near = [k for k in _KINDS if k[0] == word[0] and slip(word, k) == 1]
    return near[0] if len(near) == 1 else None
