"""The order in which the readings of a question claim its words, stated once.

Every reading runs over the same tokens (engine.reading.references.Token) and takes the words
it reads (`Token.free = False`), so no later reading reads them again, none is tried as a
name, and none is said not understood. The order decides which reading wins a word: a time
phrase is never a name ("since the outage" asks no incident question), a known name holding a
fact word is the name ("Shipping Store Service"), "most active" is a fact phrase before "the
top 3" can take "most". engine.reading.interpreter.interpret runs the passes in the order
of CLAIMS; tests/test_claims.py holds both ways: every function of engine/reading that takes
a question's word is a row here, and interpret calls them in the rows' order.

Two lists of tokens are read: `tokens`, which every pass claims from, and `readable`, a copy
taken after the known names and before the fact phrases, which only merge words are taken
from too: engine.reading.meaning reads words there that a fact phrase also reads ("new
contributors": "new" changes what is asked).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Claim:
    """One pass: what it takes, the function taking it (module.function under
    engine/reading), and why it comes where it does."""

    words: str
    reader: str
    why: str


CLAIMS = (
    Claim(
        "time phrases, understood or not",
        "tokens.free_tokens",
        "first: a time phrase is never a name or a fact word (\"since the outage\")",
    ),
    Claim(
        "the noun of \"the first version of X\" (\"version\", \"revision\")",
        "asked.first_nouns",
        "before the known names: it asks the first change, never names a file "
        "(requests' __version__.py was answered beside sessions.py)",
    ),
    Claim(
        "a name given in brackets, the words describing it before the bracket and \"not X\" "
        "inside it (\"the debugger (werkzeug.debug)\", \"(src/attrs, not attr)\")",
        "brackets.read",
        "before the descriptions and the known names: the bracket is the name, its description "
        "no name of its own (\"debugger\" ended the question as a word naming nothing), "
        "\"not attr\" no negation",
    ),
    Claim(
        "a description of a conventional directory (\"the test suite\", \"documentation\")",
        "references.by_descriptions",
        "before the known names: \"the werkzeug test suite\" is werkzeug's tests, never the "
        "known name \"werkzeug test\" (werkzeug.test) with \"suite\" left over",
    ),
    Claim(
        "known names, longest first",
        "references.by_handles",
        "before any vocabulary: a known name may hold fact or kind words",
    ),
    Claim(
        "the words opening a question that ask nothing (\"Hey,\", \"Judging by\", \"Rank\" "
        "before people)",
        "openers.read",
        "after the known names, before any vocabulary: only at the question's start, never "
        "a name (\"Judging\" ended the question as one)",
    ),
    Claim(
        "the noun of \"what date\", \"which date\" (the question word read as \"when\")",
        "ordinary.read_when",
        "after the opening words, before the fact phrases and the intent: \"On what date did "
        "X last commit?\" asks when (\"date\" was tried as a name, and the question ended)",
    ),
    Claim(
        "the words asking for a breakdown (\"break down\", \"breakdown\") before its unit",
        "periodcounts.read_breaking",
        "before the names: \"Break down Hynek's commits by month\" was answered with \"Break\" "
        "said to name no subject, or ended on it; the unit (\"by month\") is read after",
    ),
    Claim(
        "a breakdown by people (\"by author\", \"per person\", \"broken down by contributor\")",
        "perperson.read_breakdown",
        "before the fact phrases: \"contributor\" there asks for the people ranked, and "
        "\"author\" after \"by\" is no one's name (\"author\" was said to name no one)",
    ),
    Claim(
        "possessive pronouns (\"his\", \"her\")",
        "pronouns.read_pronouns",
        "before any word is tried as a name: \"his\" stands for the person named, never a "
        "name of its own (it was said not understood)",
    ),
    Claim(
        "fact phrases, longest first at each position",
        "factphrases.fact_kinds",
        "before the intent, which reads the kinds they name (\"shipping to prod\")",
    ),
    Claim(
        "the words asking for net lines (\"net\", \"minus\", \"grow by\")",
        "netlines.read_net",
        "after the fact phrases, which say whether lines are asked: \"grow\" alone may ask "
        "whether activity grew; \"net\" was tried as a name",
    ),
    Claim(
        "merge words and the word qualifying them",
        "merges.read_merges",
        "\"excluding merges\" is read whole, never a name nor a negation (both lists)",
    ),
    Claim(
        "the words leaving bots out (\"excluding bots\", \"humans only\")",
        "bots.read_bots",
        "after the merge words, before the ranking: \"except bots\" is read whole, never "
        "a name nor a negation (both lists)",
    ),
    Claim(
        "the word asking for the bots' own part (\"bot commits\", \"which bots\")",
        "bots.read_bots_only",
        "after the words leaving bots out and the names known here (\"Step Security Bot\"), "
        "before the names: \"bot\" was read as one, asking which bot",
    ),
    Claim(
        "the words of a ranking (\"top 5\", \"files\")",
        "ranking.read",
        "after the fact phrases, whose kinds say whether changes are ranked",
    ),
    Claim(
        "\"the top 3\" people",
        "meaning.top",
        "only when no ranking read the number: a number is never a name",
    ),
    Claim(
        "a singular kind word standing for a subject (\"the repo\")",
        "kindwords.alone",
        "after the names are read: beside other names it is a subject, not a hint",
    ),
    Claim(
        "the word asking for the first change (\"first\", \"earliest\", \"added\")",
        "asked.asks_first",
        "once the last change is read: \"the last week\" is time, \"first\" beside a change "
        "word asks the earliest change, never a ranking not computed",
    ),
    Claim(
        "the words of a path's life (\"deleted\", \"got rid of\", \"became a package\")",
        "origins.life",
        "after the first change is read (a verb of making asks it) and only beside a name: "
        "\"who deleted X?\" asks for the commit that deleted it, never a word not understood",
    ),
    Claim(
        "\"still\" and the word after it",
        "asked.asks_still",
        "once the intent is known: \"is X still maintained?\" asks whether it is changed",
    ),
    Claim(
        "the words ranking months (\"busiest month\", \"which month ... most\")",
        "rankedmonths.read",
        "once the fact phrases and the intent are read: \"most active\" is taken by then, "
        "and \"month\" beside them is no time phrase left unread",
    ),
    Claim(
        "the words of a breakdown of commits by month or week (\"by month\", \"weekly\")",
        "periodcounts.read",
        "beside the months ranked, before the words beside the time phrase: \"month\" of "
        "\"by month past 6 mo\" is the unit counted by, not a word changing the time",
    ),
    Claim(
        "a word beside the time phrase that could change it (\"since Jan '23\")",
        "timeexpression.time_beside",
        "once names and the intent's words are read: only a word nothing read is tested, "
        "and the phrase with it is said not understood",
    ),
    Claim(
        "the words of two named periods compared (\"vs\", \"or\", \"than the first half\")",
        "twoperiods.read",
        "once the words beside the time phrase are tested: the second period is read as "
        "a period, never a word beside the first",
    ),
    Claim(
        "\"more\", \"less\", \"fewer\", \"than\" of a comparison with a period",
        "asked.comparison",
        "last, once the time is read: \"more than last year\"",
    ),
    Claim(
        "\"more\", \"less\", \"fewer\" of which way something moved (\"more or fewer\")",
        "asked.direction",
        "after a comparison with a named period, which takes them first when one is named",
    ),
)
