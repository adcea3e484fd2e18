"""The investigation engine, in layers: investigation > resolving > answering > reading >
providers | memory > ports > domain (docs/architecture.md; import-linter holds the order)."""
