"""People from commit authors: one person per (mailmapped) e-mail address.

git applies `.mailmap` before we see an author, so spellings the mailmap joins arrive with one
canonical name and e-mail. Beyond that, only an identical e-mail address (case-insensitive)
joins two spellings: two authors who share a name but not an address stay two people, because
guessing that they are one would silently merge distinct people. Every other spelling of a
person's name, every address they committed from and the GitHub login a no-reply address
names are kept as aliases.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

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


@dataclass
class Person:
    key: str
    name: str  # the newest canonical spelling
    aliases: set[str] = field(default_factory=set)

    def alias_list(self) -> list[str]:
        names = sorted(a for a in self.aliases if a and a != self.name and len(a) <= 200)
        return names[:MAX_ALIASES]


def person_key(email: str, name: str) -> str:
    """A stable key from the canonical e-mail; a name-based key when there is no address."""
    ident = email.strip().lower() or "unknown-" + _UNSAFE.sub("-", name.strip().lower())
    key = "person:" + _UNSAFE.sub("-", ident).strip("-")
    if len(key) > 200:
        key = "person:" + hashlib.sha256(ident.encode()).hexdigest()[:32]
    return key


class People:
    """Accumulates the people of a history read newest first."""

    def __init__(self) -> None:
        self.by_key: dict[str, Person] = {}

    def add(self, commit: Commit) -> str:
        key = person_key(commit.email, commit.name)
        person = self.by_key.get(key)
        if person is None:
            # Newest first: the first spelling seen is the one the person uses now.
            person = self.by_key[key] = Person(key, commit.name[:200])
        person.aliases.update(
            a for a in (commit.name, commit.raw_name, commit.email, commit.raw_email) if a
        )
        for email in (commit.email, commit.raw_email):
            login = github_login(email)
            if login is not None:
                person.aliases.add(login)
        return key
