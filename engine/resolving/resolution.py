"""Reference resolution: a natural-language reference to one subject, or an honest "which?".

Ordered stages, never guessing among close candidates (engine.resolving.matching says how a
reference matches a subject, engine.domain.gates with what confidence, engine.resolving.candidates
how candidates are ranked and decided):

1. Input: a reference that can name nothing (empty, longer than any handle, unreadable,
   nothing left once folded) is NotFound at stage INPUT with a note saying why; never an
   error, so a caller resolving many references handles one outcome type.
2. Id: a subject key (`repository:payments-api`), a subject id (a UUID in its canonical
   form) or the start of one written past its first hyphen. A full id or key that names no
   subject is the answer (not found); nothing else is taken for an id, so a numeric or hex
   handle (a login such as `2601677867`) goes on to the name stages.
3. Exact name, over every handle (name, aliases, previous names, identifying attributes),
   case- and accent-insensitive, decided from the storage total: one subject commits, two
   or more are ambiguous, and look-alikes can never page the exact one out.
4. Search: the lexical and vector arms, searched deeper than the caller's limit, scored by
   how the reference matches each candidate's handles; the gates decide what commits.

The actor's recent references (engine.resolving.ring) decide only a genuine tie: between subjects
with the same handle, or search candidates that would each commit alone; never one a rule
decides (a repository and its own packages of one name: the repository, `ruled`). A
substring of a recent reference never commits anything. A caller can leave the memory out
per call.
"""

from __future__ import annotations

import asyncio
import copy
import re
import uuid
from collections.abc import Sequence
from dataclasses import replace

from engine.domain import gates
from engine.domain.models import KEY_PATTERN, MAX_NAME, StoredSubject, SubjectKind, key_kind
from engine.domain.text import handle_forms, normalise
from engine.ports import SubjectDirectory
from engine.reading.references import is_path
from engine.resolving.candidates import (
    Ambiguous,
    Candidate,
    Hit,
    NotFound,
    Resolution,
    Resolved,
    Stage,
    aside_of,
    contenders,
    decide,
    rank,
    ruled,
    tied,
)
from engine.resolving.matching import Match, handles, match
from engine.resolving.notnames import names_no_one
from engine.resolving.ring import ReferenceRing, RingEntry

__all__ = [
    "Ambiguous", "Candidate", "Match", "NotFound", "Resolution", "Resolved", "Resolver",
    "Stage", "decide", "handle_forms", "handles", "normalise", "rank",
]  # fmt: skip

MAX_REFERENCE = MAX_NAME  # no handle is longer, so no longer reference can equal one
_UUID = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
_HEX = frozenset("0123456789abcdef")
_KEY = re.compile(KEY_PATTERN)
_SURROGATE = re.compile("[\ud800-\udfff]")


def _unusable(text: str) -> str | None:
    if not text:
        return "empty"
    if len(text) > MAX_REFERENCE:
        return "too_long"
    if "\x00" in text or _SURROGATE.search(text):
        return "unreadable"
    return None


def _uuid_prefix(text: str) -> bool:
    """The start of a subject id written past its first hyphen ("3f2a9c1e-" or longer)."""
    if not 9 <= len(text) <= len(_UUID):
        return False
    return all(
        (c == "-") if t == "-" else (c in _HEX) for c, t in zip(text.lower(), _UUID, strict=False)
    )


