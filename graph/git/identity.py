"""People from commit authors: who is one person (docs/git-import.md, "Identities").

git applies `.mailmap` before we see an author, so spellings the mailmap joins arrive with one
canonical name and e-mail. Beyond that, two identities are one person when they share an
e-mail address (case-insensitive), or when their (mailmapped) full names are identical once
normalised (engine.domain.text.normalise: case, accents, punctuation), as `git shortlog` groups by
name, within the organisation: with identities already stored there (from this repository
or another) too. A name of one word ("Alex", "unknown") never joins anyone: a first name
alone is shared by different people. Every other spelling of a person's name, every address
they committed from and the GitHub login a no-reply address names are kept as aliases.

Only the commits an answer counts (not merges: git log --no-merges) name a person: a merge
commit's author string joins no one by its name and gives no spelling (click's merge
6ce5591 by "Jaron Rosenau <jaron@rosenau.info>" joined denuoweb's 41 commits from that
address to Jaron Rosenau's other address, against git shortlog -e), and a person shows the
spelling of most of their counted commits, the newest of equals (click's Doug Harris,
whose one merge spells "dougharris"; requests' Kenneth Reitz, not the "☿ Kenneth Reitz" of
5 commits). Someone who only merged is named by their newest merge, and joins by its name
(no commit of theirs is counted, so the join moves none).

Reading builds one person per address (`People`); `joined` then decides the key each of
those goes under, and the history is rewritten to it (History.remap).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engine.domain.models import StoredSubject
from engine.domain.text import normalise
from graph.git.log import Commit

MAX_ALIASES = 64
_UNSAFE = re.compile(r"[^a-z0-9._@+-]+")
# GitHub's private commit address names the account: 12345+login@users.noreply.github.com.
_GITHUB_NOREPLY = re.compile(r"^(?:\d+\+)?([a-z0-9][a-z0-9-]{0,38})@users\.noreply\.github\.com$")


def github_login(email: str) -> str | None:
    """The GitHub login a no-reply commit address carries, so a person can be asked about by
    it ("what did octocat change?")."""
    found = _GITHUB_NOREPLY.match(email.strip().lower())
    return found.group(1) if found else None


_EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass
class Person:
    key: str
    name: str  # the spelling of most counted commits (`spelled`)
    aliases: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)  # mailmapped names of counted commits
    merged_as: set[str] = field(default_factory=set)  # mailmapped names of merge commits
    emails: set[str] = field(default_factory=set)
    latest: datetime = _EARLIEST  # the newest commit
    # Counted (non-merge) commits per mailmapped spelling, newest spelling first: the name.
    spellings: Counter[str] = field(default_factory=Counter)
    # Each "Name <address>" of the counted commits (git shortlog -e's groups), with the
    # commits' instants (engine/domain/identities.py): what an answer says it joined.
    identities: dict[str, Counter[int]] = field(default_factory=dict)

    def absorb(self, other: Person) -> None:
        newer = other.latest > self.latest
        self.latest = max(self.latest, other.latest)
        self.spellings = (
            other.spellings + self.spellings if newer else self.spellings + other.spellings
        )
        self.aliases |= other.aliases | {other.name}
        self.names |= other.names
        self.merged_as |= other.merged_as
        for written, times in other.identities.items():
            self.identities[written] = self.identities.get(written, Counter()) + times
        self.emails |= other.emails
        self.name = spelled(self.spellings) or self.name

    def joining(self) -> set[str]:
        """The names this person joins others by: those of their counted commits; only
        someone who merged and never committed otherwise, by their merges' (joining them
        moves no commit: werkzeug's ich@danielneuhaeuser.de, 11 merges as Daniel
        Neuhäuser, is Daniel Neuhäuser)."""
        return self.names if self.spellings else self.merged_as

    def alias_list(self) -> list[str]:
        names = sorted(a for a in self.aliases if a and a != self.name and len(a) <= 200)
        return names[:MAX_ALIASES]


def spelled(spellings: Counter[str]) -> str | None:
    """The spelling of most commits, the first (newest) of equals; None for no commit. A
    one-word spelling that is a word of a fuller one the person committed under is that
    name cut short, and gives way to it: requests' hugovk committed 8 times as "Hugo" and
    twice as "Hugo van Kemenade", and named "Hugo" he became the whole name "Hugo" is
    ("Hugo Zzz" asked which Hugo, "Zzz" unsaid). A login ("Rowlando13", 9 commits beside 2
    as "Eddie Girling") is no word of the other, and stays."""
    words = {w.casefold() for n in spellings if len(n.split()) > 1 for w in n.split()}
    kept = Counter(
        {n: c for n, c in spellings.items() if len(n.split()) > 1 or n.casefold() not in words}
    )
    return max(kept, key=lambda n: kept[n], default=None)


def person_key(email: str, name: str) -> str:
    """A stable key from the canonical e-mail; a name-based key when there is no address.
    Never empty: an address or name with no letter or digit (`=`, bytes that are no UTF-8)
    is keyed by a digest of what was written, so every author string yields a person."""
    address = email.strip().lower()
    ident = _UNSAFE.sub("-", address).strip("-")
    if not ident:
        spelled = _UNSAFE.sub("-", name.strip().lower()).strip("-")
        ident = "unknown-" + (spelled or "author")
        if address:  # an address of its own, even if no character of it is safe in a key
            ident += "-" + hashlib.sha256(address.encode()).hexdigest()[:12]
    key = "person:" + ident
    if len(key) > 200:
        key = "person:" + hashlib.sha256(ident.encode()).hexdigest()[:32]
    return key


_ADDRESS = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")


def oddities(name: str, email: str) -> list[str]:
    """What is odd about an author string, as the import's summary counts it: no name, no
    address, an address that is none (`=`, `none@none`, `praks.putchala`), bytes that are no
    UTF-8 (read as U+FFFD). The commit is kept and the author is a person all the same."""
    odd = []
    if not name.strip():
        odd.append("no_name")
    if not email.strip():
        odd.append("no_address")
    elif not _ADDRESS.match(email.strip()):
        odd.append("not_an_address")
    if "\ufffd" in name or "\ufffd" in email:
        odd.append("not_utf8")
    return odd


def _meaningful(text: str) -> bool:
    """A name or address a user could type: one holding a letter or a digit (`=` is none)."""
    return any(c.isalnum() for c in text)


class People:
    """Accumulates the people of a history read newest first."""

    def __init__(self) -> None:
        self.by_key: dict[str, Person] = {}
        self.odd: Counter[str] = Counter()  # commits per oddity of their author (oddities)

    def add(self, commit: Commit) -> str:
        self.odd.update(oddities(commit.raw_name, commit.raw_email))
        key = person_key(commit.email, commit.name)
        person = self.by_key.get(key)
        if person is None:
            # Newest first: a person who only merged is named by their newest merge.
            person = self.by_key[key] = Person(key, commit.name[:200])
        person.latest = max(person.latest, commit.authored)
        person.emails.update(e for e in (commit.email, commit.raw_email) if _meaningful(e))
        person.aliases.update(e for e in (commit.email, commit.raw_email) if _meaningful(e))
        if commit.is_merge:  # a merge's spelling names no one (the module docstring)
            person.merged_as.add(commit.name)
        else:
            person.spellings[commit.name[:200]] += 1
            written = f"{commit.name} <{commit.email}>"
            at = int(commit.authored.timestamp())
            person.identities.setdefault(written, Counter())[at] += 1
            person.name = spelled(person.spellings) or person.name
            person.names.add(commit.name)
            person.aliases.update(n for n in (commit.name, commit.raw_name) if _meaningful(n))
        for email in (commit.email, commit.raw_email):
            login = github_login(email)
            if login is not None:
                person.aliases.add(login)
        return key


def gathered(pairs: Iterable[tuple[str, Person]]) -> dict[str, Person]:
    """People gathered under the keys given: one Person per key, absorbing every person
    gathered under it (the spelling of most of their counted commits is its name)."""
    out: dict[str, Person] = {}
    for key, person in pairs:
        into = out.get(key)
        if into is None:
            into = out[key] = Person(key, person.name, latest=person.latest)
        into.absorb(person)
        into.aliases.discard(into.name)
    return out


# What a name carries besides the name: a part in parentheses (a login, a nickname, the name in
# another script, a tag: "Tim Sweña (Swast)", "Sviatoslav Sydorenko (Святослав Сидоренко)",
# "David Kemp (Work)") and symbols ("☿ Kenneth Reitz", a flag), which anyascii would spell
# out as words ("swast", "mercury", "ua").
_ASIDE = re.compile(r"\([^()]*\)")


def joinable(name: str) -> str | None:
    """The form a name joins identities by: normalised without its asides (_ASIDE), and of
    two words or more. "Tim Sweña (Swast) <tswast@gmail.com>" and "Tim Sweña
    <swast@google.com>" are one person, as a reader of git shortlog takes them: joined on
    the whole written name, requests' "tim swena commits 2025" was 1 where git has 2 (z38b
    r10). A name that is all aside ("(Work)") keeps its words."""
    bare = "".join(c for c in _ASIDE.sub(" ", name) if unicodedata.category(c) != "So")
    folded = normalise(bare) or normalise(name)
    return folded if len(folded.split()) >= 2 else None


# Stored people a handle (a name or an address) names: engine.ports.SubjectDirectory's
# subjects_by_handle, narrowed to people.
Lookup = Callable[[str], Awaitable[Sequence[StoredSubject]]]


class _Groups:
    """Union-find over person keys."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: str, b: str) -> None:
        self.parent[self.find(a)] = self.find(b)


