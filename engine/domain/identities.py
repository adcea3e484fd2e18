"""The identities a person joins, as `git shortlog -s -e` counts them apart: each
(mailmapped) "Name <address>" a person's counted commits were authored as, with the instants
of those commits, kept on the person as one attribute (`identities`) so that an answer
counting the person can say which identities it joined and how many commits each made in its
window (engine/answering/people.py). The git import joins identities sharing an address or a
full name (docs/git-import.md, "Identities"); said without them, "86 commits by Kevin
Deldycke" read as a wrong 85 (z36a C1: one commit from a second address).

The attribute is text (attributes hold no lists): one line per identity, the identity and
its commits' instants (seconds since the epoch, base 36) after a tab. When the instants of a
person's identities would not fit in one attribute (MAX_TEXT), each line holds the count of
its commits in all (`#N`) instead, and an answer says those.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

ATTRIBUTE = "identities"
MAX_TEXT = 20_000  # an attribute string's limit (docs/projection-format.md)


@dataclass(frozen=True, slots=True)
class Identity:
    written: str  # "Name <address>"
    instants: tuple[int, ...] = ()  # its commits' authored times, seconds since the epoch
    total: int | None = None  # its commits in all, when the instants were not kept

    def within(self, start: datetime, end: datetime) -> int | None:
        """Its commits in [start, end); None when only its total is known."""
        if self.total is not None:
            return None
        low, high = start.timestamp(), end.timestamp()
        return sum(low <= t < high for t in self.instants)


def encode(identities: Mapping[str, Counter[int]]) -> str:
    """The attribute's text for several identities; "" for one or none (nothing joined)."""
    if len(identities) < 2:
        return ""
    ordered = sorted(identities.items(), key=lambda kv: (-kv[1].total(), kv[0]))
    lines = [
        f"{_clean(w)}\t{' '.join(_b36(t) for t in sorted(ts.elements()))}" for w, ts in ordered
    ]
    text = "\n".join(lines)
    if len(text) <= MAX_TEXT:
        return text
    return "\n".join(f"{_clean(w)}\t#{ts.total()}" for w, ts in ordered)[:MAX_TEXT]


def merged(
    read: Mapping[str, Counter[int]], stored: Mapping[str, Counter[int]]
) -> dict[str, Counter[int]]:
    """The instants read joined with those an earlier import stored: per identity and
    instant the larger count, so a history read again counts its commits once and an
    incremental run adds the commits it read."""
    out = {w: Counter(ts) for w, ts in stored.items()}
    for written, times in read.items():
        out[written] = out.get(written, Counter()) | times
    return out


def decode(text: object) -> list[Identity]:
    """The identities an attribute's text holds ([] for none)."""
    if not isinstance(text, str) or not text:
        return []
    found = []
    for line in text.splitlines():
        written, _, rest = line.partition("\t")
        if rest.startswith("#"):
            found.append(Identity(written, total=int(rest[1:] or 0)))
        else:
            found.append(Identity(written, tuple(int(t, 36) for t in rest.split())))
    return found


def instants(text: object) -> dict[str, Counter[int]]:
    """The instants an attribute's text keeps, by identity (an incremental import adds the
    commits it read to them); {} when it kept counts only."""
    found = decode(text)
    if any(i.total is not None for i in found):
        return {}
    return {i.written: Counter(i.instants) for i in found}


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    n = max(n, 0)
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def _clean(written: str) -> str:
    return written.replace("\t", " ").replace("\n", " ")[:400]
