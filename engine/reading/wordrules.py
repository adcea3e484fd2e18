"""Word rules as rows: the words that change what a question asks and that no rule here
computes, each row its words (a condition over the word in its place), its note, and whether
the question ends on it (answering without it would answer another question) or the note is
said beside the answer; the first row that holds says the word (engine.reading.meaning runs
them over the free words). Stop words are skipped when names are read, but some of them turn
the question into another one: "who made the FIRST commit to X?" is not "who changed X
most?", "how many NEW contributors?" is not "how many contributors?", "commits PER MONTH" is
not one total, "what did I change?" is not the whole organisation's changes.
something no rule here computes (a least-first ranking, a day of the week), and verbs read as
another one. engine.reading.meaning says them beside the answer or ends the question with them.

Least-first rankings: "who made the fewest commits to core.py?", "which module had the
fewest commits?", "who changed X the least?". Not computed: a subject's contributor facts
hold its busiest people only (the quietest are not among them), and a ranking of modules
counts those that changed (the ones with no commit at all, the fewest, are not listed). The
most-first answer the question got before is the opposite of what it asks, so the question
ends, naming the word. "At least" is a threshold, not computed either.

Days of the week: "how many commits did X make on weekends?". Not computed: commits are
counted over whole windows, never by the day of the week they fall on (by author time in UTC
or in the author's own offset: neither is kept apart), so the answer was every day's count
with "weekends" said not understood beside it. The question ends, naming the word. "The
weekend" alone is a time phrase not understood (engine.reading.time.phrases).

Verbs read as another one, and the verb of the question: engine/reading/verbrows.py;
breakdowns by period, periods ranked or counted, files counted: engine/reading/breakdowns.py;
the word in its place a row reads: engine/reading/wordrow.py.
"""

from __future__ import annotations

from engine.reading.asked import own_first
from engine.reading.breakdowns import (
    COUNTED_PERIODS_NOTE,
    FILES_COUNTED_NOTE,
    PER,
    PER_NOTE,
    PERIODS_NOTE,
    files_counted,
    files_extent,
    many_extent,
    per_period,
    periods_counted,
    periods_extent,
    ranked_periods,
)
from engine.reading.comparerows import BETWEEN_NOTE, between_extent, between_subjects, compared
from engine.reading.ordinary import MOVES_NOTE, moves, moves_extent
from engine.reading.sizerows import (
    BIG_NOTE,
    CO_CHANGERS_NOTE,
    HELD_NOTE,
    PEOPLE_SIZES_NOTE,
    SIZE_NOTE,
    WHOLE_PEOPLE_NOTE,
    big_changes,
    co_changers,
    held_count,
    held_extent,
    people_sized,
    subject_size,
    whole_people,
    whole_people_extent,
)
from engine.reading.time.calendar import TIME_WORDS
from engine.reading.verbrows import (
    CAME,
    CREATION,
    CREATION_NOTE,
    LAND_NOTE,
    LINES_EACH_NOTE,
    PUSH_NOTE,
    PUSHES,
    ROLE_NOTE,
    UNRECORDED_ROLES,
    in_verb_slot,
    lines_each,
    misspelt_verb,
)
from engine.reading.verbs import UNREAD_VERB, misspelt
from engine.reading.vocabulary import (
    CHANGE_VERBS,
    LANDS,
    NEWCOMERS,
    Intent,
)
from engine.reading.wordrow import At, WordRow

