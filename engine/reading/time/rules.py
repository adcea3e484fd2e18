"""The time rules, one row each: a name, a pattern built from the named sub-patterns of
engine/reading/time/patterns.py, the resolution that turns a match into instants at a
reference instant `now`, and the note that states how it was read. A composition rule's
pattern holds a slot (`patterns.POINT`, `patterns.PERIOD`) that an already-read value fills:
`point_of` and `period_of` (engine/reading/time/compositions.py) read the slot's words with
the value rows (`VALUES`), so "since", "after", "before", "from ... to", "between ... and"
take any point or period the reader knows, and a new value phrase is one new row there.

Overlaps are settled by one ranker (engine.reading.time.phrases.read_time): the phrase that
starts first, then the longest, then the row listed first.

Conventions, each stated beside the answer where it applies: a period is half-open
[start, stop) and a period under way stops at `now`; "between X and Y" and "X to Y" include
Y whole; a month, quarter or day without a year is the most recent one that has started (a
period of a month or more under a tenth of which has passed: the one before, periods.meant; a
range's first end without a year takes its last end's, a last end without one the first's);
weeks run Monday to Sunday (ISO) except "the first week of May" (its days 1-7); seasons are
the northern meteorological ones; "lately" and its kin are the last 90 days; "a couple" is
2, "a few" 3; "the beginning / middle / end of P" alone is P's first / middle / last third
(as early / mid / late), and after "since", "after", "before", "until", "from" or "to" the
instant it names: P's start, the start of its middle third, P's end; the first half of a
month is its days 1-15; "a year and a half ago" is 18 months back; "the N units to X" end
with X whole, "before X" where X starts, "after X" start where X ends, "from X" where it
starts.
"""

from __future__ import annotations

from engine.reading.time.alone import ALONE
from engine.reading.time.composed import COMPOSED
from engine.reading.time.counted import COUNTED
from engine.reading.time.dated import DATED
from engine.reading.time.halves import HALVES
from engine.reading.time.portions import PORTIONS
from engine.reading.time.ranges import RANGES
from engine.reading.time.ruletype import Rule

# In this order: a tie between two rows (same start, same length) goes to the one listed first.
RULES: list[Rule] = [*RANGES, *DATED, *COUNTED, *ALONE, *PORTIONS, *COMPOSED, *HALVES]
