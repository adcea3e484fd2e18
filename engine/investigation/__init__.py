"""The investigation: interpret, resolve, plan, read facts, synthesise, validate; reuse and
stages."""
