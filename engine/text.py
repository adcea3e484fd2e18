"""Text normalisation shared by the search-text composition and reference resolution."""

from __future__ import annotations

import re
import unicodedata

_TOKEN = re.compile(r"[0-9a-z]+")


def normalise(text: str) -> str:
    """Lower-case letters and digits, one space between tokens: what both search arms and
    the resolver compare, so `shop_frontend`, `Shop-Frontend` and `shop frontend` agree."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(_TOKEN.findall(folded))
