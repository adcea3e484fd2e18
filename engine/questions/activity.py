"""How busy a subject was ("How busy was werkzeug in June?", "how active is requests lately?",
"was attrs active in May?"): its commits, the days they fell on, who made them and the lines
they changed, in the window, said first. A status question asking only these (the reading
gives it the kinds of activity, never a health word's) is answered with them.

Why: such a question was a status answer opening "The health of werkzeug is not judged: no
incident, deploy ... facts were found" with the figure asked only among the drivers, or not
said at all when the window had no commit (z40b W06, R05: a health headline over an activity
question). A health question ("how is X doing?", "how healthy is X?") asks no kind and keeps
that framing (engine/questions/status.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.domain.facts import Fact, FactKind
from engine.providers import Window
from engine.questions.base import when

# What an activity question asks: all of them are read, none is a health fact.
KINDS = frozenset({FactKind.COMMIT_ACTIVITY, FactKind.ACTIVE_CONTRIBUTORS, FactKind.CHURN})


def asked(kinds: Sequence[FactKind]) -> bool:
    """Whether a status question asks only how active its subject was (its commits or its
    people among them: a churn alone is its lines, said by their own driver)."""
    busy = {FactKind.COMMIT_ACTIVITY, FactKind.ACTIVE_CONTRIBUTORS}
    return bool(busy & set(kinds)) and set(kinds) <= KINDS


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def used(facts: Sequence[Fact], key: str) -> list[Fact]:
    """The subject's own facts of activity (not one person's part of it)."""
    return [f for f in facts if f.subject_key == key and f.kind in KINDS and f.actor_key is None]


def sentence(facts: Sequence[Fact], key: str, name: str, window: Window) -> str:
    """The subject's activity in the window, as its facts count it: commits, days, people
    (bots said), lines; no commit said so."""
    by = {f.kind: f.value for f in used(facts, key)}
    activity, people, churn = (by.get(k, {}) for k in (FactKind.COMMIT_ACTIVITY,
                               FactKind.ACTIVE_CONTRIBUTORS, FactKind.CHURN))  # fmt: skip
    commits = next((c for c in (_int(v.get("commits")) for v in (activity, churn, people))
                    if c is not None), None)  # fmt: skip
    if not commits:
        return f"No commit to {name} was recorded {when(window)}."
    said = f"{name} had {commits} commit(s)"
    days = _int(activity.get("days"))
    said += f" on {days} day(s)" if days is not None else ""
    authors, bots = _int(people.get("contributors")), _int(people.get("bots"))
    if authors is not None:
        said += f" by {authors} author(s)" + (f", {bots} of them bot(s)," if bots else "")
    added, removed = _int(churn.get("lines_added")), _int(churn.get("lines_removed"))
    if added is not None and removed is not None:
        said += f" changing +{added} -{removed} line(s)"
    return f"{said} {when(window)}."


def judgment(facts: Sequence[Fact], names: Mapping[str, str], window: Window) -> str:
    """Each named subject's activity, in the order named."""
    return " ".join(sentence(facts, key, name, window) for key, name in names.items())
