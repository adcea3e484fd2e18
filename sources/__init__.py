"""Data sources: programs that produce projection records (docs/projection-format.md) for the
graph to load. They know the record format and nothing of a store, HTTP or GraphQL.

* sources/demo/: a deterministic synthetic organisation (`fabric demo-data`, `serve --demo`).
* The other source, git history (`fabric import git`), stays under graph/git/ for now: it
  writes through the projection loader directly.
"""
