"""Text normalisation shared by the search-text composition and reference resolution."""

from __future__ import annotations

import re
import unicodedata

from engine.models import SubjectKind

_TOKEN = re.compile(r"[0-9a-z]+")


def normalise(text: str) -> str:
    """Lower-case letters and digits, one space between tokens: what both search arms and
    the resolver compare, so `shop_frontend`, `Shop-Frontend` and `shop frontend` agree."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(_TOKEN.findall(folded))


# --- the search text: one composition for every retrieval arm and every backend ------------

MAX_SEARCH_FIELD = 200

# Attributes that identify a subject of a kind the way a name does (per kind, closed).
SEARCH_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "person": ("email", "login", "github"),
    "repository": ("slug", "full_name"),
    "service": ("slug",),
    "team": ("slug",),
    "project": ("code",),
}


def search_text(
    kind: str,
    name: str,
    aliases: list[str],
    previous: list[str],
    attributes: dict[str, object] | None = None,
) -> str:
    """One composition used by every retrieval arm; aliases and previous names always kept.

    Handles are normalised so the full-text engine splits them into the same tokens the
    resolver compares; each is capped. Changing this composition means bumping
    engine.embedding.COMPOSITION_TAG, so stored vectors are known to be stale."""
    wanted = SEARCH_ATTRIBUTES.get(kind, ())
    keyed = [str(attributes[a]) for a in wanted if attributes and attributes.get(a) is not None]
    parts = [name, kind, *aliases, *previous, *keyed]
    return " | ".join(normalise(p[:MAX_SEARCH_FIELD]) for p in parts)


# --- search queries: the tokens a lexical search looks for ----------------------------------

MAX_QUERY_TOKENS = 12
# Words that are in every search text of their kind: they rank nothing.
SEARCH_KIND_WORDS = frozenset(w for kind in SubjectKind for w in kind.value.split("_")) | {"svc"}


def query_tokens(text: str) -> list[str]:
    """Letters and digits only: the full-text engines' operators can never come from a client."""
    return [t for t in re.split(r"[^0-9A-Za-z]+", text.lower()) if t][:MAX_QUERY_TOKENS]


def telling_tokens(text: str) -> list[str]:
    """The query tokens that rank: kind words are left out when others remain."""
    tokens = query_tokens(text)
    return [t for t in tokens if t not in SEARCH_KIND_WORDS] or tokens