async def joined(people: Iterable[Person], lookup: Lookup) -> dict[str, str]:
    """The key each person read goes under, by the rule in the module docstring.

    Among one group, a person already stored under one of the group's addresses keeps that
    key (re-imports never move anyone); otherwise the group takes a stored person's key
    (the smallest, when the organisation holds several), else the key of the person read
    first (the newest commit) of those with a counted commit. Stored people are never
    merged with one another: people an earlier import kept apart keep their records where
    they are."""
    read = list(people)
    groups = _Groups()
    first: dict[str, str] = {}
    for person in read:
        groups.find(person.key)
        for name in person.joining():
            folded = joinable(name)
            if folded is not None:
                groups.union(person.key, first.setdefault(folded, person.key))
    owner: dict[str, str] = {}  # person read -> the stored person owning one of its addresses
    stored: dict[str, set[str]] = {}  # group root -> stored people its names or addresses name
    for person in read:
        found = await _stored(person, lookup)
        for key, by_address in found:
            stored.setdefault(groups.find(person.key), set()).add(key)
            if by_address:
                owner.setdefault(person.key, key)
    firsts: dict[str, str] = {}  # group root -> the first person read of the group
    for person in sorted(read, key=lambda p: not p.spellings):  # one who committed first
        firsts.setdefault(groups.find(person.key), person.key)
    out: dict[str, str] = {}
    for person in read:
        root = groups.find(person.key)
        group_stored = sorted(stored.get(root, ()))
        fallback = group_stored[0] if group_stored else firsts[root]
        out[person.key] = owner.get(person.key) or fallback
    return out


async def _stored(person: Person, lookup: Lookup) -> list[tuple[str, bool]]:
    """Stored people this person's addresses (True) or joinable names (False) name, checked
    exactly: a handle lookup folds more than the rule joins on."""
    found: list[tuple[str, bool]] = []
    for email in sorted(person.emails):
        for subject in await lookup(email):
            if email in {a.lower() for a in (*subject.aliases, subject.name)} or (
                subject.key == person_key(email, "")
            ):
                found.append((subject.key, True))
    for name in sorted({n for n in map(joinable, person.joining()) if n}):
        for subject in await lookup(name):
            if name in {joinable(a) for a in (*subject.aliases, subject.name)}:
                found.append((subject.key, False))
    return found
