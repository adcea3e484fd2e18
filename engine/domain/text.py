"""Text normalisation, written once: what the search text is composed of when a subject is
written, and what a reference is compared with when it is resolved.

Both sides fold the same way (case, accents, punctuation, script), so `Sebastián Ramírez`,
`sebastian ramirez` and `SEBASTIAN-RAMIREZ` are one name wherever they are compared: in the
full-text index, in the exact-name read, and in the resolver's scoring. Letters with no
decomposition are transliterated (anyascii), never dropped: `Łukasz` is `lukasz` (it was
`ukasz`), `Øyvind` `oyvind`, `Straße` `strasse`, `Сергей` `sergey` (it was nothing).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from anyascii import anyascii

from engine.domain.models import SubjectKind

_TOKEN = re.compile(r"[0-9a-z]+")
MAX_HANDLE = 200  # characters of one handle kept in the search text
SEPARATOR = " | "  # between the handles of one search text; never inside a normalised one

# Attributes that identify a subject of a kind the way a name does (per kind, closed).
SEARCH_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "person": ("email", "login", "github"),
    "repository": ("slug", "full_name"),
    "service": ("slug",),
    "team": ("slug",),
    "project": ("code",),
}


def composed(text: str) -> str:
    """`text` in Unicode's composed form (NFC): "Neuhäuser" typed with a combining diaeresis
    (NFD, as macOS and some git clients write it) is the same text as with "ä". A question is
    read in this form, so a name written either way is one name to every rule that reads
    words (a combining mark is no letter to them: "Neuha\u0308user" read as "Neuha" and "user")."""
    return unicodedata.normalize("NFC", text)


def normalise(text: str) -> str:
    """Lower-case letters and digits, one space between tokens: what both search arms and
    the resolver compare, so `shop_frontend`, `Shop-Frontend` and `shop frontend` agree."""
    folded = anyascii(text).lower()
    return " ".join(_TOKEN.findall(folded))


def tokens(text: str) -> list[str]:
    return normalise(text).split()


def handles(
    kind: str,
    name: str,
    aliases: Sequence[str],
    previous: Sequence[str],
    attributes: Mapping[str, object] | None = None,
) -> list[str]:
    """Every name a subject is known by, as written: its name, aliases, previous names and
    the identifying attributes of its kind (e-mail, login, slug...)."""
    wanted = SEARCH_ATTRIBUTES.get(kind, ())
    keyed = [str(attributes[a]) for a in wanted if attributes and attributes.get(a) is not None]
    return [name, *aliases, *previous, *keyed]


def search_text(
    kind: str,
    name: str,
    aliases: Sequence[str],
    previous: Sequence[str],
    attributes: Mapping[str, object] | None = None,
) -> str:
    """The one text both retrieval arms index: the normalised handles, the kind's name in
    second place (so a search for "team" finds teams), each capped. The exact-name read
    splits it on SEPARATOR and skips that second place. Changing this composition means
    bumping engine.domain.embedding.COMPOSITION_TAG, so stored vectors are known to be stale."""
    named = handles(kind, name, aliases, previous, attributes)
    parts = [named[0], kind, *named[1:]]
    return SEPARATOR.join(normalise(p[:MAX_HANDLE]) for p in parts)


def kind_suffixes(kind: str) -> tuple[str, ...]:
    """Trailing words that name a kind: "Checkout Service" is the checkout service."""
    return (kind.replace("_", " "), "svc")


def handle_forms(handle: str, kind: str) -> list[str]:
    """A handle normalised, and without a trailing word naming its kind: the kind word types
    the subject, it does not tell it apart from others of its kind."""
    norm = normalise(handle[:MAX_HANDLE])
    forms = [norm]
    for suffix in kind_suffixes(kind):
        if norm.endswith(" " + suffix):
            forms.append(norm[: -len(suffix) - 1])
    return forms


# --- search queries: the tokens a lexical search looks for ----------------------------------

MAX_QUERY_TOKENS = 12
MIN_SPLIT = 6  # a one-word reference this long is also tried as two words ("tomchristie")
# Words that are in every search text of their kind: they rank nothing.
SEARCH_KIND_WORDS = frozenset(w for kind in SubjectKind for w in kind.value.split("_")) | {"svc"}


def query_tokens(text: str) -> list[str]:
    """The reference folded as the search text was (normalise): letters and digits only, so
    `sebastián` is looked up as the `sebastian` the index holds, and the full-text engines'
    operators can never come from a client."""
    return tokens(text)[:MAX_QUERY_TOKENS]


def telling_tokens(text: str) -> list[str]:
    """The query tokens that rank: kind words are left out when others remain."""
    words = query_tokens(text)
    return [t for t in words if t not in SEARCH_KIND_WORDS] or words


def spacing_variants(words: list[str]) -> list[list[str]]:
    """The reference with one typo in its spacing undone: a letter moved across a space
    ("tomc hristie", "e dsingleton"), a space too many ("pay ments") or one missing
    ("tomchristie"). Each variant is one edit from the reference."""
    out: list[list[str]] = []
    for i in range(len(words) - 1):
        left, right = words[i], words[i + 1]
        head, tail = words[:i], words[i + 2 :]
        if len(left) > 1:
            out.append([*head, left[:-1], left[-1] + right, *tail])
        if len(right) > 1:
            out.append([*head, left + right[0], right[1:], *tail])
        out.append([*head, left + right, *tail])
    if len(words) == 1 and len(words[0]) >= MIN_SPLIT:
        word = words[0]
        out += [[word[:n], word[n:]] for n in range(2, len(word) - 1)]
    return out
