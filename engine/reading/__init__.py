"""Reading a question into an `Interpretation`: its references, intent, fact kinds and time, from
its words alone."""
