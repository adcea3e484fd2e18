"""The references of a question: which spans of it name subjects (which name one subject
inside another, "starlette's tests", "routing in starlette": engine/reading/scopes.py).

Tokens, quoted text and which tokens join: engine/reading/tokens.py.
Words are compared after `engine.domain.text.normalise`.

References, in order of appearance:
1. quoted text ("...", '...', `...`, “...”), verbatim; quoted text is never read as
   vocabulary or time;
2. spans the caller's `known_handles` accepts: runs of 1..5 free tokens, longest first,
   without overlap, that neither start nor end with a stop or vocabulary word;
3. a name right before a singular kind word ("click's testing module": "testing"), even
   when 1 and 2 found others: a name the question types is never dropped unread;
   engine/reading/kindwords.py finds it, and the kind a kind word beside a reference names;
4. words no rule read right after a word naming who acted ("did", "by": "how many commits
   did davidism make to core.py?"), even when 1 to 3 found others: whoever acted is part of
   the question, and an answer without them would answer another one;
5. only when 1 to 4 found nothing, a fallback: after a trigger word (is, are, for, of, about,
   did, does, owned, ...) and any stop or kind words, the next 1..3 tokens up to a stop,
   vocabulary or kind word ("why is payments-api behind?" -> "payments-api");
6. only when 1 to 5 found nothing, the runs of content words nothing read ("who chaged the
   parsr?": "chaged", "parsr"); otherwise such runs are kept (`unread`) for the answer to
   name.
Tokens join into one reference only across plain spaces, never across punctuation (an
initial's period excepted: "C. Sachs").

Two references next to each other may be a scope, the one naming a part of the other:
engine/reading/scopes.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from engine.reading.merges import MERGE_WORDS
from engine.reading.tokens import MAX_REFERENCE as MAX_REFERENCE
from engine.reading.tokens import Token as Token
from engine.reading.tokens import adjacent as adjacent
from engine.reading.tokens import blank_quotes as blank_quotes
from engine.reading.tokens import free_tokens as free_tokens
from engine.reading.tokens import quoted as quoted
from engine.reading.tokens import tokens_of as tokens_of
from engine.reading.verbs import DOING_VERBS
from engine.reading.vocabulary import (
    ACTOR_TRIGGERS,
    CHANGE_NOUNS,
    CHANGE_VERBS,
    DESCRIPTIONS,
    FILLERS,
    FIRST_WORDS,
    KIND_WORDS,
    NAME_PARTS,
    NOT_NAMES,
    SKIPPED,
    STOP_WORDS,
    TRIGGERS,
    VOCABULARY_WORDS,
)

MAX_HANDLE_PROBES = 1_000
MAX_NGRAM = 5
# A file or directory path: what a question names by where it lives in the code.
_PATH = re.compile(
    r"^[\w.-]+(?:/[\w.-]+)*/$|^[\w.-]+(?:/[\w.-]+)+$"
    r"|^\.?[\w-]+\.(?:py|pyi|js|ts|tsx|go|rs|java|rb|c|h|cpp|md|rst|toml|json|ya?ml|cfg|txt)$"
)
_FIRST_NAME = re.compile(r"[A-Z][a-z]+")  # as engine.resolving.together reads a first name


def content(token: Token) -> bool:
    return (
        token.free
        and bool(token.norm)
        and token.norm not in STOP_WORDS
        and token.norm not in VOCABULARY_WORDS
        and token.norm not in KIND_WORDS
        and token.norm not in CHANGE_VERBS
        and token.norm not in CHANGE_NOUNS
        and not MERGE_WORDS.intersection(token.norm.split())  # engine.reading.merges reads them
    )


def _nameable(token: Token) -> bool:
    """May start or end a known name: anything but a stop word. Vocabulary words may
    ("Shipping Store Service"): known names are matched before vocabulary is read."""
    return token.free and bool(token.norm) and token.norm not in STOP_WORDS


def _paired(window: list[Token]) -> bool:
    """Two words, one of them a stop word that is a word of names too ("status codes")."""
    if len(window) != 2 or not all(t.free for t in window):
        return False
    parts = [t for t in window if t.norm in NAME_PARTS]
    return bool(parts) and all(t in parts or t.norm not in STOP_WORDS for t in window)


def _bracketed(text: str, left: Token, right: Token, last: Token) -> bool:
    """A name written with a bracketed part, as people's names are ("Tim Sweña (Swast)",
    git's name of one of requests' two identities of him; "Tim Sweña" is the other's):
    the bracket opens between two words and closes right after the window's last. Cut at
    the bracket, the name read was the other identity's, answered for him silently. Only a
    known name is matched so (`handle_windows`), so a bracketed aside elsewhere stays apart."""
    gap = text[left.end : right.start]
    return gap.strip(" \t") == "(" and text[last.end : last.end + 1] == ")"


def handle_windows(text: str, tokens: list[Token]) -> list[tuple[int, int, tuple[int, int]]]:
    """(first token, size, span) of every window that could be a known name, longest first."""
    out = []
    for size in range(MAX_NGRAM, 0, -1):
        for i in range(len(tokens) - size + 1):
            window = tokens[i : i + size]
            if not all(t.free and t.norm for t in window):
                continue
            if not (_nameable(window[0]) and _nameable(window[-1])) and not _paired(window):
                continue
            # A trailing kind word is left out: a name is looked up with or without the word
            # naming its kind ("Shipping Store" finds "Shipping Store Service").
            if window[0].norm in KIND_WORDS or window[-1].norm in KIND_WORDS:
                continue
            if not all(
                adjacent(text, a, b) or _bracketed(text, a, b, window[-1])
                for a, b in pairwise(window)
            ):
                continue
            span = (window[0].start, window[-1].end)
            if text.count("(", *span) > text.count(")", *span):
                span = (span[0], span[1] + 1)  # "Tim Sweña (Swast)": its closing bracket
            if span[1] - span[0] <= MAX_REFERENCE:
                out.append((i, size, span))
    return out


def by_descriptions(
    text: str, tokens: list[Token], known: Callable[[str], bool] | None
) -> list[tuple[int, int]]:
    """A phrase naming a conventional directory by what it holds (DESCRIPTIONS: "the test
    suite", "unit tests", "documentation") is one reference, its words taken before the known
    names' pass can take one: "the werkzeug test suite" was werkzeug.test ("werkzeug test" a
    known name, "suite" said unused), "werkzeug's test suite" the same, unsaid. Beside a
    repository's name it is a scope (engine.reading.scopes), the repository's directory. A
    phrase that is itself a known name is left to the known names. Longest first."""
    spans: list[tuple[int, int]] = []
    for size in range(max(len(d.split()) for d in DESCRIPTIONS), 0, -1):
        for i in range(len(tokens) - size + 1):
            window = tokens[i : i + size]
            if not all(t.free for t in window) or not all(
                adjacent(text, a, b) for a, b in pairwise(window)
            ):
                continue
            span = (window[0].start, window[-1].end)
            if " ".join(t.norm for t in window) not in DESCRIPTIONS or (
                known is not None and known(text[span[0] : span[1]])
            ):
                continue
            if window[-1].norm == "files" and _counted(tokens, i):
                continue  # "how many test files": files counted (engine.reading.breakdowns)
            spans.append(span)
            for t in window:
                t.free = False
    return sorted(spans)


def _counted(tokens: list[Token], i: int) -> bool:
    """The words before tokens[i] count it: "how many", "the number of"."""
    before = [t.norm for t in tokens[max(0, i - 2) : i]]
    return before[-1:] == ["many"] or before == ["number", "of"]


def by_handles(
    text: str, tokens: list[Token], known: Callable[[str], bool], notes: list[str]
) -> list[tuple[int, int]]:
    """One pass, longest first, without overlap; the tokens of a match are consumed."""
    spans: list[tuple[int, int]] = []
    probes = 0
    for i, size, span in handle_windows(text, tokens):
        window = tokens[i : i + size]
        if not all(t.free for t in window):
            continue
        if probes >= MAX_HANDLE_PROBES:
            notes.append("handle_probe_budget_exhausted")
            return spans
        probes += 1
        if known(text[span[0] : span[1]]):
            spans.append(span)
            for t in window:
                t.free = False
    return spans


def fallback(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """References by position, when nothing else named one (see the module docstring)."""
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if tokens[i].norm not in TRIGGERS:
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and tokens[j].free and tokens[j].norm in SKIPPED:
            j += 1
        k = j
        while k < len(tokens) and k - j < 3 and content(tokens[k]):
            k += 1
            if k < len(tokens) and not adjacent(text, tokens[k - 1], tokens[k]):
                break
        # "in both 2024 and 2025", "what was the first commit?": no name
        alone = k == j + 1 and tokens[j].norm in FILLERS | FIRST_WORDS
        if k > j and not alone and tokens[k - 1].end - tokens[j].start <= MAX_REFERENCE:
            spans.append((tokens[j].start, _capitalised_end(text, tokens[j:k], tokens[k - 1].end)))
        i = max(k, i + 1)
    return spans


def unread(text: str, tokens: list[Token], spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Runs of content words no rule read: not a reference, nor next to one (a word next to
    a reference is said by engine.resolving.unmatchedwords), nor a filler or a word qualifying a
    kind ("best", "main"). A name the question types that nothing here knows ("parsr"): the
    answer names it, or it is tried as a name when the question names nothing else."""
    runs: list[list[Token]] = []
    for token in tokens:
        if not content(token) or token.norm in FILLERS | NOT_NAMES | FIRST_WORDS:
            continue
        if any(token.start < end and token.end > start for start, end in spans):
            continue
        if runs and adjacent(text, runs[-1][-1], token):
            runs[-1].append(token)
        else:
            runs.append([token])
    return [
        (run[0].start, run[-1].end)
        for run in runs
        if not any(_touches(text, run, span) for span in spans)
    ]


