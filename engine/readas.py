"""Verbs read as another one, said beside the answer (engine.meaning): what git records is
who authored a commit, and the commits of the branch imported.

"pushed" is read as authored: who pushed a commit is not in the history. "landed" is read as
committed: "how many commits landed in 2025?" named "landed" as not understood; the commits of
the branch imported are the ones that landed, counted by author time (no landing time is
kept).
"""

from __future__ import annotations

from engine.vocabulary import LANDS

PUSHES = frozenset({"push", "pushed", "pushes", "pushing"})
PUSH_NOTE = (
    "read as authored: who pushed a commit is not in the history, only who authored it "
    "(a push is not recorded by git)."
)
LAND_NOTE = (
    "read as committed: every commit imported is in the history of the branch imported, so "
    "it has landed; commits are counted by their author time (when each one landed, its merge "
    "or commit time, is not recorded)."
)
READ_AS = {**dict.fromkeys(PUSHES, PUSH_NOTE), **dict.fromkeys(LANDS, LAND_NOTE)}
