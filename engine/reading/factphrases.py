"""The fact kinds a question names by its fact phrases ("open PRs", "releases", "lines
changed"): read over the free tokens, taking their words (`fact_kinds`), and as written, to
be quoted back when nothing here records them (`fact_words`). The phrases:
engine/reading/vocabulary.py (FACT_VOCABULARY).
"""

from __future__ import annotations

import re

from engine.domain.facts import FactKind
from engine.domain.text import normalise
from engine.reading import references as r
from engine.reading import vocabulary as v


def fact_kinds(tokens: list[r.Token]) -> list[FactKind]:
    """Fact phrases over the free tokens, longest first at each position; consumes them."""
    kinds: list[FactKind] = []
    failure = False
    longest = max(len(p.split()) for p in v.FACT_VOCABULARY)
    i = 0
    while i < len(tokens):
        matched = 0
        for size in range(min(longest, len(tokens) - i), 0, -1):
            window = tokens[i : i + size]
            phrase = " ".join(t.norm for t in window)
            if all(t.free for t in window) and phrase in v.FACT_VOCABULARY:
                kinds.extend(k for k in v.FACT_VOCABULARY[phrase] if k not in kinds)
                for t in window:
                    t.free = False
                matched = size
                break
        failure = failure or (tokens[i].free and tokens[i].norm in v.FAILURE_WORDS)
        i += max(matched, 1)
    words = {t.norm for t in tokens}
    if FactKind.CHURN in kinds or v.LINE_WORDS & words:
        for t in tokens:  # "how many lines were added and removed in X?": the churn's sides
            t.free = t.free and t.norm not in v.LINE_SIDES
    if failure and FactKind.DEPLOY_FREQUENCY in kinds and FactKind.FAILED_DEPLOYS not in kinds:
        kinds.append(FactKind.FAILED_DEPLOYS)
    return kinds


_WORD = re.compile(r"[0-9A-Za-z]+")
_LONGEST = max(len(p.split()) for p in v.FACT_VOCABULARY)
FactWords = tuple[tuple[str, tuple[FactKind, ...]], ...]


def fact_words(question: str) -> FactWords:
    """The question's own words naming fact kinds ("releases", "open PRs"), as written, each
    with the kinds it names, longest phrase first at each position (as `fact_kinds` reads
    them): what an answer quotes back when nothing here records them."""
    spans = [(m.start(), m.end()) for m in _WORD.finditer(question)]
    out: list[tuple[str, tuple[FactKind, ...]]] = []
    i = 0
    while i < len(spans):
        for size in range(min(_LONGEST, len(spans) - i), 0, -1):
            text = question[spans[i][0] : spans[i + size - 1][1]]
            found = v.FACT_VOCABULARY.get(normalise(text))
            if found is not None:
                out.append((text, tuple(found)))
                i += size - 1
                break
        i += 1
    return tuple(out)
