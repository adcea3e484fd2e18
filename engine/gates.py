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

# Found by both arms: between LONE_COMMIT (a lone corroborated candidate may commit) and a
# ceiling strictly below TOP_COMMIT, so two corroborated candidates still ask to clarify.
CORROBORATED_FLOOR = 0.72
CORROBORATED_CEILING = 0.86

# Found by the lexical arm alone: scaled by how closely the reference matches a handle
# (name, alias, previous name); a near-identical handle can still commit alone.
LEXICAL_BASE = 0.40
LEXICAL_CEILING = 0.80

# The reference equals one of the candidate's handles (case and punctuation aside). Above
# TOP_COMMIT, so with a clear lead it commits; two such candidates stay ambiguous.
EXACT_HANDLE = 0.95

# Below this a hybrid hit is not offered at all: it would only be noise in a clarification.
CANDIDATE_FLOOR = 0.50

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
# Reciprocal-rank fusion constant.
RRF_K = 60
