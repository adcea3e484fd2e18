"""The words a question is read with: fact phrases, kind words, stop words, intents.

Closed vocabularies, normalised (engine.domain.text.normalise). A word here is never a subject's
name by itself, except where a known name holding it is matched first (engine.reading.references).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from engine.domain.facts import FactKind
from engine.domain.models import SubjectKind
from engine.reading import verbs
from engine.reading.ordinary import ORDINARY
from engine.reading.time import calendar as td


class Intent(enum.StrEnum):
    """What a question asks for, closed (engine/reading/intents.py reads it)."""

    WHY_BEHIND = "why_behind"
    WHICH = "which"
    WHO_OWNS = "who_owns"
    WHO = "who"
    COUNT = "count"
    WHAT_CHANGED = "what_changed"
    RANKED = "ranked"
    STILL = "still"
    STATUS = "status"
    TREND = "trend"


INTENTS = tuple(Intent)

# Words asking for changed lines: a "who" answer then ranks people by lines, not commits.
LINE_WORDS = frozenset({"line", "lines", "loc", "churn", "churned"})
# Bots and their other side, as engine.reading.bots reads them (and engine.reading.meaning:
# a ranking with the bots left out or asked holds the first PEOPLE_SHOWN only)
BOT_WORDS = frozenset({"bot", "bots"})
HUMAN_WORDS = frozenset({"human", "humans"})
# Words asking a "who" question for the few who led ("the top contributors", "who was most
# active", "the main authors"): those PEOPLE_SHOWN are listed; without one, everyone who
# committed (up to PEOPLE_LISTED) is (engine.questions.who).
LEADER_WORDS = frozenset({
    "top", "most", "main", "leading", "busiest", "biggest", "largest", "key", "primary",
    "principal", "major", "chief", "heaviest", "prolific",
})  # fmt: skip
# The sides of changed lines a churn answer gives (+added -removed), and their verbs ("how
# many lines did X add and delete?": "delete" was not understood): read with "lines".
LINE_SIDES = frozenset({"added", "removed", "deleted", "inserted", "insertions", "deletions"}) | {
    "+/-",  # "lines +/-" (engine/reading/tokens.SIGNS)
    "add",
    "remove",
    "delete",
    "insert",
}
# Words leaving a subject out ("who changed X besides Y?": engine.resolving.together).
EXCLUDING = re.compile(r"\b(besides|except|excluding|other than|apart from|aside from|but not)\s")

_K = FactKind


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_BEHIND = (_K.WORK_ITEMS_OVERDUE, _K.THROUGHPUT, _K.CYCLE_TIME)
_INCIDENTS = (_K.INCIDENT_COUNT, _K.OPEN_INCIDENTS, _K.TIME_TO_RESOLVE)
_DEPLOYS = (_K.DEPLOY_FREQUENCY,)
_FAILED_DEPLOYS = (_K.DEPLOY_FREQUENCY, _K.FAILED_DEPLOYS)
_OWNER = (_K.OWNERSHIP,)

# Verbs of changing code (engine/reading/verbs.py, a row per verb): a name read by position
# never holds one ("did Armin touch X": "Armin"), and "what did X touch/fix/work on?" asks for
# the changes themselves. Not stop words: a known name may start with one ("Touch Base").
CHANGE_VERBS = verbs.CHANGE_VERBS
CHANGE_NOUNS = verbs.CHANGE_NOUNS
LANDS = _words("land lands landed landing")  # read as committed (engine.reading.meaning says so)
# The people a count of newcomers counts (engine/reading/wordrules.py, "newcomers").
NEWCOMERS = frozenset(
    {"contributor", "contributors", "people", "person", "committers", "committer", "authors"}
    | {"engineers", "developers", "members", "folks", "faces", "hires", "joiners"}
)

# People ranked by a ranking noun ("contributor ranking", "ranking of authors").
_RANKED_PEOPLE = (
    "contributor", "contributors", "committer", "committers", "author", "authors", "people",
    "developer", "developers",
)  # fmt: skip
# Normalised phrase -> the fact kinds it asks about. Matched on whole tokens, at each position
# the longest phrase first ("shipping to prod" before "shipping").
FACT_VOCABULARY: dict[str, tuple[FactKind, ...]] = {
    **dict.fromkeys(("behind", "late", "slipping", "overdue", "delayed"), _BEHIND),
    **dict.fromkeys(("incident", "incidents", "outage", "outages", "on fire"), _INCIDENTS),
    "open incidents": (_K.OPEN_INCIDENTS,),
    **dict.fromkeys(("time to resolve", "mttr"), (_K.TIME_TO_RESOLVE,)),
    **dict.fromkeys(("throughput", "velocity", "shipping"), (_K.THROUGHPUT,)),
    **dict.fromkeys(("cycle time", "lead time", "slow reviews"), (_K.CYCLE_TIME,)),
    **dict.fromkeys(("pull requests", "prs", "open prs"), (_K.OPEN_PULL_REQUESTS,)),
    **dict.fromkeys(
        ("deploy", "deploys", "deployment", "deployments", "release", "releases"), _DEPLOYS
    ),
    "shipping to prod": _DEPLOYS,
    **dict.fromkeys(("rollback", "rollbacks", "rolled back"), _FAILED_DEPLOYS),
    **dict.fromkeys(("own", "owner", "owners", "owns", "owned", "who owned", "ownership"), _OWNER),
    **dict.fromkeys(("commits", "commit", "activity"), (_K.COMMIT_ACTIVITY,)),
    # How many commits, as the number of commits is also called ("requests commit volume
    # mid-2025 to now" ended on "volume" not understood; "commit throughput" was read as pull
    # request throughput, which git histories do not record).
    **dict.fromkeys(
        (
            "commit volume", "commits volume", "volume of commits", "commit throughput",
            "throughput of commits", "commit output", "output of commits", "commit activity",
            "commit rate", "rate of commits",
        ),
        (_K.COMMIT_ACTIVITY,),
    ),
    **dict.fromkeys(
        (
            "maintained", "maintenance", "still maintained", "alive", "abandoned", "dormant",
            "maintain", "maintains", "maintaining", "maintainer", "maintainers",
        ),
        (_K.COMMIT_ACTIVITY, _K.ACTIVE_CONTRIBUTORS),
    ),
    **dict.fromkeys(("churn", "churning", "lines changed", "code churn"), (_K.CHURN,)),
    **dict.fromkeys(
        (
            "contributors",
            "contributor",
            "driven",
            "drove",
            "driving",  # "who's been driving changes in click?": who changed it most
            "drives",
            "contributed",
            "committers",
            "authors",  # "how many authors touched X?": people, not commits
            "developers",
            "devs",
            "developer",  # "the busiest developer on X": one of them, the first ranked
            "committer",
            "active",
            "busy",  # "how busy was Nate Prewitt in May?": how active
            "lively",  # "how lively was werkzeug in May?": how busy (it ended the question)
            "quiet",  # "how quiet was attrs in June?": how busy, the figure the same
            # "what has been going on in X lately?": how busy (a health with a bus factor lead)
            "going on",
            "happening",
            "busier",  # "was X busier in q1 or q2?": two periods (engine/reading/twoperiods.py)
            "quieter",
            "busiest",  # "the busiest contributor to X": the most active (a ranking reads it too)
            "most active",
            "knows",
            "experts",
            "expert",
            "expertise",  # "who has the most expertise in X?": who knows it (its history)
            "review",  # "who should review X?": the people who know X
            "reviews",
            "reviewer",
            "reviewers",
            # "the full contributor ranking for click": the people ranked ("ranking" was
            # not understood and ended the question: z39a A8)
            *(f"{p} {r}" for p in _RANKED_PEOPLE for r in ("ranking", "rankings")),
            *(f"ranking of {p}" for p in _RANKED_PEOPLE),
            "leaderboard",
        ),
        (_K.ACTIVE_CONTRIBUTORS,),
    ),
    # "how concentrated is knowledge of X?": how few people made most of its changes.
    **dict.fromkeys(
        (
            "bus factor",
            "truck factor",
            "key person risk",
            "knowledge silo",
            "concentrated",
            "concentration",
        ),
        (_K.BUS_FACTOR,),
    ),
}
# With a deploy word present, these also ask for failed deploys ("failed releases").
FAILURE_WORDS = frozenset({"failed", "failing", "broken"})


@dataclass(frozen=True, slots=True)
class KindRow:
    """Kind words: the words, the subject kind they name, and why (a row per kind)."""

    words: tuple[str, ...]
    kind: SubjectKind
    note: str


# Kind words name what kind of subject the question is about; never a reference alone
# ("which services ...": a hint; "the repository click": the kind of "click").
KIND_ROWS = (
    KindRow(("service", "services"), SubjectKind.SERVICE, "a deployed service"),
    KindRow(
        ("repo", "repos", "repository", "repositories"), SubjectKind.REPOSITORY, "a repository"
    ),
    KindRow(
        ("codebase", "org", "organisation", "organization"),
        SubjectKind.REPOSITORY,
        "the code of the organisation, read as \"the repo\" is (its one repository, said "
        "beside other names; every repository in a count naming none)",
    ),
    KindRow(("team", "teams", "squad", "squads"), SubjectKind.TEAM, "a team"),
    KindRow(
        ("person", "people", "persons", "engineer", "engineers"), SubjectKind.PERSON, "people"
    ),
    KindRow(("project", "projects"), SubjectKind.PROJECT, "a project"),
    KindRow(
        (
            *("module", "modules", "package", "packages"),
            *("subpackage", "subpackages", "submodule", "submodules"),
            *("pkg", "pkgs"),  # "werkzeug's sansio pkg": "pkg" was not understood
        ),
        SubjectKind.MODULE,
        "a package is a module here: the importer keeps src/click as the module \"click\"",
    ),
    KindRow(
        ("namespace", "namespaces"),
        SubjectKind.MODULE,
        "an import name: \"the attrs namespace (package)\" is the package attrs (src/attrs, "
        "2021), never the repository; it ended \"attrs has no module namespace\"",
    ),
)
KIND_WORDS: dict[str, SubjectKind] = {w: row.kind for row in KIND_ROWS for w in row.words}
PLURAL_KINDS = frozenset(w for w in KIND_WORDS if w.endswith("s") or w == "people")

# A phrase naming a directory by what it holds -> the directory's usual name: one reference
# (engine.reading.references.by_descriptions), resolved by engine.resolving.wordforms.
DESCRIPTIONS: dict[str, str] = {
    **dict.fromkeys(
        ("test suite", "testsuite", "tests suite", "unit tests", "test code", "test files"),
        "tests",
    ),
    **dict.fromkeys(("documentation", "doc", "documentation folder", "docs folder"), "docs"),
    **dict.fromkeys(("example code", "sample code", "samples"), "examples"),
}  # the CI: its workflows' folder or file (engine.resolving.descriptions), never all .github
# Question words as they are often typed: "whats changed in X" asked for X's status, not
# what changed ("whats" was no lead word).
LEADS_SPELT = {
    "whats": "what", "wats": "what", "wat": "what", "whta": "what", "waht": "what",
    "hwo": "who", "whos": "who", "wich": "which", "whcih": "which", "whihc": "which",
}  # fmt: skip
# Words that say which way something moved ("did commits increase?", "activity dropped"), and
# the verbs that do it with "up" or "down" ("go up", "went down", "picked up"): a trend.
DIRECTION_WORDS = _words(
    "increase increased increases increasing decrease decreased decreases decreasing "
    "rise rises rose risen rising decline declined declines declining grow grew grown growing "
    # "how many lines did click shrink in 2025?": net lines (engine.reading.netlines), and
    # "shrink" no word of the name beside it ("click shrink" named no subject)
    "shrink shrinks shrank shrunk shrinking "
    # not "fall": a season ("commits in the fall")
    "fell fallen falling drop drops dropped dropping slowed slowing"
)
GOING = _words("go goes went gone going gotten picked slowed")
STOP_WORDS = _words(
    "a an the is are was were be been being do does did has have had having of for about in "
    "on at to from by with and or but not no vs versus what whats which who whom whose why how "
    "when where it its this that these those there their our my your we i you me us they them "
    "any all some most more less fewer much many than over per each can could should would will "
    "please show tell give list find get right now currently lately recently status state health "
    "healthy trend trends trending doing done going happening happened happen happens changed "
    "change so very much up down compare comparing as else "
    "compared worse better getting lot lots changes make made makes making got touched "
    "authored wrote written been working worked new anyone anybody someone somebody "
    "anything something nothing nobody latest newest recent besides except excluding apart "
    "aside mr mrs ms dr mister among amongst total overall altogether number whole entire "
    # "2020 vs 2021 commit totals": the counts asked for ("totals" was not understood)
    "totals "
    # "which incidents hit X?": X's incidents ("hit X" was tried as a name, "hit" dropped)
    "hit hits hitting affect affects affected affecting impact impacts impacted impacting "
    # "who churned through X?", "changes across X": the verb's preposition, no name
    "through throughout across "
    # "summarize X", "an overview of X": what the status answer is; "count the commits to X"
    "summarize summarise summary overview recap describe count "
    # "how many came from bots?": what came from someone is what they authored ("came" was
    # tried as a name and ended the question: z38a A8); "come in" reads as origins.py says
    "came come comes"
) | frozenset(LEADS_SPELT) | verbs.LIGHT_VERBS | verbs.ADVERBS | DIRECTION_WORDS | ORDINARY
# Stop words that are words of names too ("the status codes file": status_codes.py): beside
# one word that is none, they are looked up with it as a known name (never alone).
NAME_PARTS = _words("status state health trend number total list new make")
# Words that qualify a kind word without naming anything ("the go-to person", "the main
# module"): never read as a name before it (a known name is still matched first).
NOT_NAMES = frozenset(
    {"go to", "best", "right", "main", "key", "lead", "primary", "responsible", "whole"}
    | {"entire", "only", "same", "new", "old", "other", "another", "single", "first", "last"}
    # "biggest contributors 2011 through 2012": the most active (engine/reading/sizerows.py)
    | {"biggest", "largest", "major", "leading"}
    # "one-off contributors": people of one commit (engine/reading/sizerows.ONE_OFF)
    | {"one off", "one time", "drive by", "oneoff", "onetime"}
)
# "When did X last commit?", "the latest change to X": the newest change is asked for.
LAST_WORDS = _words("last latest newest recent")
# "The first commit", "the earliest change", "the first-ever commit": the oldest change is
# asked for (engine.reading.asked), never a name ("what was the first commit?" ended on
# '"first" names no subject known here').
FIRST_WORDS = _words("first earliest oldest") | {"first ever"}
# Words that qualify a question, not a name ("who knows the parser best?").
FILLERS = frozenset(
    {"best", "well", "mostly", "really", "code", "file", "files", "distinct", "ever"}
    | {"different", "unique", "individual", "separate"}
    | {"folder", "folders", "directory", "directories", "dir", "both"}
    # "who rewrote parts of the routing package?": the package is what is asked about
    | {"parts", "part", "bits", "pieces", "portions", "areas"}
    # "so far this year": the window is the time rule's; "far" was said not understood
    | {"far"}
    # "how many times was X changed?": its commits, counted
    | {"times"}
    # "how active was click development?": the work on click, what "click" names; beside a
    # name it named no part of it, and the question ended (engine.resolving.partwords)
    | {"development"}
)
# Words asking for a subject's health, the answer of a question asking nothing else read.
HEALTH_WORDS = _words(
    "health healthy status state doing going ok okay fine well risk risky shape condition"
)
ASKS_NOTHING = (
    "not understood: no rule here reads it, and the question asks nothing else read here "
    "(no question, fact or health word): its health would answer another question."
)
# Who is asked for without "who" ("has anyone touched X?").
SOMEONE = _words("anyone anybody someone somebody")
TRIGGERS = _words("is are was were for of about did does owned owns in with has have to by")
# Words after which a question names who did something ("did davidism make", "by kim"): an
# unknown name there is tried as a name even beside other references (engine.reading.references).
ACTOR_TRIGGERS = _words("did does has have by")
SKIPPED = STOP_WORDS | frozenset(KIND_WORDS)  # "is the checkout service": "checkout"
DEGRADATION_WORDS = _words("slow slower failing failed broken stuck worse")
DEGRADATION = frozenset(_BEHIND + _INCIDENTS + (_K.FAILED_DEPLOYS,))
TREND_WORDS = _words("trend trends trending changed change")
# What a question of these intents asks when it names no fact ("who changed X?").
DEFAULT_KINDS = {
    Intent.WHO: (_K.ACTIVE_CONTRIBUTORS,),
    Intent.COUNT: (_K.COMMIT_ACTIVITY,),
    Intent.WHAT_CHANGED: (_K.CHANGES, _K.CHURN),  # the changes themselves, and their lines
}
# "Is X still maintained?": its commits and its changes themselves (the newest is named).
STILL_KINDS = (_K.COMMIT_ACTIVITY, _K.CHANGES)
CHANGE_KINDS = frozenset({_K.ACTIVE_CONTRIBUTORS, _K.CHURN, _K.COMMIT_ACTIVITY, _K.BUS_FACTOR})

# Words of a fact phrase that read nothing without its other words ("requests" of "pull
# requests", "silo" of "knowledge silo"): alone they are a name or a word not understood,
# never dropped unsaid. On click, "compare requests with click" was answered about click alone
# and "how many commits to requests in 2024?" for the whole organisation (104 commits).
# Words read alone by other rules ("lines", "people", "time", "lead", "open" ...) stay
# vocabulary; "knowledge" too ("how concentrated is knowledge of X?" asks a bus factor).
_READ_ALONE = _words(
    "author back code key knowledge lead lines open output people person pull ranking "
    "rankings rate still time volume"
)
PHRASE_ONLY = (
    frozenset(word for phrase in FACT_VOCABULARY if " " in phrase for word in phrase.split())
    - frozenset(phrase for phrase in FACT_VOCABULARY if " " not in phrase)
    - _READ_ALONE
    - (STOP_WORDS | HEALTH_WORDS | FAILURE_WORDS | DEGRADATION_WORDS | td.TIME_WORDS)
)
VOCABULARY_WORDS = (
    frozenset(word for phrase in FACT_VOCABULARY for word in phrase.split()) - PHRASE_ONLY
    | HEALTH_WORDS
    | FAILURE_WORDS
    | DEGRADATION_WORDS
    | td.TIME_WORDS
)
