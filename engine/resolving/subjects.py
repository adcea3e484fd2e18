"""What a question is about, and what the answer must say about how that was decided.

References resolve with the kind word next to them; a question naming no subject is about
the organisation (its repositories), or about a cohort of the kind it asks for; a module
named with its repository is that repository's module, or a clarification when it has none
(engine.resolving.within); a path resolves to the module holding it, said; a committed reference
discloses when it came from the actor's recent references, when a misspelt name was taken
to mean a subject, which other people share a first name (with receipts to ask again), and
a name that matched nothing is said, never dropped. Names known before the question is read:
engine/resolving/handles.py; the time a question names: engine/resolving/questiontime.py; a question
naming no subject: engine/resolving/subjectless.py; subjects ranked by how much they changed:
engine/resolving/rankedsubjects.py; the subject one reference names: engine/resolving/referents.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from engine.answering.framing import lookback_of, window_of
from engine.domain.models import StoredSubject
from engine.domain.timecontext import EffectiveTime
from engine.ports import OrgGraph
from engine.providers import Provider
from engine.reading import clauses, meaning
from engine.reading.interpretation import Interpretation
from engine.reading.vocabulary import Intent
from engine.resolving import (
    choice,
    firstnames,
    kinded,
    outcomes,
    pronouns,
    questiontime,
    together,
)
from engine.resolving import rankedsubjects as busiest
from engine.resolving import subjectless as unnamed
from engine.resolving.disclosures import Disclosures
from engine.resolving.missing import Ended
from engine.resolving.named import Asking, Named
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.referents import Referents
from engine.resolving.resolution import (
    Resolver,
)
from engine.resolving.unmatchedwords import (
    unread_note,
)


class Subjects:
    """Finds what a question is about in one organisation's graph."""

    def __init__(
        self,
        graph: OrgGraph,
        resolver: Resolver,
        signer: ReceiptSigner,
        providers: Sequence[Provider],
    ) -> None:
        self.graph = graph
        self.resolver = resolver
        self.signer = signer
        self.providers = providers
        # each reference's subject; what it said names nothing, and the question's window
        self.referents = Referents(graph, resolver)
        self.named = Named(graph, resolver, signer, self.referents)  # the references' subjects

    async def resolve(
        self,
        actor: str,
        question: str,
        receipts: Sequence[str],
        allow_clarification: bool,
        understood: Interpretation,
        effective: EffectiveTime,
        told: Disclosures,
    ) -> list[StoredSubject] | Ended:
        """The subjects the question is about, or the composer of the result that ends the
        investigation without them (a clarification, or no match)."""
        if unread := questiontime.unread(understood):  # a time no rule reads: no answer
            return lambda frame, trace: outcomes.no_match(frame, trace, unread)
        self.referents.window = window_of(effective, lookback_of(understood.intent))
        if understood.ranking is not None:  # what it names holds what is ranked
            named = partial(self.resolve, actor, question, receipts, allow_clarification)
            return await busiest.subjects(
                self.graph, understood, effective, told,
                lambda asked: named(asked, effective, told),
            )  # fmt: skip
        if unasked := meaning.ending(understood.unasked) or understood.own_times:
            return lambda frame, trace: outcomes.no_match(frame, trace, unasked)
        subjects, ended = await self._receipted(
            actor, question, receipts, allow_clarification, understood, told
        )
        if ended is not None:
            return ended
        if not subjects and understood.references:
            asking = Asking(actor, question, understood, allow_clarification, subjects, told)
            ended = await self.named.read(asking)
            if ended is not None:
                return ended
        if not subjects and not understood.references:
            cohort = understood.kind_hint is not None and understood.intent != Intent.WHO
            if cohort and not kinded.counts_people(understood):
                subjects = await unnamed.cohort(
                    self.graph, self.providers, understood, effective, told.notes
                )
            elif understood.fact_kinds:
                subjects, note = await unnamed.organisation(self.graph, effective)
                told.organisation_wide = bool(subjects)
                told.notes.extend([note] if note else [])
        asked_too = clauses.unanswered_note(understood.unanswered)
        if not subjects:
            notes = (*await unnamed.emptiness(self.graph), *unread_note(understood), *asked_too)
            if not notes and not understood.references:
                notes = (unnamed.nothing_found(understood),)
            return lambda frame, trace: outcomes.no_match(frame, trace, notes)
        if understood.unread and understood.references:
            ended, understood = await firstnames.joined(
                self.graph, self.signer, understood, subjects, told, allow_clarification,
                lambda run: self.referents.one(actor, question, run, understood, None, told),
                self.referents.window,
            )  # fmt: skip
            if ended is not None:
                return ended
        told.notes.extend([*unread_note(understood), *asked_too])
        return await self._chosen(subjects, understood, allow_clarification, effective, told)

    async def _receipted(
        self,
        actor: str,
        question: str,
        receipts: Sequence[str],
        allow_clarification: bool,
        understood: Interpretation,
        told: Disclosures,
    ) -> tuple[list[StoredSubject], Ended | None]:
        """The subjects the actor chose by receipts (a clarification answered), with the
        references the receipts left read as any is; or the composer ending it."""
        bound = [
            key
            for r in receipts
            if (key := self.signer.verify(r, self.resolver.org_id, actor, question))
        ]
        if not bound:
            return [], None
        found = await self.graph.subjects_by_keys(bound)
        subjects = [found[k] for k in bound if k in found]
        subjects, done = await choice.beside(
            subjects, understood,
            lambda ref, kind, said: self.referents.one(
                actor, question, ref, understood, kind, said
            ),
            told,
        )  # fmt: skip
        for subject in subjects:  # the caller chose it: a reference like any resolved one
            self.resolver.admit(actor, subject)
        if done is None:
            return subjects, None
        # the references the receipts left, read as any is
        asking = Asking(actor, question, understood, allow_clarification, subjects, told)
        ended = await self.named.read(asking, done)
        return subjects, ended

    async def _chosen(
        self,
        subjects: list[StoredSubject],
        understood: Interpretation,
        allow_clarification: bool,
        effective: EffectiveTime,
        told: Disclosures,
    ) -> list[StoredSubject] | Ended:
        """The subjects found, once each: the person a pronoun stands for, those left out
        ("besides David Lord"), the part of them asked, or a clarification when people are
        named with other subjects (engine/resolving/together.py)."""
        chosen = list({s.key: s for s in subjects}.values())
        whose, unsaid = pronouns.referred(chosen, understood.pronouns)  # "his first commit"
        if unsaid is not None:
            return lambda frame, trace: outcomes.no_match(frame, trace, (unsaid,))
        told.notes.extend([whose] if whose else [])
        if together.only_left_out(chosen, understood.excluding):
            # "besides David Lord, who committed in 2025?": everyone else's part of the
            # organisation's repositories (it ended: leaving out was computed only for a part)
            held, note = await unnamed.organisation(self.graph, effective)
            chosen += held
            told.notes.extend([note] if note and held else [])
        parted = together.part_of(chosen, understood.fact_kinds, understood.excluding)
        if left := together.left_out(chosen, parted and parted[0], understood.excluding):
            return lambda frame, trace: outcomes.no_match(frame, trace, (left,))
        if parted is not None:
            told.part, held = parted
            told.notes.append(told.part.note(held))
            return held
        mixed = together.people_with_others(chosen, understood.compares)
        if mixed is None:
            return chosen
        prompt, offered = mixed
        if not allow_clarification or not offered:
            return lambda frame, trace: outcomes.no_match(frame, trace, (prompt,))
        return lambda frame, trace: outcomes.clarification(
            frame, "", offered, self.signer, trace, prompt=prompt
        )
