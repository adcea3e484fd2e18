"""Two named periods compared ("q4 '25 vs q1 '26 commits", "was the changelog busier in q1 or
q2", "was werkzeug more active in the second half of 2025 than the first half?"): answered
over the later one, with the earlier one as the period compared with (Window.before;
engine/questions/compared.py gives both periods' commits and lines, and their rates per day
when their spans differ). It was refused ("a comparison is computed only for how much
something changes against the time since ...": independent checks found these the largest
family of questions not understood).

Only a question asking how much something changes compares so: a count of commits or lines,
how active or busy something was; or one asking how many people changed it ("attrs
contributors 2022 vs 2023", `measure`), with each period's people when "who" is asked ("who
touched X in q2 vs q3"). A list of changes or a ranking of people over two periods stays
ended (engine/reading/uncompared.py names both periods and the questions to ask instead), as
does a comparison no answer computes: a period not begun, one wider than one answer covers
(MAX_RANGE), or two periods overlapping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import permutations

from engine.domain import timecontext as tc
from engine.domain.facts import FactKind
from engine.domain.text import normalise
from engine.reading import references as r
from engine.reading.meaning import Unasked
from engine.reading.periodpairs import Named
from engine.reading.time import phrases as tp
from engine.reading.vocabulary import CHANGE_KINDS, PLURAL_KINDS, Intent

# What a comparison of two periods reads: commits and changed lines of each.
KINDS = (FactKind.COMMIT_ACTIVITY, FactKind.CHURN)
# Counts answered by the comparison's figures ("how many commits ... vs ..."): commits, lines.
_COUNTED = frozenset(KINDS)


# The words comparing, read by the comparison (never said not understood, nor asked by a
# word rule: "more active ... than" compared subjects).
WORDS = frozenset(
    {"more", "less", "fewer", "than", "or", "vs", "versus", "compared", "compare", "against"}
    | {"busier", "quieter", "active", "activity"}
    # the words of the rows of engine/reading/time/versus.py, and "yoy" (periodpairs.OVER)
    | {"compares", "comparing", "comparison", "relative", "opposed", "yoy", "qoq"}
    | {"stack", "stacks", "stacked"}  # "how did March stack up against April?"
)


# "who contributed in both 2024 and 2025?": "both" is the two periods' (no subjects').
BOTH_WORDS = frozenset({"both", "and"})


def read(tokens: list[r.Token], named: Named, words: frozenset[str] = WORDS) -> None:
    """Marks the comparison's words read (or `words`: BOTH_WORDS), and the second period's
    when no time rule read it alone ("than the first half")."""
    start, end = named.span or (0, 0)
    for token in tokens:
        inside = start <= token.start and token.end <= end
        token.free = token.free and token.norm not in words and not inside


def its_words(text: str, a: int, b: int, named: Named) -> bool:
    """Whether the words at [a, b) are the comparison's: a comparing word, or within the second
    period's words ("the year before", "the same month last year": "before" and "same" were
    left a subject not known, and the comparison ended on them)."""
    start, end = named.span or (0, 0)
    return normalise(text[a:b]) in WORDS or (start <= a and b <= end)


def outside(text: str, phrases: list[str], named: Named) -> list[str]:
    """The phrases not within the second period's words: "quarter last year" of "compare
    with the same quarter last year" is the period compared with, read (it was said not
    understood as a time, and the question ended, z39a A2)."""
    start, end = named.span or (0, 0)
    return [p for p in phrases if not 0 <= text.find(p, start) <= end - len(p)]


def two_choices(text: str, references: tuple[str, ...], named: Named) -> Unasked | None:
    """Why a question offering two subjects and two periods to choose between is not
    answered ("which was busier in jan or feb, click or werkzeug?": which subject in each
    month, or which month for the two?): it was answered as the months compared, the
    subjects' choice unsaid. Both readings are named, each as a question to ask."""
    for a, b in permutations(references, 2):
        if re.search(rf"{re.escape(a)}\s*,?\s*(?:or|vs\.?|versus)\s+{re.escape(b)}", text, re.I):
            one, two = named.phrases
            note = (
                f'"{a} or {b}" and "{one}" or "{two}" are two choices in one question: which '
                f'subject was busier, or which period? Ask "was {a} or {b} busier {one}?" (the '
                f'subjects compared in one period) or "was {a} busier {one} or {two}?" (the '
                "periods compared for one subject)."
            )
            return Unasked(f"{a} or {b}", note)
    return None