# Intents that answer over one window with counts or lists: the ones a changed meaning breaks.
_COUNTING = frozenset({Intent.WHO, Intent.COUNT, Intent.WHAT_CHANGED, Intent.WHICH})
_ASKING_PEOPLE = frozenset({Intent.WHO, Intent.WHICH})  # "who/which ... gone quiet?"
_FIRST = frozenset({"first", "earliest", "oldest"})
_NEGATION = frozenset({"not", "never", "except"})
_JOINED = frozenset({"newcomers", "joined", "joiners"})
SELF = frozenset({"i", "my", "mine", "myself"})
_OBJECT_ME = frozenset({"tell", "show", "give", "let", "help", "get", "find"})  # "show me"
_SIZES = frozenset({"biggest", "largest", "smallest", "heaviest"})
_LISTED = frozenset({"file", "files", "module", "modules", "package", "packages"})
# "Which areas did Tin work on?", "which parts of the code did he touch?": the same list,
# asked in other words; they were answered with the person's line count, the areas unsaid
# (z40a A-T04). "Which areas does X own?" is that list too: who owns a module is read of the
# module ("who owns X?"); for a person it said "no commit was recorded", false (A-C02).
_LISTED_AREAS = frozenset(
    {"area", "areas", "part", "parts", "component", "components", "subsystem", "subsystems"}
    | {"folder", "folders", "directory", "directories"}
)
_TOUCHED = CHANGE_VERBS | {"deleted", "removed", "added", "renamed", "created", "moved"}
_OWNED = frozenset({"own", "owns", "owned"})
_DEPENDS = frozenset(
    {"depend", "depends", "depending", "dependency", "dependencies", "dependent", "dependents"}
)
LEAST = frozenset({"fewest", "least", "lowest", "quietest"})
LEAST_NOTE = (
    "a least-first ranking (the fewest commits, changes or lines) is not computed: answers "
    "rank the most active first, and subjects or people with no change in the window are "
    "not listed, so the answer would be the opposite of what is asked. Ask for one subject's "
    "or person's count instead."
)
# "who made at least 5 commits to core.py?" ranked everyone ("least 5" said not understood).
THRESHOLD = (
    'with "at" before it, a threshold ("at least 5 commits") is not computed: the answer would '
    "list or count everyone."
)
DAYS = frozenset({"weekends", "weekdays", "weekday"})
WEEKDAY_NOTE = (
    "counting by day of the week (weekends or weekdays) is not computed: counts are of whole "
    "windows, every day of them, so the answer would include the days not asked about. Ask "
    "for the whole window instead."
)
_FIRST_NOTE = (
    "a first or earliest that is not of a change is not computed: answers count or list the "
    'changes of one window. Ask "when did X first change?" for the earliest change of X, or '
    'for a period ("who changed X in 2014?").'
)
_FIRST_LAST_NOTE = (
    "the first change and the last one asked together with no time named are two questions "
    'over two windows: ask "when did X first change?" and "when did X last change?", or name '
    'a period ("the first and last change to X in 2025" is answered).'
)
# "over what period was he active?", "what time span did X work on Y?": the span of activity,
# its first and its last change (it ended on "period" as a name naming no one).
_SPANS = frozenset({"period", "span", "timespan", "timeframe", "stretch"})
_SPAN_NOTE = (
    "the span of activity (from the first change to the last) is two questions over two "
    'windows: ask "when did X first commit?" and "when did X last commit?", or name a period '
    '("the first and last change to X in 2025" is answered).'
)
_NEGATION_NOTE = (
    "leaving subjects or people out (a negation) is not computed; asking without it "
    "would answer another question. Ask about each subject in turn."
)
NEWCOMERS_NOTE = (
    "telling new people (whose first change falls in the window) from everyone "
    "active is not computed: the count would be everyone's."
)
# What IS answered nearest to a newcomers question (z41b B-w7, B-r7, B-a12 ended on the note
# alone, no way forward): everyone active in the window, then one person's first change.
NEWCOMERS_ASK = (
    'Answered instead: "who committed to X in <the period>?" lists and counts everyone '
    'active then, and "when did <person> first commit?" gives one person\'s first change.'
)
_LISTED_NOTE = (
    "the files or modules a subject's changes touched are not listed (only counted): "
    'ask "what did X change ...?" for the changes themselves, "which files did X change '
    'most ...?" for them ranked by commits, or about one module.'
)
_DEPENDS_NOTE = (
    "what a subject depends on, or what depends on it, is not answered here: the recorded "
    "dependencies are listed by the graph's neighbors query (DEPENDS_ON), not by an "
    "investigation. Ask about the subject's health or changes instead."
)
_BOTH_NOTE = (
    "the people who changed every one of several subjects (an intersection) are not "
    "computed: the answer would rank or count everyone who changed any of them. Ask about "
    "each subject in turn."
)
_SELF_NOTE = (
    "a question is not tied to the person asking (no identity is known here), so it is not "
    "answered for anyone: name the person instead."
)
# "when did it last change?" with no subject named: "it" stands for nothing the question
# names (no earlier question is carried over), and it was answered for the whole organisation.
_PRONOUNS = frozenset({"it", "them", "its"})
_PRONOUN_NOTE = (
    "stands for a subject the question does not name (nothing is carried over from an "
    "earlier question), so no subject is answered in its place: name the module, "
    "repository or person."
)
_WHY_NOTE = (
    "the reasons behind changes are not recorded here, only what changed, when and by whom "
    "(a change's own message, where listed, is its author's words): the answer does not "
    "say why."
)