def after_actor_words(
    text: str, tokens: list[Token], spans: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Runs of words no rule read (`unread`), of at most 3 words, right after a word naming
    who acted ("did", "by"): a login or name the store may know only inside another handle
    ("davidism" in "davidism@gmail.com"), or not at all. Tried as a name, it resolves, asks
    which, or is said to name no one; left unread, the answer would be everyone's. One word
    written as a first name ("Armin") stays unread: engine.resolving.together reads it as the first
    name of every person carrying it."""
    out = []
    for start, end in unread(text, tokens, spans):
        first = next(i for i, t in enumerate(tokens) if t.start == start)
        words = sum(1 for t in tokens[first:] if t.end <= end)
        before = tokens[first - 1] if first else None
        if words > 3 or before is None or not before.free or before.norm not in ACTOR_TRIGGERS:
            continue
        if _FIRST_NAME.fullmatch(text[start:end]):
            continue
        if adjacent(text, before, tokens[first]):
            out.append((start, _capitalised_end(text, tokens[first:], end)))
    return out


# Fillers (vocabulary.FILLERS) that say what changed ("has code changed", "did files
# change") or how ("has ever committed", "did both make"): never who acted. Any other filler
# in the place of who acted is a name there ("how many commits did development author?":
# development@domain51.com on werkzeug), never passed over for everyone's count.
NOT_DOERS = frozenset(
    {"best", "well", "mostly", "really", "ever", "far", "both", "times", "code", "file"}
    | {"files", "folder", "folders", "directory", "directories", "dir", "parts", "part"}
    | {"bits", "pieces", "portions", "areas"}
)
# Verbs of authoring commits, after whose doer a filler is a name ("did X author").
AUTHORING = frozenset(
    {"author", "authored", "write", "wrote", "written", "make", "made", "commit"}
    | {"committed", "contribute", "contributed"}
)


def filler_doers(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """A filler no code word or adverb (`NOT_DOERS`) standing where a question names who
    acted: between "did" (does, has, have) and a verb of authoring ("how many commits did
    development author?"), or after "by" at the end of its clause or right before the time
    ("commits by development in Feb-Apr 2015"). Passed over as a filler, the answer was the
    whole organisation's; read as a name, it is the person it names, asked, or no one."""
    out = []
    for i, token in enumerate(tokens):
        if not (i > 0 and token.free and token.norm in FILLERS - NOT_DOERS):
            continue
        before, after = tokens[i - 1], tokens[i + 1] if i + 1 < len(tokens) else None
        if not before.free or not adjacent(text, before, token):
            continue
        joined = after is not None and adjacent(text, token, after)
        if before.norm in ACTOR_TRIGGERS - {"by"}:
            doing = joined and after is not None and after.norm in AUTHORING
        else:
            ended = after is None or not after.free or not joined
            doing = before.norm == "by" and ended
        if doing:
            out.append((token.start, token.end))
    return out


def _capitalised_end(text: str, run: list[Token], end: int) -> int:
    """Where a name written capitalised ends: at its last capitalised word before a word in
    lower case ("did Pihlipp Gortan author?": "author" is no more of the name, as
    engine.resolving.fullnames reads words beside a name; kept, the misspelt name was asked
    back). A run in lower case is a name in lower case up to a verb of doing after its first
    word ("how many lines did hynek add to the docs": "hynek"; "hynek add" was asked back as
    one name, engine.reading.verbs.DOING_VERBS), or at a word never a name ("first", "only":
    vocabulary.NOT_NAMES)."""
    lower = not run or not text[run[0].start].isupper()
    last = None
    for i, token in enumerate(run):
        if token.end > end:
            break
        if i and (token.norm in DOING_VERBS or token.norm in NOT_NAMES):
            return run[i - 1].end  # "when did hynek first contribute": "first" is no name
        if not lower and not text[token.start].isupper():
            break
        last = token.end
    return end if lower or last is None else last


def _touches(text: str, run: list[Token], span: tuple[int, int]) -> bool:
    """A run right before or after a span, joined by plain spaces only."""
    before = text[run[-1].end : span[0]]
    after = text[span[1] : run[0].start]
    return (run[-1].end <= span[0] and not before.strip(" \t")) or (
        span[1] <= run[0].start and not after.strip(" \t")
    )


# "the changelog" names a file when the question names nothing else ("when was the changelog
# last changed?"); "X's changelog" and "the changelog of X" are X's changes.
_FILE_NOUNS = frozenset({"changelog", "changelogs"})


def file_nouns(tokens: list[Token]) -> list[tuple[int, int]]:
    """The spans of "the changelog" (engine.resolving.descriptions reads which file)."""
    return [
        (token.start, token.end)
        for i, token in enumerate(tokens)
        if token.free and token.norm in _FILE_NOUNS and i and tokens[i - 1].norm == "the"
        and (i + 1 == len(tokens) or not _of_a_name(tokens[i + 1]))
    ]  # fmt: skip


def _of_a_name(token: Token) -> bool:
    # "the changelog of click" is click's changes; "the changelog for 2022" is the file in a
    # time: the time reader has already claimed "for 2022", so its "for" is no longer free.
    return token.free and token.norm in ("of", "for")


_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")


def is_written_name(text: str) -> bool:
    """Written as a path or a dotted module name ("src/attr/_make.py", "attr._make")."""
    return is_path(text) or bool(_DOTTED.match(text))


def is_path(text: str) -> bool:
    """Written as a file or directory path ("CHANGES.md", "src/click/core.py")."""
    return bool(_PATH.match(text))


def paths(text: str, tokens: list[Token]) -> list[tuple[int, int]]:
    """Free tokens written as a path ("src/click/core.py", "core.py"): a place in the code
    the question names, even when no trigger word precedes it."""
    return [
        (t.start, t.end + slashed)
        for i, t in enumerate(tokens)
        for slashed in [int(i > 0 and tokens[i - 1].norm in _UNDER and _slashed(text, t))]
        if t.free
        and _PATH.match(text[t.start : t.end + slashed])
        and not _asking(text[t.start : t.end])
    ]


# A folder written with its slash after a word saying where ("under src/", "inside docs/"):
# the tokens leave the slash out, and "under src" was read as one name that named nobody.
# After "to" or "into" the slash stays unread ("when did the code move to src/": a move).
_UNDER = frozenset({"under", "inside", "within", "beneath", "below", "underneath"})
_FOLDER_SLASH = re.compile(r"/(?=[\s?!,;:)]|$)")


def _slashed(text: str, token: Token) -> bool:
    return _FOLDER_SLASH.match(text, token.end) is not None


_QUESTION_WORDS = frozenset({"when", "who", "whom", "what", "where", "why", "how", "which"})


def _asking(written: str) -> bool:
    """Question words joined by a slash ("_dunders removed, when/who"): no path."""
    return set(written.casefold().split("/")) <= _QUESTION_WORDS
