"""The steps of engine.reading.interpreter.interpret, each a part of the reading by its job:
the words read first (steps/words.py), what is asked (steps/asking.py), two periods compared
(steps/compared.py), what is said beside the answer (steps/said.py), over one Draft
(steps/draft.py). They call the passes in the order of engine/reading/claims.py."""
