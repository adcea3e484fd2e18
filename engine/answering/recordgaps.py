"""What a question asks about that nothing here records: said plainly, never answered with
another kind of count.

"How many releases were there in 2025?" asks for deploys; an organisation that holds only
a git history has no deploy, pull request or incident records at all, and the answer said
"0 commit(s)", a count of something else. Here, after the facts are read, each fact kind the
question asked for (by its own words) that no fact answers is explained:

* the organisation holds no record of any kind it is computed from (GraphStore's
  `record_kinds`): "no records of "releases" exist for this organisation";
* its records are kept for other kinds of subject than the ones asked about (pull requests
  for repositories and services, not a module): the answer says for which.

Otherwise (records of the kind exist, none in the window) the providers' own "no records are
retained for this window" stands. When no fact answers any kind asked, the judgment says it
too (`Unrecorded.judgment`): a status sentence would read as an answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.answering.people import grouping_notes, joined_notes, ranked_people
from engine.answering.planning import Decision, PlanEntry
from engine.domain.facts import Fact, FactKind
from engine.domain.models import SourceRecordKind, StoredSubject, SubjectKind
from engine.ports import OrgGraph
from engine.providers import Provider
from engine.reading.factphrases import FactWords
from engine.reading.interpretation import Interpretation
from engine.reading.merges import merge_notes
from engine.reading.netlines import MOVES

# What a record kind is called in a sentence: "deploy records", and what the organisation
# holds ("only commits and daily activity rollups").
RECORD = {
    SourceRecordKind.PULL_REQUEST: "pull request",
    SourceRecordKind.INCIDENT: "incident",
    SourceRecordKind.WORK_ITEM: "work item",
    SourceRecordKind.DEPLOY: "deploy",
    SourceRecordKind.METRIC_ROLLUP: "daily activity rollup",
    SourceRecordKind.COMMIT: "commit",
}
RECORDS = {
    SourceRecordKind.PULL_REQUEST: "pull requests",
    SourceRecordKind.INCIDENT: "incidents",
    SourceRecordKind.WORK_ITEM: "work items",
    SourceRecordKind.DEPLOY: "deploys",
    SourceRecordKind.METRIC_ROLLUP: "daily activity rollups",
    SourceRecordKind.COMMIT: "commits",
}


# What a history of commits answers in place of a kind it does not record, asked in words
# of its own: "what was the throughput of werkzeug last month?" said only that pull requests
# are not recorded (z39a werkzeug A4 asked "commit throughput", answered).
INSTEAD = {
    FactKind.THROUGHPUT: 'Ask for "the commit throughput" to count the commits of the window '
    "instead.",
}


@dataclass(frozen=True)
class Unrecorded:
    """notes: the limitations to state; judgment: the answer's judgment when nothing asked
    is answered (None: the answer stands, with the notes)."""

    notes: tuple[str, ...]
    judgment: str | None


def asked_words(words: FactWords, kinds: Sequence[FactKind]) -> list[str]:
    """The question's own words asking for `kinds` ("releases", "PRs"), as written (read
    with the question: engine.reading.factphrases.fact_words)."""
    return list(dict.fromkeys(text for text, found in words if set(found) & set(kinds)))


async def unrecorded(
    graph: OrgGraph,
    words: FactWords,
    asked: Sequence[FactKind],
    providers: Sequence[Provider],
    entries: Sequence[PlanEntry],
    subjects: Sequence[StoredSubject],
    facts: Sequence[Fact],
) -> Unrecorded:
    answered = {f.kind for f in facts}
    worded = [k for k in dict.fromkeys(asked) if asked_words(words, [k])]  # no defaults
    sources = {k: [p for p in providers if k in p.kinds and p.record_kinds] for k in worded}
    open_ = [k for k, found in sources.items() if found and k not in answered]
    if _own_activity(subjects, answered):  # "how active was Kevin?": his commits and lines
        open_ = [k for k in open_ if k is not FactKind.ACTIVE_CONTRIBUTORS]
    if not open_:
        return Unrecorded((), None)
    held = await graph.record_kinds()
    absent = [
        k for k in open_ if not {r for p in sources[k] for r in p.record_kinds} & held
    ]
    pruned = {e.provider for e in entries if e.decision is Decision.PRUNED}
    elsewhere = [
        k for k in open_ if k not in absent and all(p.name in pruned for p in sources[k])
    ]
    notes: list[str] = []
    if absent:
        notes.append(_absent(words, absent, sources, held))
    for kind in elsewhere:  # kinds asked by one word ("incidents": three) said once
        notes.append(_elsewhere(words, kind, sources[kind], subjects))
    notes = list(dict.fromkeys(notes))
    # Nothing asked is answered, and each kind asked is explained: the judgment says so.
    whole = not answered & set(asked) and set(absent + elsewhere) == set(open_)
    judgment = _judgment(words, absent, elsewhere, sources, subjects, held) if whole else None
    return Unrecorded(tuple(notes), judgment)


def _own_activity(subjects: Sequence[StoredSubject], answered: set[FactKind]) -> bool:
    """ "How active was Kevin Deldycke?": a person's activity is his own commits and lines
    (engine.reading.interpreter reads "active" of a status so), not contributor records;
    it said such records are kept for modules only and "nothing of them is counted", beside
    the person's counted commits (z32a c03)."""
    people = bool(subjects) and all(s.kind is SubjectKind.PERSON for s in subjects)
    return people and bool(answered & {FactKind.COMMIT_ACTIVITY, FactKind.CHURN})


