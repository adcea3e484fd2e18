"""Time phrasings through `investigate`: issue 32's bar ("no ANSWERED over a window the phrase
does not mean, and at least 9 in 10 read right") on phrasings written, each with the window it
means, before the reader saw them. Three sets, as they were written: the first two were run on
the reader of the time (3 of 49 and 2 of 47 read wrong or not at all, then fixed as rows), the
third after those fixes (40 of 43); the fourth (40 of 43), fifth (19 of 23), sixth (27 of 30)
and seventh (21 of 25) after issue 32's last compositions became rows; the eighth (4 of 12)
from session 34's checks; the ninth from time37's 120 (105 of 120, none wrong); the tenth
from time38's two batches of 42 (7 of 42 read right on main, "spring in 2021" answered over
all of 2021; then 35 of 42 after the first fixes, none wrong); the eleventh time41's 12
(halves without a year, ISO intervals, "prior N days": none read on main, 12 after). The first
three sets are corpus rows (tests/data/time_phrases.tsv), and of the others those read wrong
or not at all; this guards them all through the whole investigation: resolution, the window
answered, the clarification of a phrase wider than 400 days.

Usage: python bench/time_phrasings.py

On the demo organisation in memory at 2026-11-20T12:00 UTC, "how many commits to payments-api
<phrase>?". Each case states its window (an open end is now); a phrase wider than 400 days
is asked again naming its exact span. A case is right when answered over its window (or asked
again naming it), wrong when answered over another window; anything else (a no match naming
the phrase) is neither. The last line is one JSON object: phrases, right, wrong (must be 0),
not_read (of them `by_convention`: not understood as a convention of the corpus says, a hedge
or a month's half), and the examples of each.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

from engine.answering.synthesis import DeterministicSynthesizer
from engine.domain.contract import Outcome, Versions
from engine.domain.embedding import HashingEmbedder
from engine.domain.timecontext import MAX_RANGE
from engine.investigation.investigate import InvestigationRequest, Investigator
from engine.memory import MemoryStore
from engine.ports import OrgGraph
from engine.providers import default_providers
from engine.resolving.receipts import ReceiptSigner
from engine.resolving.resolution import Resolver
from engine.resolving.ring import ReferenceRing
from graph.projection import Projector
from sources.demo import generate

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
N = None  # up to now


def d(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def back(**units: int) -> datetime:
    return NOW - timedelta(**units)


# (phrase, start, end) by set, as written.
FIRST = [
    ("since the start of last quarter", d("2026-07-01"), N),
    ("since the middle of last month", d("2026-10-11"), N),
    ("since the end of Q2", d("2026-07-01"), N),
    ("since the beginning of October", d("2026-10-01"), N),
    ("since the end of 2025", d("2026-01-01"), N),
    ("since mid-March", d("2026-03-11"), N),
    ("since early this year", d("2026-01-01"), N),
    ("since the start of the week", d("2026-11-16"), N),
    ("since the end of last week", d("2026-11-16"), N),
    ("since the middle of the year", d("2026-05-01"), N),
    ("after the end of June 2026", d("2026-07-01"), N),
    ("from mid-2026 until now", d("2026-05-01"), N),
    ("Feb-Apr 2025", d("2025-02-01"), d("2025-05-01")),
    ("from July to September 2025", d("2025-07-01"), d("2025-10-01")),
    ("Sept-Nov 2024", d("2024-09-01"), d("2024-12-01")),
    ("between April and June 2025", d("2025-04-01"), d("2025-07-01")),
    ("March 2025 \u2013 June 2025", d("2025-03-01"), d("2025-07-01")),
    ("Aug to Oct 2026", d("2026-08-01"), d("2026-11-01")),
    ("from 5 to 12 October 2025", d("2025-10-05"), d("2025-10-13")),
    ("October 5 to 12, 2025", d("2025-10-05"), d("2025-10-13")),
    ("from June 3 to June 9 2025", d("2025-06-03"), d("2025-06-10")),
    ("between the 1st and the 10th of September 2025", d("2025-09-01"), d("2025-09-11")),
    ("from the 2nd to the 6th of November", d("2026-11-02"), d("2026-11-07")),
    ("since 4 weeks back", back(weeks=4), N),
    ("since 5 days ago", back(days=5), N),
    ("since six months back", d("2026-05-20T12:00"), N),
    ("over the past half year", d("2026-05-20T12:00"), N),
    ("in the last half year", d("2026-05-20T12:00"), N),
    ("the fortnight before last", back(days=28), back(days=14)),
    ("in Q3 of last year", d("2025-07-01"), d("2025-10-01")),
    ("during Q2 2026", d("2026-04-01"), d("2026-07-01")),
    ("in the previous quarter", d("2026-07-01"), d("2026-10-01")),
    ("in the first quarter of this year", d("2026-01-01"), d("2026-04-01")),
    ("in spring 2026", d("2026-03-01"), d("2026-06-01")),
    ("during summer 2025", d("2025-06-01"), d("2025-09-01")),
    ("in the autumn of 2025", d("2025-09-01"), d("2025-12-01")),
    ("in ISO week 40 of 2025", d("2025-09-29"), d("2025-10-06")),
    ("in week 45", d("2026-11-02"), d("2026-11-09")),
    ("in 2026-W10", d("2026-03-02"), d("2026-03-09")),
    ("in the second half of last year", d("2025-07-01"), d("2026-01-01")),
    ("in the last 45 days", back(days=45), N),
    ("over the last 4 months", d("2026-07-20T12:00"), N),
    ("in the past 7 weeks", back(weeks=7), N),
    ("in mid-October 2025", d("2025-10-11"), d("2025-10-21")),
    ("at the start of last month", d("2026-10-01"), d("2026-10-11")),
    ("the last 10 days of October 2025", d("2025-10-22"), d("2025-11-01")),
    ("the first two weeks of March 2025", d("2025-03-01"), d("2025-03-15")),
    ("between early 2025 and mid-2025", d("2025-01-01"), d("2025-09-01")),
    ("since the start of the quarter", d("2026-10-01"), N),
]
SECOND = [
    ("since the end of the summer of 2025", d("2025-09-01"), N),
    ("since late last year", d("2025-09-01"), N),
    ("since mid last month", d("2026-10-11"), N),
    ("between the start of March and the end of May 2026", d("2026-03-01"), d("2026-06-01")),
    ("from the middle of June to the end of August 2025", d("2025-06-11"), d("2025-09-01")),
    ("April-June 2026", d("2026-04-01"), d("2026-07-01")),
    ("Jan\u2013Mar 2026", d("2026-01-01"), d("2026-04-01")),
    ("from Sep 2025 to Feb 2026", d("2025-09-01"), d("2026-03-01")),
    ("July 2025 through September 2025", d("2025-07-01"), d("2025-10-01")),
    ("between Oct 1 and Oct 15 2025", d("2025-10-01"), d("2025-10-16")),
    ("10-20 September 2025", d("2025-09-10"), d("2025-09-21")),
    ("from 1 to 7 June 2026", d("2026-06-01"), d("2026-06-08")),
    ("Sept 1 to Sept 30, 2025", d("2025-09-01"), d("2025-10-01")),
    ("since 3 months back", d("2026-08-20T12:00"), N),
    ("since a year back", d("2025-11-20T12:00"), N),
    ("since 10 weeks ago", back(weeks=10), N),
    ("in the past half a year", d("2026-05-20T12:00"), N),
    ("over the last half year", d("2026-05-20T12:00"), N),
    ("within the past 60 days", back(days=60), N),
    ("the past 2 fortnights", back(days=28), N),
    ("in Q2 last year", d("2025-04-01"), d("2025-07-01")),
    ("in the fourth quarter of last year", d("2025-10-01"), d("2026-01-01")),
    ("Q1 of this year", d("2026-01-01"), d("2026-04-01")),
    ("during 2025 Q4", d("2025-10-01"), d("2026-01-01")),
    ("in the summer of 2026", d("2026-06-01"), d("2026-09-01")),
    ("during fall 2025", d("2025-09-01"), d("2025-12-01")),
    ("last fall", d("2025-09-01"), d("2025-12-01")),
    ("in week 12 of 2026", d("2026-03-16"), d("2026-03-23")),
    ("2025-W48", d("2025-11-24"), d("2025-12-01")),
    ("ISO week 3 2026", d("2026-01-12"), d("2026-01-19")),
    ("in the week of October 6th 2025", d("2025-10-06"), d("2025-10-13")),
    ("in early October 2025", d("2025-10-01"), d("2025-10-11")),
    ("in late Q3 2026", d("2026-09-01"), d("2026-10-01")),
    ("at the end of June 2025", d("2025-06-21"), d("2025-07-01")),
    ("the middle of last year", d("2025-05-01"), d("2025-09-01")),
    ("the first 2 weeks of 2026", d("2026-01-01"), d("2026-01-15")),
    ("the last 3 days of October 2025", d("2025-10-29"), d("2025-11-01")),
    ("in the first half of this year", d("2026-01-01"), d("2026-07-01")),
    ("H1 last year", d("2025-01-01"), d("2025-07-01")),
    ("since the start of H2", d("2026-07-01"), N),
    ("after mid-September", d("2026-09-21"), N),
    ("from last week until now", d("2026-11-09"), N),
    ("since Q3", d("2026-07-01"), N),
    ("in the 2nd quarter of 2025", d("2025-04-01"), d("2025-07-01")),
    ("from early 2026 to mid-2026", d("2026-01-01"), d("2026-09-01")),
    ("the past 3 quarters", d("2026-02-20T12:00"), N),
    ("over the past 5 months", d("2026-06-20T12:00"), N),
]
THIRD = [
    ("since the second week of October", d("2026-10-08"), N),
    ("in the third week of last month", d("2026-10-15"), d("2026-10-22")),
    ("the first 5 days of this month", d("2026-11-01"), d("2026-11-06")),
    ("since the end of the first quarter", d("2026-04-01"), N),
    ("between the end of June and the start of September 2026", d("2026-07-01"), d("2026-09-01")),
    ("from mid-August to mid-September 2026", d("2026-08-11"), d("2026-09-21")),
    ("June\u2013July 2026", d("2026-06-01"), d("2026-08-01")),
    ("Dec 2025 - Feb 2026", d("2025-12-01"), d("2026-03-01")),
    ("from 20 to 25 October", d("2026-10-20"), d("2026-10-26")),
    ("between 1 and 15 August 2026", d("2026-08-01"), d("2026-08-16")),
    ("since 7 weeks back", back(weeks=7), N),
    ("since two quarters ago", d("2026-05-20T12:00"), N),
    ("over the past quarter of a year", d("2026-08-20T12:00"), N),
    ("during the last 3 weeks", back(weeks=3), N),
    ("in the previous month", d("2026-10-01"), d("2026-11-01")),
    ("the prior week", d("2026-11-09"), d("2026-11-16")),
    ("Q2 of last year", d("2025-04-01"), d("2025-07-01")),
    ("in the 4th quarter of 2025", d("2025-10-01"), d("2026-01-01")),
    ("in early Q2 2026", d("2026-04-01"), d("2026-05-01")),
    ("mid-Q3", d("2026-08-01"), d("2026-09-01")),
    ("in spring of last year", d("2025-03-01"), d("2025-06-01")),
    ("the summer before last", d("2025-06-01"), d("2025-09-01")),
    ("in week 44 of this year", d("2026-10-26"), d("2026-11-02")),
    ("in the week of 12 October 2026", d("2026-10-12"), d("2026-10-19")),
    ("in late September last year", d("2025-09-21"), d("2025-10-01")),
    ("during the second half of 2024", d("2024-07-01"), d("2025-01-01")),
    ("since the beginning of last week", d("2026-11-09"), N),
    ("since the middle of October", d("2026-10-11"), N),
    ("after the start of the month", d("2026-11-01"), N),
    ("from the end of September until now", d("2026-10-01"), N),
    ("October through November 2026", d("2026-10-01"), N),
    ("between September 2025 and January", d("2025-09-01"), d("2026-02-01")),
    ("the last 2 months of 2025", d("2025-11-01"), d("2026-01-01")),
    ("the first 3 weeks of October", d("2026-10-01"), d("2026-10-22")),
    ("in the last 6 weeks", back(weeks=6), N),
    ("over the past 100 days", back(days=100), N),
    ("within the last 2 months", d("2026-09-20T12:00"), N),
    ("the past two fortnights", back(days=28), N),
    ("in autumn last year", d("2025-09-01"), d("2025-12-01")),
    ("since summer", d("2026-06-01"), N),
    ("since H1 2026", d("2026-01-01"), N),
    ("in the first two months of this year", d("2026-01-01"), d("2026-03-01")),
    ("from 2026-10-05 to 2026-10-09", d("2026-10-05"), d("2026-10-10")),
]
# A fourth set, after issue 32's last compositions became rows ("the first half of last month",
# "Q4 of the previous year", "a year and a half ago", "the 12 months to March 2026"): 43
# unseen (one more, "three weeks back", was in the corpus and is replaced here by "ten days
# back"): 40 read right, 2 answered over another window ("in June-July": June; "Nov 2025-Feb
# 2026": February 2026), 1 not understood ("June to August of last year"); all rows now.
FOURTH = [
    ("since the middle of September", d("2026-09-11"), N),
    ("since the end of Q1", d("2026-04-01"), N),
    ("since early August", d("2026-08-01"), N),
    ("after the first week of October", d("2026-10-08"), N),
    ("from the middle of last year", d("2025-05-01"), N),
    ("since 6 weeks back", back(weeks=6), N),
    ("after late June", d("2026-07-01"), N),
    ("since Q2 of last year", d("2025-04-01"), N),
    ("since the start of this quarter", d("2026-10-01"), N),
    ("from February to April 2025", d("2025-02-01"), d("2025-05-01")),
    ("from the 3rd to the 9th of November", d("2026-11-03"), d("2026-11-10")),
    ("September through November 2025", d("2025-09-01"), d("2025-12-01")),
    ("from mid-January until the end of February 2026", d("2026-01-11"), d("2026-03-01")),
    ("Q1 to Q2 2025", d("2025-01-01"), d("2025-07-01")),
    ("June to August of last year", d("2025-06-01"), d("2025-09-01")),
    ("from October 2025 until January", d("2025-10-01"), d("2026-02-01")),
    ("between the start of July and the end of August", d("2026-07-01"), d("2026-09-01")),
    ("between Q2 and Q3 of this year", d("2026-04-01"), d("2026-10-01")),
    ("between 1 and 15 October", d("2026-10-01"), d("2026-10-16")),
    ("between mid-2025 and early 2026", d("2025-05-01"), d("2026-05-01")),
    ("at the end of last month", d("2026-10-21"), d("2026-11-01")),
    ("in the middle of Q3", d("2026-08-01"), d("2026-09-01")),
    # The beginning or end of a year is its first or last month since an independent check
    # (c32a) found "the end of last year" read as September to December (written as its
    # last third here then).
    ("the beginning of 2026", d("2026-01-01"), d("2026-02-01")),
    # A hedge is not understood, whatever it hedges (since t32: it read the part alone, the
    # hedge unsaid, as "around March 2026" could not be): not read here.
    ("around the end of the year", d("2026-09-01"), N),
    ("during the middle of last quarter", d("2026-08-01"), d("2026-09-01")),
    ("5 weeks ago", back(weeks=5), back(weeks=4)),
    ("ten days back", back(days=10), back(days=9)),
    ("a fortnight ago", back(days=14), N),
    ("over the past half hour", back(minutes=30), N),
    ("in the past quarter year", d("2026-08-20T12:00"), N),
    ("the last half a year", d("2026-05-20T12:00"), N),
    ("within the past year and a half", d("2025-05-20T12:00"), N),
    ("Jan-Mar 2026", d("2026-01-01"), d("2026-04-01")),
    ("Oct\u2013Dec 2025", d("2025-10-01"), d("2026-01-01")),
    ("in June-July", d("2026-06-01"), d("2026-08-01")),
    ("Nov 2025-Feb 2026", d("2025-11-01"), d("2026-03-01")),
    ("the second half of September", d("2026-09-16"), d("2026-10-01")),
    ("since a week and a half ago", d("2026-11-10"), N),
    ("the 6 months to September", d("2026-04-01"), d("2026-10-01")),
    ("the two weeks before Christmas", d("2025-12-11"), d("2025-12-25")),
    ("Q3 of the previous year", d("2025-07-01"), d("2025-10-01")),
    ("the first half of March last year", d("2025-03-01"), d("2025-03-16")),
    ("from the end of May to mid-July", d("2026-06-01"), d("2026-07-21")),
    ("after the second week of September", d("2026-09-15"), N),
]
# A fifth, after those: 23 unseen ("the first half of the year" was in the corpus): 19 read
# right, 1 answered over another window with a word unused ("over the last one and a half
# years": the last year, "one" said unused), 3 not understood ("since the final week of
# October", "between the 10th and the 20th of last month", "June 2025 through to
# September"); all rows now.
FIFTH = [
    ("since the final week of October", d("2026-10-25"), N),
    ("from the beginning of Q2 until the middle of Q3", d("2026-04-01"), d("2026-08-01")),
    ("after the end of summer 2025", d("2025-09-01"), N),
    ("between early March and late April", d("2026-03-01"), d("2026-05-01")),
    ("the 4 weeks to last Friday", d("2026-10-17"), d("2026-11-14")),
    ("since a couple of months back", d("2026-09-20T12:00"), N),
    ("in the past quarter of an hour", back(minutes=15), N),
    ("Feb\u2013Apr of this year", d("2026-02-01"), d("2026-05-01")),
    ("from Q4 2025 to Q1", d("2025-10-01"), d("2026-04-01")),
    ("December to February", d("2025-12-01"), d("2026-03-01")),
    ("the end of Q2 2025", d("2025-06-01"), d("2025-07-01")),
    ("since 10 days back", back(days=10), N),
    ("between the 10th and the 20th of last month", d("2026-10-10"), d("2026-10-21")),
    ("the 2 months before the start of this year", d("2025-11-01"), d("2026-01-01")),
    ("the first half of the year", d("2026-01-01"), d("2026-07-01")),
    ("from mid-October to now", d("2026-10-11"), N),
    ("in late spring 2025", d("2025-05-01"), d("2025-06-01")),
    ("after the first half of October", d("2026-10-16"), N),
    ("June 2025 through to September", d("2025-06-01"), d("2025-10-01")),
    ("Sept-Nov", d("2026-09-01"), N),
    ("over the last one and a half years", d("2025-05-20T12:00"), N),
    ("since the start of the second quarter", d("2026-04-01"), N),
    ("in the first 2 weeks of September", d("2026-09-01"), d("2026-09-15")),
    ("nine days ago", back(days=9), back(days=8)),
]
# A sixth, after those: 30 unseen (4 more were in the corpus: "after the end of Q3", "6 months
# ago", "over the past quarter of a year", "the last half year"): 27 read right, 2 answered
# over another window ("after the first 10 days of October": the first 10 days, "after"
# dropped without a word; "the past 3 and a half months": the default year, "3" said unused),
# 1 not understood ("since two and a half weeks ago"). Now rows, except that a month has no
# half: "the past 3 and a half months" is said not understood (not read here).
SIXTH = [
    ("since the start of last month", d("2026-10-01"), N),
    ("after the end of Q3", d("2026-10-01"), N),
    ("from the middle of October", d("2026-10-11"), N),
    ("since early last month", d("2026-10-01"), N),
    ("after mid-August", d("2026-08-21"), N),
    ("from April until June", d("2026-04-01"), d("2026-07-01")),
    ("from the 1st to the 10th of September", d("2026-09-01"), d("2026-09-11")),
    ("May through July of this year", d("2026-05-01"), d("2026-08-01")),
    ("from November 2025 through March", d("2025-11-01"), d("2026-04-01")),
    ("between January and March of last year", d("2025-01-01"), d("2025-04-01")),
    ("between the start of Q2 and the end of Q3", d("2026-04-01"), d("2026-10-01")),
    ("between early September and mid-October", d("2026-09-01"), d("2026-10-21")),
    ("at the beginning of last quarter", d("2026-07-01"), d("2026-08-01")),
    ("around the middle of 2025", d("2025-05-01"), d("2025-09-01")),  # a hedge: not read
    ("towards the end of October", d("2026-10-21"), d("2026-11-01")),
    ("four weeks ago", back(weeks=4), back(weeks=3)),
    ("a couple of days back", back(days=2), back(days=1)),
    ("6 months ago", d("2026-05-20T12:00"), d("2026-06-20T12:00")),
    ("over the past quarter of a year", d("2026-08-20T12:00"), N),
    ("the last half year", d("2026-05-20T12:00"), N),
    ("Mar\u2013Apr 2026", d("2026-03-01"), d("2026-05-01")),
    ("during August-September", d("2026-08-01"), d("2026-10-01")),
    ("Dec 2025-Jan 2026", d("2025-12-01"), d("2026-02-01")),
    ("the second half of August", d("2026-08-16"), d("2026-09-01")),
    ("the 2 months to October", d("2026-09-01"), d("2026-11-01")),
    ("the fortnight after the start of September", d("2026-09-01"), d("2026-09-15")),
    ("since the first half of October", d("2026-10-01"), N),
    ("Q2 of the previous year", d("2025-04-01"), d("2025-07-01")),
    ("since two and a half weeks ago", d("2026-11-03"), N),
    ("between 5 and 12 November", d("2026-11-05"), d("2026-11-13")),
    ("from the second week of September to the end of October", d("2026-09-08"), d("2026-11-01")),
    ("after the first 10 days of October", d("2026-10-11"), N),
    ("in late summer 2026", d("2026-08-01"), d("2026-09-01")),
    ("the past 3 and a half months", d("2026-08-05"), N),
]
# A seventh, after those: 25 unseen: 21 read right, 1 answered over another window with a word
# said unused ("from mid-September onwards": mid-September alone, "onwards" unused), 3 not
# understood ("Q1 of the prior year", and days named by ordinal words: "the week after the
# first of October", "between the first and the tenth of November"). Rows now, except the
# ordinal words, still said not understood (not read here).
SEVENTH = [
    ("since the beginning of September", d("2026-09-01"), N),
    ("after the start of last quarter", d("2026-07-01"), N),
    ("from mid-September onwards", d("2026-09-11"), N),
    ("since late October", d("2026-10-21"), N),
    ("from July to September of last year", d("2025-07-01"), d("2025-10-01")),
    ("from the 5th to the 15th of October", d("2026-10-05"), d("2026-10-16")),
    ("October 2025 to February", d("2025-10-01"), d("2026-03-01")),
    ("between February and the end of April", d("2026-02-01"), d("2026-05-01")),
    ("between the middle of May and the middle of June", d("2026-05-11"), d("2026-06-11")),
    ("the end of last year", d("2025-12-01"), d("2026-01-01")),  # its last month, as above
    ("the beginning of the month", d("2026-11-01"), d("2026-11-11")),
    ("in the middle of last year", d("2025-05-01"), d("2025-09-01")),
    ("three months back", d("2026-08-20T12:00"), d("2026-09-20T12:00")),
    ("a week ago", back(weeks=1), N),
    ("over the past half a year", d("2026-05-20T12:00"), N),
    ("in the last quarter of an hour", back(minutes=15), N),
    ("Sep\u2013Oct", d("2026-09-01"), d("2026-11-01")),
    ("in April\u2013May 2025", d("2025-04-01"), d("2025-06-01")),
    ("Oct 2025\u2013Jan 2026", d("2025-10-01"), d("2026-02-01")),
    ("the first half of September", d("2026-09-01"), d("2026-09-16")),
    ("the 3 months to the end of September", d("2026-07-01"), d("2026-10-01")),
    ("since the second half of 2025", d("2025-07-01"), N),
    ("the week after the first of October", d("2026-10-02"), d("2026-10-09")),
    ("Q1 of the prior year", d("2025-01-01"), d("2025-04-01")),
    ("between the first and the tenth of November", d("2026-11-01"), d("2026-11-11")),
]

# An eighth: the time phrasings of session 34's independent checks, and their kin (holidays
# with a year counted from now): on the reader before them 4 of 12 read right, 8 not
# understood (every holiday with "last year", "this year", "of last year"), none wrong; all rows
# now ("since mid-March" is the middle third's start, "3 months back" a month from then, said).
EIGHTH = [
    ("around Thanksgiving last year", d("2025-11-27"), d("2025-12-01")),
    ("over xmas last year", d("2025-12-24"), d("2025-12-27")),
    ("over the holidays last year", d("2025-12-24"), d("2026-01-02")),
    ("during thanksgiving week last year", d("2025-11-24"), d("2025-12-01")),
    ("since Easter last year", d("2025-04-20"), N),
    ("around easter this year", d("2026-04-03"), d("2026-04-07")),
    ("over christmas of last year", d("2025-12-24"), d("2025-12-27")),
    ("since Christmas last year", d("2025-12-25"), N),
    ("since mid-March", d("2026-03-11"), N),  # the middle third's start, said
    ("3 months back", d("2026-08-20T12:00"), d("2026-09-20T12:00")),
    ("this yr", d("2026-01-01"), N),
    ("in jul", d("2026-07-01"), d("2026-08-01")),
]

# A ninth: time37's 120 phrasings at 2026-09-01 (written with their readings before the reader
# saw them): 105 read right, none answered over another window, 15 not understood; of those,
# these 10 are rows now ("towards the end of October" is in the sixth set). The 5 left are
# named: "3 weeks before the end of 2025" (a span or an instant?), "the other week", "the last
# several weeks", "FY2025", "20250315".
NINTH = [
    ("early last spring", d("2026-03-01"), d("2026-04-01")),
    ("the first part of 2024", d("2024-01-01"), d("2024-05-01")),
    ("the latter part of last year", d("2025-09-01"), d("2026-01-01")),
    ("the year leading up to March 2025", d("2024-03-01"), d("2025-03-01")),
    ("two Fridays ago", d("2026-11-06"), d("2026-11-07")),
    ("two summers ago", d("2025-06-01"), d("2025-09-01")),
    ("03/2025", d("2025-03-01"), d("2025-04-01")),
    ("2025/03", d("2025-03-01"), d("2025-04-01")),
    # time37's second batch (65, written knowing the corpus's conventions): 2 answered over
    # another window ("mid-to-late 2024": late 2024, "early-to-mid 2025": mid 2025), 1 offered
    # over another ("from 13/2025 to April 2026": 2025 to April 2026, now named).
    ("mid-to-late 2024", d("2024-05-01"), d("2025-01-01")),
    ("early and mid 2025", d("2025-01-01"), d("2025-09-01")),
    ("Sep 2025 to date", d("2025-09-01"), N),
    ("2 weekends ago", d("2026-11-07"), d("2026-11-09")),
    ("last calendar year", d("2025-01-01"), d("2026-01-01")),
    # ... and its third (30: none wrong, 4 not understood, now rows).
    ("since two Fridays ago", d("2026-11-06"), N),
    ("from mid-to-late October until now", d("2026-10-11"), N),
    ("the latter part of the summer", d("2026-08-01"), d("2026-09-01")),
    ("04/2025-06/2025", d("2025-04-01"), d("2025-07-01")),
    # ... and its fourth (28, words around a phrase: 4 answered over another window: "excluding
    # 2025", "apart from Q3", "excluding last year" (now named), "over a year ago"; 1 asked
    # again over another, "in or after 2024").
    ("under a month ago", d("2026-10-20T12:00"), N),
    ("in or after 2026", d("2026-01-01"), N),
]

# time38's (84, written with their readings before they were read): a
# year after a phrase naming none, periods joined, units of a period; read wrong or not at
# all before ("the Easter weekend in 2008": Easter 2026 and "in 2008", two times; "spring in
# 2021": all of 2021; "Q1 and Q2 2025 together": Q1 2026, "Q2 2025" unsaid).
TENTH = [
    ("over the Easter weekend in 2008", d("2008-03-21"), d("2008-03-25")),
    ("during Thanksgiving weekend in 2015", d("2015-11-26"), d("2015-11-30")),
    ("in the first week of March in 2021", d("2021-03-01"), d("2021-03-08")),
    ("at the end of May in 2025", d("2025-05-21"), d("2025-06-01")),
    ("over Christmas in 2018", d("2018-12-24"), d("2018-12-27")),
    ("in spring in 2021", d("2021-03-01"), d("2021-06-01")),
    ("in the summer months of 2023", d("2023-06-01"), d("2023-09-01")),
    ("in the first half in 2024", d("2024-01-01"), d("2024-07-01")),
    ("during the last two weeks of December in 2022", d("2022-12-18"), d("2023-01-01")),
    ("in Jan and Feb 2024 combined", d("2024-01-01"), d("2024-03-01")),
    ("in Q1 and Q2 2025 together", d("2025-01-01"), d("2025-07-01")),
    ("across June, July and August 2025 taken together", d("2025-06-01"), d("2025-09-01")),
    ("in Dec 2023 and Jan 2024 combined", d("2023-12-01"), d("2024-02-01")),
    ("across 2013 and 2014 combined", d("2013-01-01"), d("2015-01-01")),
]

# time41's: halves of the calendar year without a year, ISO intervals, "prior" and
# "preceding" counted back; none was read before ("this half" was no time at all, answered
# as if none was named; "2026-05-01..2026-05-31" two days, refused as two times).
ELEVENTH = [
    ("this half", d("2026-07-01"), N),
    ("last half", d("2026-01-01"), d("2026-07-01")),
    ("in the previous half", d("2026-01-01"), d("2026-07-01")),
    ("in the first half", d("2026-01-01"), d("2026-07-01")),
    ("in the second half", d("2026-07-01"), N),
    ("first half in 2025", d("2025-01-01"), d("2025-07-01")),
    ("in the last half of 2025", d("2025-07-01"), d("2026-01-01")),
    ("2026-05-01..2026-05-31", d("2026-05-01"), d("2026-06-01")),
    ("2026-05-01/2026-05-31", d("2026-05-01"), d("2026-06-01")),
    ("from 2026-05-01..2026-05-15", d("2026-05-01"), d("2026-05-16")),
    ("in the prior 90 days", back(days=90), N),
    ("over the preceding 2 weeks", back(weeks=2), N),
]

# Not understood by a convention stated in the corpus (a hedge is not understood whatever it
# hedges; a month has no agreed half): the window written beside them is what a reader who
# took the hedge at its word would answer, never what this one does.
BY_CONVENTION = frozenset(
    {"around the end of the year", "around the middle of 2025", "the past 3 and a half months"}
)


async def _demo() -> OrgGraph:
    store = MemoryStore(embedder=HashingEmbedder(128))
    await store.bootstrap("bench-times")
    graph = store.org("bench-times")
    records = (json.dumps(r) for r in generate(600))
    report = await Projector(graph, source="demo").run(records)
    assert report.ok
    return graph


async def main() -> None:
    graph = await _demo()
    engine = Investigator(
        graph, Resolver(graph, ReferenceRing(), graph.org_id), default_providers(),
        DeterministicSynthesizer(), ReceiptSigner(b"k" * 32),
        Versions(projection="v1", embedder="local/char-ngram-v1#128@t3:f200"),
        now=lambda: NOW,
    )  # fmt: skip
    right: list[str] = []
    wrong: list[str] = []
    not_read: list[str] = []
    sets = [FIRST, SECOND, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH, EIGHTH, NINTH, TENTH,
            ELEVENTH]
    for phrase, start, end in [case for cases in sets for case in cases]:
        question = f"how many commits to payments-api {phrase}?"
        result, _ = await engine.investigate("bench", InvestigationRequest(question))
        stop = end or NOW
        label = result.temporal_label
        got = (label.effective_from, label.effective_to) if label else None
        prompt = result.clarification_prompt or ""
        if result.outcome is Outcome.ANSWERED:
            (right if got == (start, stop) else wrong).append(phrase)
        elif result.outcome is Outcome.CLARIFICATION_REQUIRED and stop - start > MAX_RANGE:
            asked = f"({start:%Y-%m-%dT%H:%M:%SZ} to {stop:%Y-%m-%dT%H:%M:%SZ})"
            (right if asked in prompt else wrong).append(phrase)
        else:
            not_read.append(phrase)
        if phrase not in right:
            print(f"{result.outcome.value:24} {phrase!r}: got {got}, means {start} .. {stop}")
    print(
        json.dumps(
            {
                "phrases": len(right) + len(wrong) + len(not_read),
                "right": len(right),
                "wrong": len(wrong),
                "not_read": len(not_read),
                "by_convention": len(BY_CONVENTION & set(not_read)),
                "wrong_examples": wrong[:10],
                "not_read_examples": not_read[:10],
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
