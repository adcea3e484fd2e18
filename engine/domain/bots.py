"""Which people are bots: the accounts that commit for a tool, not for a person.

No source says so in a field of its own, so the name tells: GitHub apps commit as
`<app>[bot]` (dependabot[bot], pre-commit-ci[bot], pre-commit-ci-lite[bot],
dependabot-preview[bot]: click, werkzeug, requests and attrs all hold some), and other tools
name themselves "... Bot" (attrs' "Step Security Bot", bot@stepsecurity.io). A name with
"bot" inside a word (Antonio Botelho, a catbot.net address) is a person's.
"""

from __future__ import annotations

from engine.domain.text import normalise


def is_bot(name: str) -> bool:
    """The name is a bot's: it ends with "[bot]", or its last word is "bot"."""
    lowered = name.strip().lower()
    if lowered.endswith("[bot]"):
        return True
    words = normalise(name).split()
    return bool(words) and words[-1] == "bot"
