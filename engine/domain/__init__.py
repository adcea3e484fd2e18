"""The values everything else is written in: models, facts, evidence, the result contract, time
context, text."""
