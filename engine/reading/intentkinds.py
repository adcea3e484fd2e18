"""The fact kinds a question's intent reads once the intent is known: its defaults, "how
active was X?" read of a person too, "did anyone commit to X?" its people; which intents count
over a window; and the small tests engine.reading.interpreter asks of the words on the way
(net lines asked, "is anyone still ...?", the kind of subject hinted). Kept apart from the
interpreter so it reads as the order of the passes, not the kinds' details.
"""

from __future__ import annotations

from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.reading import counts
from engine.reading import references as r
from engine.reading import vocabulary as v
from engine.reading.vocabulary import KIND_WORDS, Intent

# Intents a question asking for net lines is read as a count of them from ("what was the
# net change in lines", "how did X grow"); a ranking or "who" keeps its own.
NET_ANSWERED = frozenset({Intent.COUNT, Intent.WHAT_CHANGED, Intent.STATUS, Intent.TREND})


def lines_asked(tokens: list[r.Token]) -> bool:
    return any(t.norm in v.LINE_WORDS for t in tokens)


# Intents that count over a window.
COUNTING = frozenset({Intent.COUNT, Intent.WHO, Intent.WHAT_CHANGED, Intent.RANKED})


def anyone(words: list[str], intent: Intent) -> bool:
    """ "Is anyone still maintaining X?", "does anybody still touch X?": whether X is still
    changed (asked of anyone), not who changed it."""
    return intent == Intent.WHO and words[:1] in _YES_NO_OPENING and "who" not in words


# Words opening a question answered yes or no ("does anyone still touch X?").
_YES_NO_OPENING = [[w] for w in ("is", "are", "does", "do", "has", "have", "was", "were")]


def kind_hint(tokens: list[r.Token]) -> SubjectKind | None:
    return next((KIND_WORDS[t.norm] for t in tokens if t.free and t.norm in KIND_WORDS), None)


def kinds_of(
    intent: Intent, kinds: list[FactKind], words: list[str], hint: SubjectKind | None
) -> tuple[list[FactKind], bool]:
    """The fact kinds `intent` reads from the kinds asked (`kinds`, changed in place as the
    interpreter did), and whether the question counts over a window. "what did X do on
    November 19?" (a status of changes) is that day's doing too: it read the 30 days
    before the day, unsaid."""
    changes = all(k in v.CHANGE_KINDS for k in kinds)
    counting = intent in COUNTING or (intent == Intent.STATUS and changes)
    if intent == Intent.WHAT_CHANGED and changes:
        kinds = []  # the changes themselves (DEFAULT_KINDS), not a count of commits
    if intent == Intent.COUNT:
        kinds = counts.counted(words, kinds, hint)
    if not kinds:
        kinds = list(v.DEFAULT_KINDS.get(intent, ()))
    elif intent == Intent.STATUS and kinds == [FactKind.ACTIVE_CONTRIBUTORS]:
        kinds += [FactKind.COMMIT_ACTIVITY, FactKind.CHURN]  # "how active was X?": a person too
    elif intent == Intent.WHO and FactKind.ACTIVE_CONTRIBUTORS not in kinds:
        kinds.append(FactKind.ACTIVE_CONTRIBUTORS)  # "did anyone commit to X?": the people
    return kinds, counting