def _counting(a: At) -> bool:
    return a.intent in _COUNTING


def _depends_extent(a: At) -> tuple[int, int]:
    """ "depend on": through "on" ("what does X depend on?")."""
    following = a.free[a.i + 1] if a.i + 1 < len(a.free) else None
    ends = following is not None and following.norm in {"on", "upon"}
    return a.free[a.i].start, following.end if following is not None and ends else a.free[a.i].end


def _listed(a: At) -> bool:
    """ "Which files did X change?": a list of what a subject's changes touched (a question
    naming no subject is answered, or says why, elsewhere: engine.resolving.subjectless)."""
    asked = a.words[:2] in (["which", a.word], ["what", a.word])  # the files are asked for
    areas = a.word in _LISTED_AREAS
    changed = bool(_TOUCHED.intersection(a.words)) or (areas and bool(_OWNED & set(a.words)))
    listed = a.word in _LISTED or areas
    return a.intent != Intent.WHO_OWNS and a.named and asked and listed and changed


def _both(a: At) -> bool:
    """A question about people ("who changed both X and Y?", "how many people changed both
    X and Y?"), where "both" asks for the people of each (an intersection); a count of
    commits "both" made is each one's."""
    people = a.intent == Intent.WHO or (
        a.intent == Intent.COUNT and not NEWCOMERS.isdisjoint(a.words)
    )
    return a.word == "both" and people and a.after not in TIME_WORDS and not a.named


def _first_and_last(a: At) -> bool:
    """ "first and last change to X" with no time named (with one, both are answered:
    engine/questions/firstlast.py). It ended saying "a first or earliest that is not of a
    change is not computed", of a question asking for changes."""
    following = a.words[a.i + 2] if a.i + 2 < len(a.words) else ""
    return a.word in _FIRST and a.after == "and" and following in {"last", "latest", "newest"}


