"""Words a search finds in a person's handles that name no person: the mail host of an
address, and a number word.

A person's addresses are handles (so "kevin.kirsche" or the whole address finds them), and a
search matches any token of a handle. "Python" in "Which Python module changed most often in
2026?" found Benjamin Peterson and Christian Heimes by "benjamin@python.org" and
"christian@python.org", "one" in "how many contributors only ever made one commit" Kevin
Kirsche by "kevin.kirsche@one.verizon.com": each question was asked back as a choice of
people. The part after "@" names a mail host, shared by whoever has an address there, and
a number word counts; neither is a person said. The local part of an address still is
(engine.resolving.firstnames.own_handle).
"""

from __future__ import annotations

from engine.domain.models import StoredSubject, SubjectKind
from engine.domain.text import tokens
from engine.reading.time.calendar import NUMBERS
from engine.resolving.candidates import Candidate
from engine.resolving.matching import Match, edits, handles

# Spelt numbers that are words of a count, never a person's name ("a" is no such word).
NUMBER_WORDS = frozenset(w for w in NUMBERS if len(w) > 1)


def names_no_one(reference: str, candidate: Candidate) -> bool:
    """A person found by search only through the mail host of an address, or by a
    reference made of number words alone: not a match."""
    return candidate.how is Match.SEARCH and no_one_in(reference, candidate.subject)


def no_one_in(reference: str, subject: StoredSubject) -> bool:
    """The reference names no one in this person: number words alone, or words each of
    which only a mail host of theirs holds (not their names, nor an address's own part).
    For the closest readings a no match offers, found by a search of their own."""
    if subject.kind is not SubjectKind.PERSON:
        return False
    words = tokens(reference)
    if not words:
        return False
    if all(w in NUMBER_WORDS for w in words):
        return True
    own: list[str] = []
    hosts: list[str] = []
    for handle in handles(subject):
        local, at, host = handle.rpartition("@")
        own += tokens(local if at else handle)
        hosts += tokens(host) if at else []
    return all(_near(w, hosts) and not _near(w, own) for w in words)


def _near(word: str, words: list[str]) -> bool:
    """The word is one of them, the start of one, or a typo of one."""
    return any(w.startswith(word) or edits(word, w) <= 1 for w in words)