@dataclass(frozen=True, slots=True)
class Compared:
    """The window answered (the later period, as a time read), the earlier period compared
    with, and the refusal when no answer computes it (then the others are None)."""

    time: tp.TimeMatch | None = None
    before: tuple[datetime, datetime] | None = None
    refused: Unasked | None = None


# People named as what is compared ("compare the authors in 2025 vs 2024"): the people of
# each period, which the comparison's figures (commits, lines) do not give; it was answered
# with commits and lines, "authors" unsaid.
_PEOPLE = frozenset(
    {"authors", "author", "contributors", "contributor", "committers", "committer", "people"}
    | {"developers", "developer", "devs", "engineers", "maintainers", "persons"}
)


def asks_change(intent: Intent, kinds: list[FactKind], words: list[str] | None = None) -> bool:
    """Whether the question asks how much something changes, which the churn fact's two
    periods answer: how active or busy (status, trend), how much more it changed ("was
    sessions.py changed more in 2017 or in 2018?": it ended on "two times named"), or a
    count of commits or lines; not the people of each (`words` naming them), nor which
    subjects changed more in one than the other (a ranking no answer computes)."""
    words = words or []
    if words[:1] in (["which"], ["what"]) and _SUBJECTS.intersection(words[1:3]):
        return False  # "which files changed more in 2017 than 2018?": subjects, not periods
    if intent is Intent.WHAT_CHANGED and _MORE.intersection(words):  # its changes, counted
        return not _PEOPLE.intersection(words)
    if intent is Intent.WHAT_CHANGED and (
        not _NAMING.intersection(words[:1]) or words[:2] in _WHAT_CHANGED
    ):
        # "termui changes prev month vs jul", "changes to _make.py in june vs july": how many
        # in each (z39b B8 ended, "ask about each period in turn"); "what changed in X in jul
        # vs aug" likewise, the changes of each compared (time42: it ended, though the checker
        # read it as a comparison); "list the changes ... vs ..." asks each period's list,
        # which no answer gives two of.
        return not _PEOPLE.intersection(words)
    if intent is Intent.WHICH and _which_period(words):
        return set(kinds) <= CHANGE_KINDS  # "which year had more commits, 2024 or 2025?"
    if intent in {Intent.STATUS, Intent.TREND}:
        return set(kinds) <= CHANGE_KINDS and not _PEOPLE.intersection(words)
    return intent == Intent.COUNT and bool(kinds) and set(kinds) <= _COUNTED


def measure(
    intent: Intent, kinds: list[FactKind], words: list[str]
) -> tuple[Intent, list[FactKind]] | None:
    """What two periods are compared by, as the intent and fact kinds read: commits and lines
    (how much something changes), the number of people who changed it ("attrs contributors
    2022 vs 2023" ended, "ask about each period in turn"), or None: no comparison computes
    what is asked (the people by name, a list, a ranking), and the question ends."""
    who = _WHO.intersection(words)
    if asks_change(intent, kinds, words):
        return Intent.TREND, [*KINDS, *([FactKind.ACTIVE_CONTRIBUTORS] if who else [])]
    if asks_headcount(intent, kinds, words):
        return Intent.COUNT, [FactKind.ACTIVE_CONTRIBUTORS]
    if intent is Intent.WHO and who:  # "who touched termui.py in q2 vs q3 2026"
        return Intent.TREND, [*KINDS, FactKind.ACTIVE_CONTRIBUTORS]
    return None


# "who" asked of two periods compared ("docs changes in march vs may - how many commits and
# who", "who touched X in q2 vs q3"): each period's people with their commits, beside the
# commits and lines (engine/questions/compared.py). The "and who" was dropped unsaid, and
# "who ... vs ..." ended, "ask about each period in turn" (z42 a-click-08, b-click-07).
_WHO = frozenset({"who", "whom"})


def asks_headcount(intent: Intent, kinds: list[FactKind], words: list[str]) -> bool:
    """Whether the question asks how many people changed something ("how many authors in q1
    vs q2", "attrs contributors 2022 vs 2023", "did the number of contributors grow from
    2024 to 2025?"), not who they were ("who changed X in q2 vs q1" names them)."""
    if words[:1] in (["which"], ["what"]) and _SUBJECTS.intersection(words[1:3]):
        return False
    if _NAMING.intersection(words[:1]) or "who" in words:  # "list the contributors of ..."
        return False
    if intent is Intent.COUNT:
        return kinds == [FactKind.ACTIVE_CONTRIBUTORS]
    return intent in _PEOPLE_INTENTS and bool(_PEOPLE.intersection(words))


