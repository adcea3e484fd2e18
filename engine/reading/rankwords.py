"""Words that ask for subjects ranked by their changes without "most" or "top", as rows
(engine/reading/ranking.py reads them and takes their words).

Business words name a ranking of their own: "the hotspots of src/requests", "the biggest
areas of change in click", "the full ranking of files in attrs". Each ended a clear question
on a word "not understood" (z39a A3, A4, A10; click "biggest": "ranking changes by their size
is not computed"), so the answerable ranking, the files ranked by their commits in the window,
was never given. What each word is read as is said beside the ranking (`note`), never
silently: "biggest" could mean the size of the changes, so the answer says it ranked by
commits and how to rank by lines.

A row: its name, the words (normalised, one token each), what it does to the ranking
(`role`), and its note (None: nothing to say beyond the ranking's own "ranked by commits").
Roles:
- "hotspot": the word asks for the subjects changed most, files unless a kind word names
  modules or folders ("which modules are the hotspots?"); it is also what is ranked ("the
  top 5 hotspots").
- "rank": "ranking", "rank", "leaderboard" beside what is ranked (files, modules, parts,
  hotspots), never beside people (those are a "who" answer).
- "size": a word of size before what is ranked ("the biggest hotspots", "the largest areas
  of change"): ranked by commits, said.
- "main": "the main hotspots", "the key areas": the first of the ranking, nothing to say.
- "whole": the whole ranking asked ("the full ranking", "a complete list", "all of them",
  "every file"): every subject that qualifies, up to the most one answer ranks (said).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RankWord:
    """One row: its name, its words, its role (see the module), and the note said beside the
    ranking when the word is read (None: nothing)."""

    name: str
    words: frozenset[str]
    role: str
    note: str | None = None
    # Said instead when lines are asked ("the biggest hotspots by lines"): None, nothing.
    lines_note: str | None = None


RANK_WORDS = (
    RankWord(
        "hotspots",
        frozenset({"hotspots", "hotspot", "hotspotting"}),
        "hotspot",
        "read as the files changed most (the modules, where modules are asked for), ranked "
        "by their commits in the window; ask \"by lines changed\" to rank them by lines.",
        "read as the files changed most (the modules, where modules are asked for), ranked "
        "by the lines changed in the window, as asked.",
    ),
    RankWord(
        "ranking", frozenset({"ranking", "rankings", "rank", "ranked", "leaderboard"}), "rank"
    ),
    RankWord(
        "size",
        frozenset({"biggest", "largest", "heaviest", "greatest"}),
        "size",
        "ranked by the number of commits in the window, not by the size of the changes; ask "
        "\"by lines changed\" to rank by the lines added and removed.",
    ),
    RankWord("main", frozenset({"main", "key", "principal", "primary", "chief"}), "main"),
    RankWord("whole", frozenset({"full", "complete", "entire", "whole", "all", "every"}), "whole"),
)
_BY_ROLE = {row.role: row for row in RANK_WORDS}


def words_of(role: str) -> frozenset[str]:
    """The words of the row of `role`."""
    return _BY_ROLE[role].words


def note_of(role: str, lines: bool = False) -> str | None:
    """The note of the row of `role` (`lines`: lines are what is ranked)."""
    row = _BY_ROLE[role]
    return row.lines_note if lines else row.note


# "hot spots" written apart: the second word is the hotspot word, the first goes with it.
HOT = "hot"
SPOTS = frozenset({"spots", "spot"})
# What "whole" is said of: "the full ranking", "a complete list", "all of them".
WHOLE_OF = frozenset({"ranking", "rankings", "list", "listing", "breakdown", "leaderboard"})
WHOLE_PRONOUNS = frozenset({"them", "those", "these"})
# What "hotspots" ranks besides files: "which modules are the hotspots?" ("the src/attr
# package" names where, not what is ranked: its files).
MODULES_ASKED = frozenset({"modules", "packages", "submodules", "subpackages", "pkgs"})