def _asked(words: FactWords, kinds: Sequence[FactKind]) -> str:
    """The words asking for `kinds` ("releases" or "PRs") and their verb."""
    asking = asked_words(words, kinds)
    verb = "is" if len(asking) == 1 else "are"
    quoted = " or ".join(f'"{w}"' for w in asking)
    return f"{quoted} {verb}"


def _records(kinds: Sequence[FactKind], sources: dict[FactKind, list[Provider]]) -> str:
    """What the kinds are computed from: "deploy records"."""
    needed = sorted({r for k in kinds for p in sources[k] for r in p.record_kinds})
    return f"{' or '.join(RECORD[r] for r in needed)} records"


def _holds(held: frozenset[SourceRecordKind]) -> str:
    """What this organisation holds, plainly: a git history's commits say so."""
    if not held:
        return "this organisation holds no records"
    holds = f"this organisation holds only {' and '.join(RECORDS[r] for r in sorted(held))}"
    git = {SourceRecordKind.COMMIT, SourceRecordKind.METRIC_ROLLUP}
    return holds + (" (a git history: no releases, tags or pull requests)" if held <= git else "")


def _absent(
    words: FactWords,
    kinds: Sequence[FactKind],
    sources: dict[FactKind, list[Provider]],
    held: frozenset[SourceRecordKind],
) -> str:
    holds = f"only {' and '.join(RECORDS[r] for r in sorted(held))}" if held else "no records"
    return (
        f"{_asked(words, kinds)} answered from {_records(kinds, sources)}, and none exist "
        f"for this organisation (it holds {holds}): nothing is counted or listed for it, and "
        "no other count stands in."
    )


def _elsewhere(
    words: FactWords, kind: FactKind, found: Sequence[Provider], subjects: Sequence[StoredSubject]
) -> str:
    kinds = sorted({s for p in found for s in p.subject_kinds})
    asked = sorted({s.kind for s in subjects})
    named = ", ".join(s.name for s in subjects[:3])
    more = f" and {len(subjects) - 3} more" if len(subjects) > 3 else ""
    return (
        f"{_asked(words, [kind])} answered from {_records([kind], {kind: list(found)})}, "
        f"kept for {_plural(kinds)} only, not for {_plural(asked)} ({named}{more}): nothing "
        "of them is counted or listed here."
    )


def _plural(kinds: Sequence[SubjectKind]) -> str:
    return " and ".join("repositories" if k is SubjectKind.REPOSITORY else f"{k.value}s"
                        for k in kinds)  # fmt: skip


def _judgment(
    words: FactWords,
    absent: Sequence[FactKind],
    elsewhere: Sequence[FactKind],
    sources: dict[FactKind, list[Provider]],
    subjects: Sequence[StoredSubject],
    held: frozenset[SourceRecordKind],
) -> str:
    """What the history holds, said first ("releases" read as deploys, then "none here" read
    as if releases were deploys: independent checks found it confusing)."""
    if absent:
        quoted = " or ".join(f'"{w}"' for w in asked_words(words, absent))
        forward = [INSTEAD[k] for k in absent if k in INSTEAD and SourceRecordKind.COMMIT in held]
        return (
            f"Nothing here records {quoted}: {_holds(held)}, and {quoted} would be counted "
            f"from {_records(absent, sources)}, so this question cannot be answered from its "
            "data; no other count stands in." + "".join(f" {f}" for f in forward)
        )
    kept = sorted({s for k in elsewhere for p in sources[k] for s in p.subject_kinds})
    return (
        f"{_asked(words, elsewhere)} answered from {_records(elsewhere, sources)}, kept for "
        f"{_plural(kept)} only, so this question cannot be answered for the "
        f"{_plural(sorted({s.kind for s in subjects}))} asked about."
    )


async def unasked(
    graph: OrgGraph,
    understood: Interpretation,
    providers: Sequence[Provider],
    entries: Sequence[PlanEntry],
    subjects: Sequence[StoredSubject],
    facts: Sequence[Fact],
) -> tuple[tuple[str, ...], str | None]:
    """What the answer says of what is asked and not recorded: kinds of records (here) and
    merge commits (engine.reading.merges): the limitations, and the judgment when nothing asked can
    be answered (None: the answer stands); and how people are counted beside a count of them
    (engine/answering/people.py)."""
    missing = await unrecorded(
        graph, understood.fact_words, understood.fact_kinds, providers, entries, subjects, facts
    )
    said, merged = await merge_notes(graph, understood.intent, understood.merges, facts)
    grouped = grouping_notes(understood.intent, understood.fact_kinds, facts)
    listed = await ranked_people(graph, understood, facts)
    grouped += joined_notes([*subjects, *listed], facts)
    modules = any(s.kind is SubjectKind.MODULE for s in subjects)
    moved = (MOVES,) if understood.net_lines and modules else ()
    return missing.notes + said + grouped + moved, missing.judgment or merged