# The word rules, in order: the first row that holds says the word (engine/reading/claims.py
# says which words are still free to be read here: engine.reading.meaning reads them).
WORD_ROWS = (
    WordRow(
        "first and last",
        _first_and_last,
        _FIRST_LAST_NOTE,
        extent=lambda a: (a.free[a.i].start, a.free[a.i + 2].end),
    ),
    WordRow(
        "span of activity",
        lambda a: a.word in _SPANS and a.before in {"what", "which", "time"},
        _SPAN_NOTE,
        extent=lambda a: (a.free[a.i - 1].start, a.free[a.i].end),
    ),
    WordRow("size", subject_size, SIZE_NOTE, extent=lambda a: a.word_only()),
    WordRow(
        "newcomers: each one's own first",
        lambda a: a.word in _FIRST and own_first(a.tokens, a.tokens.index(a.free[a.i])),
        f"{NEWCOMERS_NOTE} {NEWCOMERS_ASK}",
    ),
    WordRow("first", lambda a: a.word in _FIRST and a.intent != Intent.WHY_BEHIND, _FIRST_NOTE),
    # "Did X commit this year? If not, when was his last commit?": a condition on the first
    # question's answer, no one left out (the negation ended a clear question: z38a R14).
    WordRow("if not", lambda a: a.word == "not" and a.before == "if", None),
    WordRow(
        "negation",
        lambda a: a.word in _NEGATION and (_counting(a) or a.intent == Intent.TREND),
        _NEGATION_NOTE,
    ),
    WordRow(
        "newcomers",
        lambda a: (
            _counting(a) and ((a.word == "new" and a.after in NEWCOMERS) or a.word in _JOINED)
        ),
        f"{NEWCOMERS_NOTE} {NEWCOMERS_ASK}",
    ),
    WordRow(
        "per period",
        # "attrs activity by month past 6 mo": a status too (its total was answered, unsaid)
        lambda a: (_counting(a) or a.intent in {Intent.STATUS, Intent.TREND}) and per_period(a),
        PER_NOTE,
        extent=lambda a: a.through_next() if a.word in PER else a.word_only(),
    ),
    WordRow("co-changers", co_changers, CO_CHANGERS_NOTE, extent=lambda a: a.through_next()),
    WordRow(
        "whole list of people", whole_people, WHOLE_PEOPLE_NOTE, ends=False,
        extent=whole_people_extent,
    ),
    WordRow("people sized", people_sized, PEOPLE_SIZES_NOTE, ends=False),
    WordRow("big changes", big_changes, BIG_NOTE, ends=False),
    WordRow("count held", held_count, HELD_NOTE, extent=held_extent),
    WordRow(
        "sizes",
        lambda a: _counting(a) and a.word in _SIZES and a.after not in NEWCOMERS,
        'ranking changes by their size is not computed: ask "which files changed the most '
        'lines in X?" to rank files by the lines changed, or "which files changed most in X?" '
        "by commits.",
    ),
    WordRow(
        "threshold",
        lambda a: _counting(a) and compared(a),
        "a threshold or a comparison between subjects is not computed.",
        extent=lambda a: a.through_next(),
    ),
    WordRow("ranked periods", ranked_periods, PERIODS_NOTE, extent=periods_extent),
    WordRow("periods counted", periods_counted, COUNTED_PERIODS_NOTE, extent=many_extent),
    WordRow("files counted", files_counted, FILES_COUNTED_NOTE, extent=files_extent),
    WordRow("at least", lambda a: a.word in LEAST and a.before == "at", THRESHOLD),
    WordRow("least first", lambda a: a.word in LEAST, LEAST_NOTE),
    # "who has gone quiet in requests?": the people no longer active, whom no fact holds
    # (answered, it gave the active ones, the opposite: r41 F2); "how quiet was attrs in
    # June?" (no who or which) asks how busy, a fact phrase's word (vocabulary.py)
    WordRow("gone quiet", lambda a: a.word == "quiet" and a.intent in _ASKING_PEOPLE, LEAST_NOTE),
    WordRow("day of the week", lambda a: a.word in DAYS, WEEKDAY_NOTE),
    WordRow("files listed", _listed, _LISTED_NOTE),
    WordRow("between subjects", between_subjects, BETWEEN_NOTE, extent=between_extent),
    WordRow("depends", lambda a: a.word in _DEPENDS, _DEPENDS_NOTE, extent=_depends_extent),
    WordRow("the asker", lambda a: a.word in SELF and a.asker, None),
    WordRow(
        "self",
        lambda a: a.word in SELF or (a.word == "me" and a.before not in _OBJECT_ME),
        _SELF_NOTE,
    ),
    WordRow("both", _both, _BOTH_NOTE),
    WordRow(
        "pronoun",
        # "all of them": the whole list asked ("whole list of people", ranking.read)
        lambda a: (
            a.word in _PRONOUNS and not a.named and a.words[max(a.i - 2, 0) : a.i] != ["all", "of"]
        ),
        _PRONOUN_NOTE,
    ),
    WordRow(
        "why", lambda a: a.word == "why" and a.intent != Intent.WHY_BEHIND, _WHY_NOTE, ends=False
    ),
    WordRow("across its moves", moves, MOVES_NOTE, ends=False, extent=moves_extent),
    WordRow("pushed", lambda a: a.word in PUSHES, PUSH_NOTE, ends=False),
    WordRow("landed", lambda a: a.word in LANDS, LAND_NOTE, ends=False),
    # "how many came from bots?": what came from someone is what they authored ("came" was
    # a verb not understood: z38a A8); "came about", "come in" are origins (origins.py).
    WordRow("came from", lambda a: a.word in CAME and a.after == "from", None),
    WordRow("reviewed", lambda a: a.word in UNRECORDED_ROLES, ROLE_NOTE),
    # "who chnaged core.py?": the verb one slip away, said; "who flibbered core.py?" was
    # answered as who changed it, "flibbered" said unused: another question, maybe.
    # "who added the most lines?", "how many lines did each person add?": each person's lines
    # are counted added and removed together (engine/providers/contributions.Tally), so a
    # ranking by lines changed answered another question (or "added" was said a creation)
    WordRow("lines added each", lines_each, LINES_EACH_NOTE),
    WordRow("made first", lambda a: a.word in CREATION and in_verb_slot(a), CREATION_NOTE),
    WordRow(
        "misspelt verb",
        misspelt_verb,
        None,
        ends=False,
        said=lambda a: f'read as "{misspelt(a.word)}": no verb is spelt so; it is one slip away.',
    ),
    WordRow("verb unread", in_verb_slot, UNREAD_VERB),
)
