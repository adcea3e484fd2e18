"""Which people are bots: the accounts that commit for a tool, not for a person.

No source says so in a field of its own, so the name tells: GitHub apps commit as
`<app>[bot]` (dependabot[bot], pre-commit-ci[bot], pre-commit-ci-lite[bot],
dependabot-preview[bot]: click, werkzeug, requests and attrs all hold some), and other tools
name themselves "... Bot" (attrs' "Step Security Bot", bot@stepsecurity.io). GitHub's own
automation has committed without "[bot]" too, as "github-actions" and "GitHub Action" (a
workflow's default author before the app's name was used): those names, and no other, are
a closed list (TOOL_NAMES). A name with "bot" inside a word (Antonio Botelho, a catbot.net
address) is a person's; so is any name not in that rule, whatever its address.
"""

from __future__ import annotations

from engine.domain.text import normalise

# GitHub's automation committing under a name without "[bot]", folded as normalise does.
TOOL_NAMES = frozenset({"github actions", "github action"})


def is_bot(name: str) -> bool:
    """The name is a bot's: it ends with "[bot]", its last word is "bot", or it is one of
    TOOL_NAMES."""
    lowered = name.strip().lower()
    if lowered.endswith("[bot]"):
        return True
    folded = normalise(name)
    words = folded.split()
    return (bool(words) and words[-1] == "bot") or folded in TOOL_NAMES
