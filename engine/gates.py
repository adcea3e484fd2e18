"""Confidence constants of reference resolution, in one place. None may move casually.

The gates decide when a candidate is committed instead of offered for clarification:
never silently pick among close candidates.
"""

# A lone candidate commits at this confidence or above.
LONE_COMMIT = 0.72
# With two or more candidates, the top one commits only this confident, and ...
TOP_COMMIT = 0.88
# ... only with this lead over the runner-up.
TOP_LEAD = 0.12

# A candidate found by the vector arm alone is capped strictly below LONE_COMMIT (and so
# below TOP_COMMIT): a vector hit alone can never commit a subject. That is arithmetic, not a
# rule someone could forget: raising this to LONE_COMMIT or above repeals the guarantee.
VECTOR_CEILING = 0.70

# Found by both arms: the lexical confidence plus a bonus, capped strictly below TOP_COMMIT,
# so two corroborated candidates still ask to clarify. A corroborated candidate commits alone
# (LONE_COMMIT) only when its handle resembles the reference (similarity >= 0.65).
CORROBORATION_BONUS = 0.06
CORROBORATED_CEILING = 0.86

# Found by the lexical arm alone: scaled by how closely the reference matches a handle
# (name, alias, previous name); a near-identical handle can still commit alone.
LEXICAL_BASE = 0.40
LEXICAL_CEILING = 0.80

# The reference equals one of the candidate's handles (case and punctuation aside). Above
# TOP_COMMIT, so with a clear lead it commits; two such candidates stay ambiguous.
EXACT_HANDLE = 0.95

# The reference is a handle token for token, but with typo-sized edits (one edit in tokens
# under 7 characters, two in longer ones; a swap of neighbours counts as one). Above
# TOP_COMMIT and below EXACT_HANDLE: it commits when nothing else comes within TOP_LEAD (a
# sibling that lacks one of its tokens, "Review Sync Service" for "Review Sync 3 Serivce",
# scores about 0.79); two such stay ambiguous.
NEAR_EXACT = 0.92
NEAR_EXACT_SIMILARITY = 0.999  # the handle score that marks a near-exact match

# Below this a hybrid hit is not offered at all: a reference matching one token of a
# two-token handle (a lexical-only hit at similarity ~0.5) is noise, not a competitor, and
# counting it as one would keep every typo from committing.
CANDIDATE_FLOOR = 0.65

# The similarity floor (tau) of the vector arm: a k-NN query always returns k rows; without
# a floor "nothing similar" would become a confident wrong subject.
SIMILARITY_FLOOR = 0.50

# Stage confidences from the deterministic stages (see engine.resolution).
ID_CONFIDENCE = 1.0
EXACT_NAME_CONFIDENCE = 0.98
RING_EXACT_CONFIDENCE = 0.95
RING_SUBSTRING_CONFIDENCE = 0.70
RING_COMMIT = 0.70

# The hybrid stage searches at least this deep whatever the caller's limit: a short candidate
# list must not also mean a shallow search.
MIN_SEARCH_DEPTH = 20
# How many subjects containing every token of the reference are read to settle whether an
# identical handle is unique; past this, uniqueness is unknown and the answer is ambiguous.
ALL_TOKENS_DEPTH = 50
# Reciprocal-rank fusion constant.
RRF_K = 60
