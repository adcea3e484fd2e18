"""The type of a time rule (engine/reading/time/rules.py, engine/reading/time/composed.py): a
name, a pattern built from the named sub-patterns of engine/reading/time/patterns.py, the
resolution that turns a match into instants at a reference instant `now`, and the note that
states how it was read, in one place."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from engine.domain import timecontext as tc
from engine.reading.time import spans
from engine.reading.time.compositions import Groups, Resolve


@dataclass(frozen=True)
class Rule:
    """One phrasing: its pattern, how a match resolves, how the reading is stated.

    note: the reading stated for the phrase matched (a convention, a vague word); `alone`:
    that note is the only one said (else a slash date's, a holiday's or "a few"'s comes
    first). period: the own period of a point phrase (what a question counting over time
    reads instead of the point: "on 2026-08-18" is that day)."""

    name: str
    pattern: str
    resolve: Resolve
    note: Callable[[str], str | None] | None = None
    alone: bool = False
    period: Callable[[Groups, datetime, datetime], tc.Period | None] | None = None

    @cached_property
    def compiled(self) -> re.Pattern[str]:
        # At the first question, not at import: compiling every row took most of a gateway
        # worker's import (1.2 of 2.7 CPU s), which a restart waits for before /readyz.
        return re.compile(self.pattern, re.IGNORECASE | re.ASCII)

    def stated(self, phrase: str) -> str | None:
        own = self.note(phrase) if self.note else None
        return own if self.alone else spans.general_note(phrase, own)