# Words opening a question for people by name, and the intents a question naming people
# compared over two periods is read with ("attrs contributors 2022 vs 2023": who).
_NAMING = frozenset({"who", "whom", "whose", "which", "what", "list", "name", "show"})
_PEOPLE_INTENTS = frozenset({Intent.WHO, Intent.STATUS, Intent.TREND})


# "What changed in X in jul vs aug": how X changed in each, compared (not a list of each).
_WHAT_CHANGED = (["what", "changed"], ["what", "has"], ["what", "have"], ["what's", "changed"])
# Subjects asked for ("which files changed more in 2017 than 2018?"): ranked, not compared.
_SUBJECTS = PLURAL_KINDS | {"files", "paths", "folders", "directories", "dirs", "ones", "areas"}
# The periods a "which" question may ask between ("which year had more commits, 2024 or 2025?").
_PERIODS = frozenset({"year", "month", "quarter", "week", "half", "period", "season"})
# The words asking how much more a list of changes holds ("changed more", "modified less").
_MORE = frozenset({"more", "less", "fewer"})
# The comparatives a "which" asks between two periods with ("which was busier, February 2026
# or April 2026?": refused, "ask about each period in turn", though "jan vs feb" was answered).
_BUSIER = _MORE | {"busier", "quieter", "livelier", "slower"}
# "which was busier, ...": the "which" is one of the two periods, no word naming a period.
_WHICH_WAS = frozenset({"was", "is", "were", "had", "saw"})


# A later part asking by how much the two periods differ ("..., and by how many commits?"):
# the comparison's answer says it, in commits and lines (engine/questions/compared.py).
_BY_HOW_MANY = re.compile(
    r"^\W*(?:and\s+)?(?:by\s+)?how\s+(?:many|much)(?:\s+(?:more|fewer|less))?"
    r"(?:\s+(?:commits?|lines?|changes?))?(?:\s+(?:more|fewer|less))?\W*$",
    re.IGNORECASE,
)


def rest_asked(rest: str | None) -> str | None:
    """The question's later part left to answer once two periods are compared: none when it
    asks only by how much they differ."""
    return None if rest is not None and _BY_HOW_MANY.match(rest) else rest


def _which_period(words: list[str]) -> bool:
    """Whether a "which" question asks which of the two periods was busier: a period word
    ("which month was busier", "which year had more commits") or "which was", and a
    comparative."""
    named = bool(_PERIODS.intersection(words)) or words[1:2] in ([w] for w in _WHICH_WAS)
    return named and bool(_BUSIER.intersection(words))


def asks_people(intent: Intent, kinds: list[FactKind]) -> bool:
    """Whether the question asks for people ("who contributed in both 2024 and 2025?", "how
    many people committed in both ...?"): the people of each period, intersected."""
    people = kinds == [FactKind.ACTIVE_CONTRIBUTORS]
    return intent == Intent.WHO or (intent == Intent.COUNT and people)


def compared(named: Named, time: tp.TimeMatch, now: datetime) -> Compared:
    """The later of the two periods as the time answered, the earlier as the one compared
    with; a period under way is counted up to now, said."""
    (one, two), windows = named.phrases, named.windows
    said = [f'"{p}" ({tc.iso(s)} to {tc.iso(e) if e else "now"})' for p, (s, e) in zip(
        named.phrases, windows, strict=True)]  # fmt: skip
    spans = [(s, min(e, now) if e else now) for s, e in windows]
    why = _uncomputed(spans, now)
    if why is not None:
        note = (
            f"{said[0]} and {said[1]} are two periods compared, and {why}: not answered for "
            f'either alone. Ask about each period in turn ("{one}", then "{two}").'
        )
        return Compared(refused=Unasked(two, note))
    later, earlier = sorted(range(2), key=lambda i: spans[i][0], reverse=True)
    named_end = windows[later][1]
    cut = " (up to now)" if named_end is None or named_end > now else ""
    note = f"{said[later]}{cut} is compared with {said[earlier]}, whose figures are given beside"
    start, end = spans[later]
    answered = replace(time, as_of=None, start_at=start, end_at=end, note=note, period=None)
    return Compared(time=answered, before=spans[earlier])


def _uncomputed(spans: list[tuple[datetime, datetime]], now: datetime) -> str | None:
    """Why no answer computes the comparison, or None."""
    if any(start >= now for start, _ in spans):
        return "one of them has not begun: nothing is counted in the future"
    if any(end - start > tc.MAX_RANGE for start, end in spans):
        return f"one of them is wider than the {tc.MAX_RANGE.days} days one answer may cover"
    (_, first_end), (second_start, _) = sorted(spans)
    if second_start < first_end:
        return "they overlap, so neither is counted apart from the other"
    return None
