"""What a question asks, as data: the `Interpretation` reading hands on, and the length of
question read (MAX_QUESTION). Nothing after reading looks at the question's words again.

The question is read by engine/reading/interpreter.py (`interpret`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from engine.domain.contract import PEOPLE_LISTED, PEOPLE_SHOWN
from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.reading import (
    factphrases,
    meaning,
    runs,
)
from engine.reading.merges import Merges
from engine.reading.parts import Parts
from engine.reading.ranking import Ranking
from engine.reading.scopes import Scope
from engine.reading.time import reasons
from engine.reading.time.slots import Slot
from engine.reading.time.unions import Union
from engine.reading.vocabulary import Intent

MAX_QUESTION = 2_000


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What a question asks, as data. Every reference is a substring of the question.

    kind_hint: the subject kind a kind word names ("which services ..."): what the question
    is about, a hint only; it need not be the kind of any reference.
    time_expression: the matched text of the time expression, when there was one;
    as_of/start/end then hold its instants (a range is half-open [start, end); end None = now).
    time_not_understood: time-like phrases no rule reads ("since the outage"), verbatim.
    time_ignored: understood phrases after the first one, verbatim (only the first is used).
    """

    references: tuple[str, ...]
    fact_kinds: tuple[FactKind, ...]
    as_of: datetime | None
    start: datetime | None
    end: datetime | None
    time_expression: str | None
    intent: Intent
    kind_hint: SubjectKind | None
    notes: tuple[str, ...]
    time_not_understood: tuple[str, ...] = ()
    time_ignored: tuple[str, ...] = ()
    # The kind word right after a reference ("the httpx module"), per reference, or None.
    reference_kinds: tuple[SubjectKind | None, ...] = ()
    # References right before the word "code" ("the views code"): a package is meant over
    # same-named files, though "code" names no kind (engine.resolving.kinded.package_first).
    coded: tuple[str, ...] = ()
    # How a vague time phrase was read ("lately": the last 90 days), for the answer to state.
    time_note: str | None = None
    # Neighbouring references of which one may hold the other ("click's tests").
    scopes: tuple[Scope, ...] = ()
    # "When did X last commit?": the newest change is asked for (intent what_changed).
    asks_last: bool = False
    asks_first: bool = False  # "when did X first change?" (engine/questions/firstchange.py)
    # "when was X created / deleted, when did X become a package?": the event of a path's
    # life asked ("made", "removed", "became": engine/reading/origins.py, questions/lives.py)
    life: str | None = None
    # A "when" question that is not about the last change ("when was X released?").
    asks_when: bool = False
    # Runs of words no rule read, verbatim (engine.reading.references.unread): the answer names
    # them.
    unread: tuple[str, ...] = ()
    # "Which modules changed the most?": the ranking asked for (intent `ranked`,
    # engine.reading.ranking); its subjects are ranked by commits (engine.resolving.rankedsubjects).
    ranking: Ranking | None = None
    # A second question asked after the first, verbatim: not answered (engine.reading.clauses).
    unanswered: str | None = None
    # "excluding merges", "including merges", "what did X merge": engine.reading.merges.
    merges: Merges | None = None
    # "excluding bots", "no bots", "humans only", verbatim (engine.reading.bots): a ranking of
    # people leaves bots out; anything else asked so ends, said.
    bots: str | None = None
    # "bot commits", "how many bots", "which bots", verbatim (engine.reading.bots): the bots'
    # own part of a count or of who committed, each bot named; anything else asked so ends.
    bots_only: str | None = None
    # Words that change what is asked and are not computed ("first", "per month", "I"):
    # said, and the question ends unanswered when one would make it another
    # (engine.reading.meaning).
    unasked: tuple[meaning.Unasked, ...] = ()
    # "Is X changing more than last year?": the period compared with, [start, end); the time
    # read is then from its end to now (engine/questions/compared.py).
    compared: tuple[datetime, datetime] | None = None
    # "Which month had the most commits?": the window's months ranked by their commits
    # (engine/reading/rankedmonths.py, engine/questions/months.py).
    months_ranked: bool = False
    quarters_ranked: bool = False  # "which quarter of 2025 was busiest": the same, by quarter
    weeks_ranked: bool = False  # "busiest week in requests this yr": the same, by week (UTC)
    # "commits by month in 2025", "weekly commits": the calendar unit ("month", "week") each
    # count is of, listed in calendar order (engine/reading/periodcounts.py,
    # engine/questions/periods.py).
    per_period: str | None = None
    # References read only because they follow "did" or "by" beside other references ("how
    # many commits did davidism make to core.py?"): who acted. One naming nobody ends the
    # question (engine.resolving.subjects): everyone's count would answer another question.
    actors: tuple[str, ...] = ()
    # References a follow-up carried from the actor's previous question ("and in 2024?" after
    # "how many commits to converters.py in 2025?"): only these may the actor's recent
    # references settle; a name the question writes itself never is (engine.resolving.kinded).
    carried: tuple[str, ...] = ()
    # Those of them right after "did" or "does" ("did davidism make"): surely who acted. The
    # others ("by hand", "have landed") may be plain words, so naming nobody ends nothing.
    doers: tuple[str, ...] = ()
    # References read as who acted ("how many commits did dependabot make", "dependabot's
    # prs"): a person of the name is meant over a file (engine.reading.acting).
    acting: tuple[str, ...] = ()
    # A slash date two of whose readings may be meant, with them ("07/01/2026"): asked.
    which_day: tuple[tuple[str, tuple[tuple[datetime, datetime], ...]], ...] = ()
    # A singular kind word standing for a subject beside other references ("the repo" of
    # "who changed the repo and the docs?"), with its kind: engine.resolving.kinded.alone reads it.
    kinds_alone: tuple[tuple[str, SubjectKind | None], ...] = ()
    # "both" among the words ("who changed both X and Y?": engine/questions/both.py).
    asks_both: bool = False
    # What a "who" answer ranks people by: "lines" when changed lines are asked for.
    ranked_by: str = "commits"
    # "the top contributors", "who was most active", "the main authors": a "who" answer lists
    # the few who led; without such a word, everyone who committed (engine.questions.who).
    leaders: bool = False
    # "the top 10 contributors": how many people a "who" answer lists when the question
    # says more than the few who led (engine.reading.meaning.top; 0: not said)
    leaders_asked: int = 0
    # "ownership breakdown of X", "who owns X, as shares": each person's part of the window's
    # commits and lines, everyone listed (engine.reading.shares, engine.questions.who).
    shares: bool = False
    # "besides Y", "apart from Y": the word, and the folded words after it (one person's part
    # left out, or said not computed: engine.resolving.together).
    excluding: tuple[str, str] | None = None
    # The words naming fact kinds, as written, with their kinds ("open PRs"): quoted back
    # when nothing here records them (engine/answering/recordgaps.py).
    fact_words: factphrases.FactWords = ()
    # Subjects asked about over times of their own ("core.py in 2025 and parser.py in 2024"):
    # the note ending the question (engine/reading/time/owntimes.py), else ().
    own_times: tuple[str, ...] = ()
    # Each reference inside a longer run of content words, with the run's other words
    # (engine.reading.runs; engine.resolving.unmatchedwords says them).
    beside: tuple[runs.Beside, ...] = ()
    # Where each run of `unread` stands (engine.reading.runs; engine.resolving.firstnames).
    placed: tuple[runs.Placed, ...] = ()
    # "Who changed X more, A or B?": choices compared (engine.resolving.together).
    compares: bool = False
    # The question around its time phrase and its slash dates, to ask it again with other
    # words there (engine/reading/time/slots.py; engine.resolving.questiontime).
    slots: tuple[Slot, ...] = ()
    # Why each phrase of `time_not_understood` was not read (engine/reading/time/reasons.py).
    time_reasons: tuple[tuple[str, reasons.Unread], ...] = ()
    # Phrases of `time_ignored` that read as the very time used ("in 2025" twice).
    time_repeated: tuple[str, ...] = ()
    # A later time phrase naming another time, that no other rule ends the question on (a
    # comparison, subjects with times of their own): the note ending it
    # (engine.reading.uncompared.two_times; engine.resolving.questiontime.unread).
    two_times: tuple[str, ...] = ()
    # "his", "her" (engine.reading.pronouns): the one person named, else the question ends
    # (engine.resolving.pronouns).
    pronouns: tuple[str, ...] = ()
    # "by how many lines did X grow?", "net lines", "added minus removed": lines added less
    # those removed (engine.reading.netlines; engine/questions/count.py).
    net_lines: bool = False
    # The parts of a question asking several things of one subject and time ("how many ...,
    # and who made them?", "first and last commits"), each a question of its own
    # (engine/reading/parts.py; engine/investigation/parts.py answers them in one result).
    parts: Parts | None = None
    # Periods named together with a gap ("in March and July 2026"): the windows, and the
    # question asked once per window (engine/reading/time/unions.py); the phrase is also said
    # not understood, which stands when a window is not answered
    # (engine/investigation/unions.py adds up the windows' answers).
    union: Union | None = None

    def people_listed(self) -> int:
        """How many people a "who" answer lists: the number "the top 10" says, the few who
        led (PEOPLE_SHOWN) when asked for or when the facts rank only those
        (engine.reading.meaning.few_only: by lines, bots left out or asked), else everyone up to
        PEOPLE_LISTED (engine/questions/who.py, engine/answering/people.py)."""
        if self.leaders_asked:
            return self.leaders_asked
        if self.leaders or meaning.few_only(self.ranked_by, self.bots, self.bots_only):
            return PEOPLE_SHOWN
        return PEOPLE_LISTED

    def slot(self, phrase: str) -> Slot:
        """Where `phrase` stands in the question (the question unchanged, when nowhere)."""
        return next((s for s in self.slots if s.phrase == phrase), Slot(phrase, "", "", False))

    def placed_of(self, run: str) -> runs.Placed | None:
        """Where a run of `unread` stands."""
        return next((p for p in self.placed if p.run == run), None)

    def beside_of(self, reference: str) -> runs.Beside | None:
        """The run of content words holding `reference`, when longer than it."""
        return next((b for b in self.beside if b.reference == reference), None)
