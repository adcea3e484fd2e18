"""Confidence constants of reference resolution, in one place. None may move casually.

The gates decide when a candidate is committed instead of offered for clarification:
never silently pick among close candidates.
"""

import hashlib

# A lone candidate commits at this confidence or above.
LONE_COMMIT = 0.72
# With two or more candidates, the top one commits only this confident, and ...
TOP_COMMIT = 0.88
# ... only with this lead over the runner-up.
TOP_LEAD = 0.12

# A candidate found by the vector arm alone is capped strictly below LONE_COMMIT (and so
# below TOP_COMMIT): a vector hit alone can never commit a subject. The vector arm adds
# candidates and orders equals; it never adds to a lexical candidate's confidence, so it can
# never be what lifts a lexical tie over a bar.
VECTOR_CEILING = 0.70

# Found by the lexical arm: a reference whose every token is a token of a handle scores by
# how much of the handle it covers (the F-score of tokens), from LEXICAL_BASE to
# LEXICAL_CEILING. A lone one commits (LONE_COMMIT) when it covers two thirds of the
# handle or more ("customer identity" for "customer-identity-service"); a first name alone
# ("Moritz" for "Moritz Klein", 0.67) never does.
LEXICAL_BASE = 0.40
LEXICAL_CEILING = 0.80
# Tokens that match only with typos ("custmer identiy"): capped below LONE_COMMIT, so only a
# single-edit match (TYPO) commits a misspelt reference.
FUZZY_CEILING = 0.70

# The reference is one of the subject's handles as written (EXACT) or once folded: case,
# accents, punctuation, a trailing kind word (FOLDED). Decided by the exact-name read over
# the storage total: one such subject commits, two or more are ambiguous.
EXACT_NAME_CONFIDENCE = 0.98
FOLDED_CONFIDENCE = 0.95

# One edit (insertion, deletion, substitution or swap of neighbours, spaces included) from
# a whole handle. Above TOP_COMMIT and below FOLDED_CONFIDENCE: it commits when nothing
# else comes within TOP_LEAD; two such stay ambiguous; and a subject with every token of the
# reference as written always ranks above it ("Andrey" is the Andreys, not Andrei).
TYPO = 0.92
# References shorter than this (letters and digits) are never taken as typos: one edit in
# three letters ("cli"/"clk") is another word as often as a typo.
TYPO_MIN_CHARS = 4

# Below this a hybrid hit is not offered at all: a reference matching one token of a
# two-token handle with a typo is noise, not a competitor, and counting it as one would keep
# every typo from committing. A subject with every token of the reference as written is a
# competitor whatever its score ("Moritz" for "Moritz Maria Klein", 0.60): it is never left
# out for another to commit.
CANDIDATE_FLOOR = 0.65

# The similarity floor (tau) of the vector arm: a k-NN query always returns k rows; without
# a floor "nothing similar" would become a confident wrong subject.
SIMILARITY_FLOOR = 0.50

# The id stage: the caller named a subject by id or key.
ID_CONFIDENCE = 1.0

# The hybrid stage searches at least this deep whatever the caller's limit: a short candidate
# list must not also mean a shallow search.
MIN_SEARCH_DEPTH = 20
# How many subjects containing every token of the reference are read: they are the
# competitors of a partial match. Past this, not all of them are known and a partial match
# (PREFIX, SEARCH) does not commit.
ALL_TOKENS_DEPTH = 50
# How many subjects with an identical handle an ambiguous answer lists at most (and at least
# the caller's limit); the total is always the storage's count.
EXACT_SAMPLE = 10
# Runners-up a Resolved answer shows, and "did you mean" suggestions a NotFound answer shows.
RUNNERS_UP = 3
# Reciprocal-rank fusion constant.
RRF_K = 60


def retrieval_policy_version() -> str:
    """The identity of the retrieval policy: every gate, the similarity floor (tau) and the
    search depths above. Part of the answer-reuse key (and stamped on every result), so an
    answer resolved under other gates is never reused; derived from the values themselves,
    so moving one cannot be forgotten in a hand-bumped version."""
    values = sorted(
        (name, value)
        for name, value in globals().items()
        if name.isupper() and isinstance(value, int | float)
    )
    digest = hashlib.sha256(repr(values).encode()).hexdigest()[:12]
    return f"rp:{digest}"
