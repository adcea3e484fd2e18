"""Counts written as words, one table: every reading that takes a count (a ranking's size,
people ranked, a time counted back) reads a word as its digits, from here. There were three
tables (the time reader's to twelve, the ranking's one to ten, the intents' two to twenty),
so "the top twelve files" ranked ten and said "twelve" not understood where "the top 12
files" ranked twelve (tests/test_number_words.py).
"""

from __future__ import annotations

_SPELT = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
# Word -> value, in the order of the values ("a" is no number word: engine.reading.time.
# calendar reads "a week ago" as one of its own).
NUMBER_WORDS: dict[str, int] = {word: n for n, word in enumerate(_SPELT.split())}
