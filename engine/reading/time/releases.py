"""Releases named in a question, as rows: which time phrases name releases by version ("since
8.4.1", "between v2.34.0 and v2.34.2", "from 8.4.1 to 8.4.2"), and which commit subjects
mark a release of a version (`MARKERS`). The import records no tags, but every history holds
its release commits, each project by its own convention: click "release version 8.4.1",
werkzeug "release version 3.1.8", requests "v2.34.0" and "Bump version and add release notes
for v2.32.4", attrs "Prepare 26.1.0". engine/resolving/releases.py places them in time.

A subject marks a release only when the whole subject is one row's shape and its version is
exactly the one asked: "start version 8.4.2", "Fix dev version in 8.4.1", "Bump version to
8.4.dev", "v2.34.0.dev1" (another version) and "Bump X from 1.2 to 1.3" mark none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

# A version as written ("8.4.1", "26.1.0", "2.0.0rc1"), its "v" apart.
_V = r"v?(?P<v>\d+(?:\.\d+)+(?:(?:a|b|rc)\d+)?)"


@dataclass(frozen=True, slots=True)
class Marker:
    """A shape of commit subject marking the release of its version."""

    name: str
    pattern: re.Pattern[str]


def _row(name: str, shape: str) -> Marker:
    return Marker(name, re.compile(rf"\s*{shape}\s*\.?\s*", re.IGNORECASE | re.ASCII))


MARKERS = (
    _row("release[d] [version] V", rf"releas(?:e|ed)(?:\s+version)?\s+{_V}"),
    _row("v V alone", r"v(?P<v>\d+(?:\.\d+)+(?:(?:a|b|rc)\d+)?)"),
    _row("prepare [release] V", rf"prepare(?:\s+release)?\s+{_V}"),
    _row(
        "bump version ... V with release notes",
        rf"bump\s+version\b(?=.*\brelease\s+notes\b).*?\s{_V}(?:\s.*)?",
    ),
    _row("version V alone", rf"version\s+{_V}"),
)


def marked(subject: str) -> tuple[str, Marker] | None:
    """The version whose release `subject` (a commit's subject line) marks, with its row."""
    for row in MARKERS:
        if (match := row.pattern.fullmatch(subject)) is not None:
            return match.group("v"), row
    return None


class Span(Enum):
    """How a phrase places its window between release commits."""

    SINCE = "since"  # [V's commit, now)
    BETWEEN = "between"  # (V1's commit, V2's commit]


@dataclass(frozen=True, slots=True)
class Asked:
    """A time phrase naming releases by version."""

    phrase: str
    span: Span
    versions: tuple[str, ...]


_VERSION = rf"(?:(?:the\s+)?(?:release|version|tag)\s+)?{_V}(?:\s+(?:release|version|tag))?"
_PHRASES = (
    (Span.SINCE, re.compile(rf"since\s+(?:the\s+)?{_VERSION}", re.I | re.A)),
    (Span.BETWEEN, re.compile(
        rf"(?:between|from)\s+(?:the\s+)?{_VERSION.replace('<v>', '<a>')}"
        rf"\s+(?:and|to|through|until)\s+(?:the\s+)?{_VERSION.replace('<v>', '<b>')}",
        re.I | re.A,
    )),
)  # fmt: skip


def asked(phrase: str) -> Asked | None:
    """The releases a time phrase names, when it is one of the phrases placed (`_PHRASES`)."""
    for span, pattern in _PHRASES:
        if (match := pattern.fullmatch(phrase.strip())) is None:
            continue
        found = match.groupdict()
        versions = (found["v"],) if span is Span.SINCE else (found["a"], found["b"])
        return Asked(phrase, span, versions)
    return None
