"""A question's subjects, references and time, chosen against the organisation's graph."""
