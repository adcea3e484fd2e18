"""References the question reads as who acted: "how many commits did dependabot make",
"what did dependabot update", "how many lines did hynek add", "dependabot's prs", "commits by
dependabot". A name that is both a person (or a bot) and a file ("dependabot":
dependabot[bot] and .github/dependabot.yml) is the person there (engine.resolving.actors): a
file makes no commits and opens no pull requests. It asked which of the two (checks c33, z33).

Only the shapes that put the name where the doer stands are read so: a question asking for
what was made ("what", "which", "how many/much" before "did/does/has/have/had", a verb of
doing after the name), the name right before what people make ("commits", "prs", "pull
requests") or right after "by". "Did dependabot.yml change?", "when did X last change",
"how many times did X change" and "changes to the dependabot config" ask about the subject
changing, so nothing here reads them.
"""

from __future__ import annotations

from engine.reading.references import Token
from engine.reading.verbs import DOING_VERBS

_AUXILIARIES = frozenset({"did", "does", "do", "has", "have", "had"})
# What a question asking for the things made opens with ("how many commits did X make").
_ASKING_WHAT = frozenset({"what", "which", "how"})
_NOT_MADE = frozenset({"times", "often"})  # "how many times did X change": X changed
_DOING = DOING_VERBS | {"do", "done", "doing"}
_MADE_BY = frozenset({"commits", "commit", "prs", "pr", "pull"})  # "dependabot prs"


def acting(tokens: list[Token], spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans read as who acted (see the module docstring)."""
    return [span for span in spans if _acts(tokens, span)]


def _acts(tokens: list[Token], span: tuple[int, int]) -> bool:
    inside = [i for i, t in enumerate(tokens) if span[0] <= t.start and t.end <= span[1]]
    if not inside:
        return False
    first, last = inside[0], inside[-1]
    before = tokens[first - 1].norm if first else ""
    after = tokens[last + 1].norm if last + 1 < len(tokens) else ""
    if before == "by" or after in _MADE_BY:
        return True
    if before not in _AUXILIARIES or after not in _DOING:
        return False
    lead = [t.norm for t in tokens[: first - 1]]
    asking = [i for i, w in enumerate(lead) if w in _ASKING_WHAT]
    if not asking:  # "did X make ...?": yes or no, whether X changed
        return False
    clause = lead[asking[-1] :]  # "since March, how many commits did X make"
    if clause[0] == "how" and clause[1:2] not in (["many"], ["much"]):
        return False  # "how did X change": X changed
    return not _NOT_MADE.intersection(clause)
