"""The time-phrase corpus (tests/data/time_phrases.tsv): every phrase read alone at the
corpus's instant, its whole text one phrase, with the reading the corpus gives; a phrase the
corpus marks not understood is named, never read as another window, when read as a question
(its time and the words beside it). The conventions are
stated once, in the corpus's header. Adding a phrasing is a row in
engine/reading/time/rules.py and a line there."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from engine.reading.interpreter import interpret
from engine.reading.time.phrases import read_time

CORPUS = Path(__file__).parent / "data" / "time_phrases.tsv"
NOW = datetime(2026, 11, 18, 10, 30, tzinfo=UTC)


def _rows() -> list[tuple[str, str]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            phrase, reading = line.split("\t")
            rows.append((phrase, reading))
    return rows


def _instant(text: str) -> datetime | None:
    if text == "now":
        return None
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _up_to_now(end: datetime | None) -> datetime | None:
    """An end at the corpus's instant is the same reading as an open end (up to now)."""
    return None if end == NOW else end


def test_the_corpus_is_large_and_each_phrase_is_once() -> None:
    phrases = [p for p, _ in _rows()]
    assert len(phrases) >= 400
    assert len(set(phrases)) == len(phrases)


@pytest.mark.parametrize(("phrase", "reading"), _rows(), ids=[p for p, _ in _rows()])
def test_phrase(phrase: str, reading: str) -> None:
    read = read_time(phrase, NOW)
    if reading == "not understood":
        assert interpret(phrase, NOW).union is None, phrase
        # Read as a question: a word beside the phrase that nothing read but that could
        # change it ("since Jan '23") is named too (engine.reading.time.beside).
        asked = interpret(phrase, NOW)
        assert asked.time_not_understood, (phrase, asked)
        assert (asked.time_expression, asked.as_of, asked.start, asked.end) == (
            None, None, None, None
        ), (phrase, asked)
        return
    if " + " in reading:  # a union of windows (engine/reading/time/unions.py)
        asked = interpret(phrase, NOW)
        assert asked.union is not None, (phrase, read)
        assert (asked.time_expression, asked.start, asked.end) == (None, None, None), phrase
        got = [(w.start, _up_to_now(w.end)) for w in asked.union.windows]
        windows = [tuple(_instant(x.strip()) for x in w.split("..")) for w in reading.split("+")]
        assert got == windows, (phrase, got)
        return
    if reading == "not a date":
        assert read.not_a_date, (phrase, read)
        assert read.match is None, (phrase, read.match)
        return
    match = read.match
    assert match is not None, (phrase, read)
    assert phrase[match.start : match.end] == phrase, (phrase, phrase[match.start : match.end])
    assert (read.not_understood, read.ignored) == ([], []), (phrase, read)
    if reading.startswith("@"):
        got = (match.as_of, match.start_at, match.end_at)
        at = NOW if reading == "@now" else _instant(reading[1:])
        assert got == (at, None, None), (phrase, got)
        return
    start, end = (_instant(part.strip()) for part in reading.split(".."))
    assert match.as_of is None, (phrase, match)
    assert (match.start_at, _up_to_now(match.end_at)) == (start, end), (phrase, match)
