"""How a reference matches a subject: the handle it matched, how, and with what confidence.

Pure functions over strings; the resolver (engine.resolving.resolution) reads the subjects and
decides. Every comparison is between normalised text (engine.domain.text), the same fold the search
text was written with, so case, accents and punctuation never change an outcome.

Match classes, strongest first (their confidences are in engine.domain.gates):

* EXACT / FOLDED: the reference is one of the subject's handles, as written / once folded
  (or without a trailing word naming its kind: "checkout" for "Checkout Service").
* TYPO: one edit (insertion, deletion, substitution, swap of neighbours) from a handle,
  anywhere in it, spaces included ("tomc hristie", "bne beasley").
* PREFIX / SEARCH with every token: each token of the reference is a token of the handle
  ("customer identity" in "customer-identity-service"); scored by how much of the handle
  the reference covers.
* SEARCH, fuzzy: some tokens match with typos. Never enough to commit.
"""

from __future__ import annotations

import enum
import functools
from collections import Counter
from dataclasses import dataclass

from engine.domain import gates
from engine.domain.models import StoredSubject
from engine.domain.text import handle_forms, normalise
from engine.domain.text import handles as text_handles


class Match(enum.StrEnum):
    """How the reference matched the subject it names."""

    ID = "id"
    EXACT = "exact"
    FOLDED = "folded"
    TYPO = "typo"
    PREFIX = "prefix"
    RECENT = "recent"
    SEARCH = "search"


@dataclass(frozen=True, slots=True)
class HandleMatch:
    handle: str | None  # the handle as written
    how: Match | None  # None: no handle resembles the reference
    score: float  # the lexical confidence
    every_token: bool  # every token of the reference is a token of some handle


NO_MATCH = HandleMatch(None, None, 0.0, False)


def handles(subject: StoredSubject) -> list[str]:
    """Every name the subject is known by (engine.domain.text.handles)."""
    return text_handles(
        subject.kind.value, subject.name, subject.aliases, subject.previous_names,
        subject.attributes,
    )  # fmt: skip


def edits(a: str, b: str) -> int:
    """Optimal-string-alignment distance: a swap of neighbours is one edit, as in a typo."""
    previous, current = list(range(len(b) + 1)), [0] * (len(b) + 1)
    before: list[int] = []
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], before[j - 2] + 1)
        before, previous = previous, current
    return previous[-1]


def one_edit(reference: str, form: str) -> bool:
    """One edit apart, and long enough for one edit to be a typo rather than another word."""
    if abs(len(reference) - len(form)) > 1 or reference == form:
        return False
    if len(reference.replace(" ", "")) < gates.TYPO_MIN_CHARS:
        return False
    return edits(reference, form) == 1


@functools.lru_cache(maxsize=65_536)
def _token_similarity(a: str, b: str) -> float:
    if a == b:
        return 1.0
    shorter = min(len(a), len(b))
    if shorter < 4 or abs(len(a) - len(b)) > 1:
        return 0.0
    return 1.0 - 1 / max(len(a), len(b)) if edits(a, b) == 1 else 0.0


def similarity(ref_tokens: list[str], form_tokens: list[str]) -> float:
    """Token overlap that forgives one typo per token: an F-score of matched tokens either
    way (a token of the handle the reference lacks counts against it)."""
    if not ref_tokens or not form_tokens:
        return 0.0
    recall = sum(max(_token_similarity(r, h) for h in form_tokens) for r in ref_tokens)
    precision = sum(max(_token_similarity(h, r) for r in ref_tokens) for h in form_tokens)
    recall, precision = recall / len(ref_tokens), precision / len(form_tokens)
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


def _partial(score: float) -> float:
    return gates.LEXICAL_BASE + (gates.LEXICAL_CEILING - gates.LEXICAL_BASE) * score


def _form_match(
    reference: str, ref_tokens: list[str], form: str
) -> tuple[Match | None, float, bool]:
    form_tokens = form.split()
    every = not Counter(ref_tokens) - Counter(form_tokens)
    if one_edit(reference, form):
        return Match.TYPO, gates.TYPO, every
    if every:
        # Exact tokens: the share of the handle the reference covers decides.
        covered = len(ref_tokens) / len(form_tokens)
        prefix = form_tokens[: len(ref_tokens)] == ref_tokens
        how = Match.PREFIX if prefix else Match.SEARCH
        return how, _partial(2 * covered / (1 + covered)), True
    fuzzy = similarity(ref_tokens, form_tokens)
    if not fuzzy:
        return None, 0.0, False
    return Match.SEARCH, min(gates.FUZZY_CEILING, _partial(fuzzy)), False


def match(reference: str, subject: StoredSubject) -> HandleMatch:
    """The subject's handle closest to the reference, how it matched and how well."""
    raw, ref = reference.strip(), normalise(reference)
    ref_tokens = ref.split()
    if not ref_tokens:
        return NO_MATCH
    best, every_token = NO_MATCH, False
    for handle in handles(subject):
        for form in handle_forms(handle, subject.kind.value):
            if not form:
                continue
            if form == ref:
                if handle.strip() == raw:
                    return HandleMatch(handle, Match.EXACT, gates.EXACT_NAME_CONFIDENCE, True)
                if best.how is not Match.FOLDED:
                    best = HandleMatch(handle, Match.FOLDED, gates.FOLDED_CONFIDENCE, True)
                continue
            how, score, every = _form_match(ref, ref_tokens, form)
            every_token = every_token or every
            if score > best.score:
                best = HandleMatch(handle, how, score, every)
    return HandleMatch(best.handle, best.how, best.score, every_token or best.every_token)