class Resolver:
    """Resolves references for one organisation's directory.

    ring: the process-local recently-referenced ring shared by every request.
    """

    def __init__(self, directory: SubjectDirectory, ring: ReferenceRing, org_id: str) -> None:
        self.directory = directory
        self.ring = ring
        self.org_id = org_id
        # Set when a hybrid search ran without its vector arm: an answer built on this
        # resolution must disclose that its retrieval was degraded.
        self.vector_arm_missed = False

    async def resolve(
        self,
        actor: str,
        reference: str,
        kinds: Sequence[SubjectKind] | SubjectKind | None = None,
        limit: int = 5,
        *,
        use_recent: bool = True,
    ) -> Resolution:
        """use_recent: let the actor's recent references break a genuine tie, and remember
        what this call commits. False leaves the memory out of the call both ways."""
        if isinstance(kinds, SubjectKind):
            kinds = [kinds]
        wanted = list(dict.fromkeys(kinds or []))
        text = reference.strip()
        reason = _unusable(text)
        if reason is not None:
            return NotFound(Stage.INPUT, (reason,))
        result = await self._by_id(text, wanted)
        if result is None:
            if not normalise(text):
                return NotFound(Stage.INPUT, ("nothing_comparable",))
            recent = self.ring.snapshot(self.org_id, actor) if use_recent else []
            result = await self._by_name(text, wanted, limit, recent)
        if isinstance(result, Resolved) and result.how is Match.SEARCH and is_path(text):
            # A file name or path only a search resembles names another file ("__init__.py"
            # was taken to mean complex.commands.cmd_init): nothing, as a guess would be.
            return NotFound(result.stage, ("path_unmatched",))
        if isinstance(result, Ambiguous) and _partly(text, result):
            # A path or dotted name no subject has, that a search matched in part: nothing,
            # the partial matches the closest readings ("werkzeug.nothinghere" asked which
            # of the repository werkzeug and its package werkzeug was meant).
            return NotFound(result.stage, ("path_unmatched",), tuple(result.candidates))
        if isinstance(result, Resolved) and use_recent:
            self.admit(actor, result.subject)
        return result

    def holding(self, ring: ReferenceRing) -> Resolver:
        """This resolver over `ring` instead (a run's held admissions): a copy, so whatever
        else it carries (its directory, an instance's own methods) is the same."""
        held = copy.copy(self)
        held.ring = ring
        return held

    def admit(self, actor: str, subject: StoredSubject) -> None:
        """Remember that the actor referenced the subject (resolved or investigated it)."""
        forms = frozenset(
            form for h in handles(subject) for form in handle_forms(h, subject.kind.value) if form
        )
        entry = RingEntry(subject.key, subject.name, subject.kind.value, forms)
        self.ring.admit(self.org_id, actor, entry)

    async def _by_id(self, text: str, kinds: list[SubjectKind]) -> Resolution | None:
        if _KEY.match(text) and key_kind(text) in SubjectKind._value2member_map_:
            found = await self.directory.subjects_by_keys([text])
            return self._one(found.get(text), kinds)
        if len(text) == len(_UUID) and _uuid_prefix(text):
            as_uuid = str(uuid.UUID(text))
            found = await self.directory.subjects_by_ids([as_uuid])
            return self._one(found.get(as_uuid), kinds)
        if not _uuid_prefix(text):
            return None
        sample, total = await self.directory.subjects_by_id_prefix(text.lower(), 10)
        sample = [s for s in sample if not kinds or s.kind in kinds]
        if total == 1 and len(sample) == 1:
            return Resolved(sample[0], gates.ID_CONFIDENCE, Stage.ID, sample[0].id, Match.ID)
        if total > 1:
            candidates = [Candidate(s, gates.ID_CONFIDENCE, how=Match.ID) for s in sample]
            return Ambiguous(candidates, Stage.ID, total)
        # A prefix that starts no id (of the kinds asked) is NotFound, never read as a name:
        # it was written as an id, and a name it happens to resemble is another question.
        return NotFound(Stage.ID, ("id_prefix_unmatched",))

    @staticmethod
    def _one(subject: StoredSubject | None, kinds: list[SubjectKind]) -> Resolution:
        if subject is None or (kinds and subject.kind not in kinds):
            return NotFound(Stage.ID)
        return Resolved(subject, gates.ID_CONFIDENCE, Stage.ID, subject.key, Match.ID)

    async def _by_name(
        self, text: str, kinds: list[SubjectKind], limit: int, recent: list[RingEntry]
    ) -> Resolution:
        """Stage 3, then stage 4. The exact read and the every-token read of stage 4 are sent
        together (stage 3 still decides first): a miss then costs one wait, not two."""
        (sample, total), (complete, exhaustive) = await asyncio.gather(
            self.directory.subjects_by_handle(text, kinds, max(limit, gates.EXACT_SAMPLE)),
            self.directory.search_all_tokens(text, kinds, gates.ALL_TOKENS_DEPTH),
        )
        if total == 1 and sample:
            found = match(text, sample[0])
            if found.how not in _EXACT:  # the store's fold and ours disagree: say folded
                found = replace(found, how=Match.FOLDED, score=gates.FOLDED_CONFIDENCE)
            others = [c for c in rank(text, complete, None) if c.subject.key != sample[0].key]
            return Resolved(
                sample[0], found.score, Stage.EXACT_NAME, found.handle,
                found.how or Match.FOLDED, tuple(contenders(others)[: gates.RUNNERS_UP]),
            )  # fmt: skip
        if total > 1:
            return await self._exact_tie(text, kinds, limit, sample, total, recent)
        return await self._search(text, kinds, limit, complete, exhaustive, recent)

    async def _exact_tie(
        self,
        text: str,
        kinds: list[SubjectKind],
        limit: int,
        sample: list[StoredSubject],
        total: int,
        recent: list[RingEntry],
    ) -> Resolution:
        """Several subjects have the handle. If the actor recently referenced exactly one of
        them, that one; else all of them are the answer's to choose from."""
        candidates = []
        for subject in sample:
            m = match(text, subject)
            candidates.append(
                Candidate(subject, m.score, None, None, None, m.handle, True, m.how, True, m.score)
            )
        # As written before folded, then the code a repository ships before its examples,
        # tests and docs (werkzeug's "utils.py" offered five examples/*/utils.py, not
        # src/werkzeug/utils.py), then by key: deterministic whatever the store's order.
        candidates.sort(key=lambda c: (-c.score, aside_of(c.subject) is not None, c.subject.key))
        # A file name or path as one subject writes it but for case, the others equal only
        # once punctuation is folded ("utils.py": click.utils, not click._utils, which it
        # asked about): that one, the others runners-up. A bare name still asks ("utils").
        verbatim = [c for c in candidates if ("." in text or "/" in text) and _as_written(text, c)]
        if len(verbatim) == 1 and total <= len(sample):
            one = verbatim[0]
            rest = tuple(c for c in candidates if c is not one)
            return Resolved(
                one.subject, one.score, Stage.EXACT_NAME, one.matched_handle or text,
                one.how or Match.EXACT, rest[: gates.RUNNERS_UP],
            )  # fmt: skip
        folded = normalise(text)
        keys = [e.key for e in recent if folded in e.forms and (not kinds or e.kind in kinds)]
        if len(keys) == 1 and not (total <= len(sample) and ruled(candidates)):
            # The ring remembers handles as they were; what the key names now is read again
            # (renamed or retracted since, it no longer decides anything).
            now = (await self.directory.subjects_by_keys(keys)).get(keys[0])
            still = match(text, now) if now is not None else None
            if now is not None and still is not None and still.how in _EXACT:
                rest = tuple(c for c in candidates if c.subject.key != now.key)
                return Resolved(
                    now, still.score, Stage.RING, still.handle, Match.RECENT,
                    rest[: gates.RUNNERS_UP],
                )  # fmt: skip
        return Ambiguous(candidates[: max(limit, 1)], Stage.EXACT_NAME, total)

    async def _search(
        self,
        text: str,
        kinds: list[SubjectKind],
        limit: int,
        complete: list[Hit],
        exhaustive: bool,
        recent: list[RingEntry],
    ) -> Resolution:
        depth = max(limit, gates.MIN_SEARCH_DEPTH)
        # The two arms are independent reads: asked together, they cost the slower one.
        lexical, vector = await asyncio.gather(
            self.directory.search_lexical(text, kinds, depth),
            self.directory.search_similar(text, kinds, depth, gates.SIMILARITY_FLOOR),
        )
        seen = {s.key for s, _ in complete}
        lexical = complete + [(s, score) for s, score in lexical if s.key not in seen]
        if vector is None:
            self.vector_arm_missed = True
        # A mail host or a number word found a person: no person was said (notnames).
        ranked = [c for c in rank(text, lexical, vector) if not names_no_one(text, c)]
        outcome = decide(ranked, limit, exhaustive=exhaustive)
        # Never for a path or dotted name matched only in part: no tie to break, nothing
        # named it ("werkzeug.middleware" was werkzeug.middleware.lint in a session).
        if isinstance(outcome, Ambiguous) and recent and exhaustive and not _written(text):
            keys = {e.key for e in recent}
            chosen = [c for c in tied(ranked) if c.subject.key in keys]
            if len(chosen) == 1:
                c = chosen[0]
                rest = tuple(x for x in contenders(ranked) if x is not c)[: gates.RUNNERS_UP]
                return Resolved(
                    c.subject, c.score, Stage.RING, c.matched_handle, Match.RECENT, rest
                )
        if vector is None and isinstance(outcome, NotFound):
            return replace(outcome, notes=("vector_arm_disabled",))
        return outcome


_EXACT = (Match.EXACT, Match.FOLDED)
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")


def _written(text: str) -> bool:
    """Written as a path or a dotted module name: one thing, never a part of one."""
    return is_path(text) or bool(_DOTTED.match(text))


def _partly(text: str, result: Ambiguous) -> bool:
    """A reference written as a path or a dotted module name that a search matched only
    in part, never exactly."""
    exact = any(c.exact for c in result.candidates)
    return _written(text) and result.stage is Stage.HYBRID and not exact


def _as_written(text: str, candidate: Candidate) -> bool:
    return any(h.strip().lower() == text.strip().lower() for h in handles(candidate.subject))
