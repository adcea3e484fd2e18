"""bench/generalise.py's instrument: its truth from git on a tiny history made here, its
judgment of canned answers (a right one, a wrong one said or unsaid, a no-match, a tie settled
by memory), and one short run of the real engine over the tiny history."""

from __future__ import annotations

import ast
import asyncio
import json
import random
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bench import generalise, generalise_cases, generalise_truth, generalise_windows
from bench.generalise_judge import judge, tally
from tests import gitrepo

NOW = datetime(2026, 9, 1, 12, tzinfo=UTC)
ADA = ("Ada Lovelace", "ada@corp.example")
GRACE = ("Grace Hopper", "grace@corp.example")
KELLY = ("Grace Kelly", "kelly@corp.example")


def build(path: Path) -> gitrepo.Repo:
    """pkg/ (with a subpackage) moved whole to src/pkg/ 100 days before NOW; three people,
    two of them Grace."""
    repo = gitrepo.Repo(path, now=NOW)
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/sub/__init__.py", "")
    repo.lines("pkg/core.py", 5, "a")
    repo.commit(ADA, 300, "start")  # 2025-11-05
    repo.lines("pkg/sub/util.py", 3, "b")
    repo.commit(GRACE, 200, "util")
    repo.lines("pkg/core.py", 2, "c")
    repo.commit(KELLY, 150, "core")
    (path / "src").mkdir()
    repo.git("mv", "pkg", "src/pkg")
    repo.commit(ADA, 100, "src layout")
    repo.lines("src/pkg/core.py", 4, "d")
    repo.commit(GRACE, 50, "core again")
    repo.lines("tests/test_core.py", 6, "e")
    repo.commit(KELLY, 10, "tests")
    return repo


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    gitrepo.require_git()
    path = tmp_path_factory.mktemp("tiny") / "shop"
    path.mkdir()
    build(path)
    return path


def test_truth_follows_the_move_and_groups_people(tiny: Path) -> None:
    history = generalise_truth.read(tiny, "shop")
    assert len(history.commits) == 6
    narrow, _ = generalise_truth.scopes(history, "src/pkg")
    assert "pkg" in narrow.roots
    whole = generalise_truth.figures(history, narrow, 0, int(NOW.timestamp()))
    # Every commit but the one to tests/ touched the package, before or after the move.
    assert whole.commits == 5 and whole.people == 3
    assert generalise_truth.people_named(history, "grace") == sorted(
        {history.person_of["Grace Hopper"], history.person_of["Grace Kelly"]}
    )
    core = generalise_truth.file_scope(history, "src/pkg/core.py")
    followed = gitrepo.Repo(tiny).git("log", "--follow", "--format=%H", "--", "src/pkg/core.py")
    assert (
        generalise_truth.figures(history, core, 0, int(NOW.timestamp())).commits
        == len(followed.split())
        == 4
    )  # the move commit too, as git log --follow lists it


def _cases(tiny: Path, count: int) -> list[dict[str, Any]]:
    bank = json.loads(generalise.BANK.read_text())
    history = generalise_truth.read(tiny, "shop")
    builder = generalise_cases.Builder(history, bank, NOW, random.Random(7))
    return [c.as_json() for c in builder.cases(count)]


def _answer(
    case: dict[str, Any], shift: int = 0, note: str | None = None, before: int = 0
) -> dict[str, Any]:
    """What an engine answering CASE with its figure plus SHIFT would print (two periods
    compared: the earlier one's commits plus BEFORE beside)."""
    start, end = case["window"]
    key = case["subject_key"] or f"person:{case['person_emails'][0]}"
    kinds = {"commits": ("commit_activity", "commits"), "changes": ("changes", "changes"),
             "lines": ("churn", "lines_changed"), "people": ("active_contributors", "contributors"),
             "bus": ("bus_factor", "bus_factor"), "compared": ("churn", "commits")}  # fmt: skip
    if case["metric"] in ("top", "top_humans"):
        value = {"top_names": case["top_names"][:1], "top_commits": [case["figure"] + shift]}
        kind = "active_contributors"
    else:
        kind, name = kinds[case["metric"]]
        value = {name: case["figure"] + shift}
        if case["metric"] == "compared":
            value["prior_commits"] = case["before_figure"] + before
    at = {k: datetime.fromtimestamp(t, UTC).isoformat().replace("+00:00", "Z")
          for k, t in (("effective_from", start), ("effective_to", end))}  # fmt: skip
    return {"outcome": "answered", "subject_keys": [key], "temporal_label": at,
            "claimed_facts": [{"kind": kind, "subject_key": key, "value": value}],
            "limitations": [note] if note else []}  # fmt: skip


def test_a_right_engine_is_as_expected_and_a_wrong_one_is_caught(tiny: Path) -> None:
    """An engine off by one on every figure: every answer due is counted wrong, silent
    when nothing is said, disclosed when a limitation names the subject."""
    cases = [c for c in _cases(tiny, 60) if c["expect"] == "answered"]
    assert len(cases) >= 20
    right = [judge(c, _answer(c)) for c in cases]
    assert tally(right)["as_expected"] == len(cases)
    wrong = [judge(c, _answer(c, shift=1)) for c in cases]
    assert tally(wrong)["wrong_silent"] == len(cases)
    said = [judge(c, _answer(c, 1, f"read {c['salient'][0]!r} as something else")) for c in cases]
    assert tally(said)["wrong_disclosed"] == len(cases)
    # two periods compared: the earlier period's commits are judged too
    compared = [c for c in cases if c["metric"] == "compared"]
    assert compared and all(judge(c, _answer(c, before=1))["why"].startswith("commits before")
                            for c in compared)  # fmt: skip


def test_outcomes_against_expectations() -> None:
    base = {"metric": "commits", "salient": ["Ada Smith", "in 2025"], "window": None}
    absent = base | {"expect": "no_match"}
    assert judge(absent, {"outcome": "no_match"})["bucket"] == "as_expected"
    assert judge(absent, {"outcome": "clarification_required"})["bucket"] == "as_expected"
    everyone = {"outcome": "answered", "subject_keys": ["repository:shop"],
                "limitations": ['"Ada Smith" names no one known here: the count is everyone\'s.']}  # fmt: skip
    assert judge(absent, everyone) == {
        "bucket": "wrong_disclosed", "why": "answered where no_match was due"}  # fmt: skip
    assert judge(absent, everyone | {"limitations": []})["bucket"] == "wrong_silent"
    unread = ['Not understood, so not used: "during", "migration".']
    assert judge(absent, everyone | {"limitations": unread})["bucket"] == "wrong_disclosed"
    due = base | {"expect": "answered", "subject_key": "module:shop/src/pkg", "figure": 3}
    assert judge(due, {"outcome": "clarification_required"})["bucket"] == "clarification"
    assert judge(due, {"outcome": "REFUSED"})["bucket"] == "refused"
    other = {"outcome": "answered", "subject_keys": ["module:shop/src/pkg/core.py"],
             "claimed_facts": [{"kind": "commit_activity", "subject_key": "module:shop/src/pkg/core.py",
                                "value": {"commits": 3}}]}  # fmt: skip
    assert judge(due, other)["why"].startswith("subject")
    zero = due | {"figure": 0}
    nothing = {"outcome": "answered", "subject_keys": ["module:shop/src/pkg"],
               "limitations": ["No activity records of pkg fall in this window."]}  # fmt: skip
    assert judge(zero, nothing)["bucket"] == "as_expected"
    assert judge(due, nothing)["why"] == "commits 0 instead of 3"


def test_a_tie_is_settled_by_memory_only_for_the_one_asked_about() -> None:
    tie = {"expect": "clarification", "metric": "commits", "salient": ["Grace"],
           "ties": [["person:grace@corp.example"], ["person:kelly@corp.example"]]}  # fmt: skip
    kelly = {"outcome": "answered", "subject_keys": ["person:kelly@corp.example"]}
    assert judge(tie, kelly)["bucket"] == "wrong_silent"
    assert judge(tie, kelly, {"person:kelly@corp.example"})["bucket"] == "as_expected"
    both = {"person:kelly@corp.example", "person:grace@corp.example"}
    assert judge(tie, kelly, both)["bucket"] == "wrong_silent"
    assert judge(tie, kelly, {"person:grace@corp.example"})["bucket"] == "wrong_silent"


def test_the_real_engine_over_the_tiny_history(tiny: Path, tmp_path: Path) -> None:
    """One short run through `fabric import git` and the engine: every question judged in
    both modes, the counts adding up."""
    from bench.generalise_ask import import_history

    cases = _cases(tiny, 24)
    summary = import_history(tiny, "shop", tmp_path / "data")
    assert summary["exit_status"] == 0 and summary["commits"] == 6
    rows = asyncio.run(generalise.ask_all(tmp_path / "data", "shop", NOW, cases,
                                          ["fresh", "session"]))  # fmt: skip
    for mode in ("fresh", "session"):
        counts = tally([r["verdict"] for r in rows[mode]])
        assert counts["questions"] == len(cases) and counts["failed"] == 0
        assert sum(v for k, v in counts.items() if k != "questions") == len(cases)


WERKZEUG = Path(__file__).resolve().parents[1]
WERKZEUG_BUNDLE = next(
    (p / "shared" / "data" / "werkzeug.bundle" for p in WERKZEUG.parents
     if (p / "shared" / "data" / "werkzeug.bundle").exists()),
    None,
)  # fmt: skip


@pytest.mark.skipif(WERKZEUG_BUNDLE is None, reason="../shared/data/werkzeug.bundle is absent")
def test_a_move_out_of_another_subject_has_no_single_truth(tmp_path: Path) -> None:
    """werkzeug's test suite lived in werkzeug/testsuite (inside the package) until 2014:
    git log -- tests counts none of its 206 commits of 2013-04-11..06-16, following the move
    counts them all. Both readings are kept apart, so no case asks about that window."""
    gitrepo.require_git()
    repo = tmp_path / "werkzeug"
    gitrepo.Repo(tmp_path).git("clone", "-q", str(WERKZEUG_BUNDLE), str(repo))
    history = generalise_truth.read(repo, "werkzeug")
    narrow, wide = generalise_truth.scopes(history, "tests")
    start = int(datetime(2013, 4, 11, tzinfo=UTC).timestamp())
    end = int(datetime(2013, 6, 17, tzinfo=UTC).timestamp())
    stamps = gitrepo.Repo(repo).git(
        "log", "--no-merges", "--full-history", "--format=%at", "--", "werkzeug/testsuite"
    )
    moved = sum(start <= int(t) < end for t in stamps.split())
    assert moved == 206
    assert generalise_truth.figures(history, narrow, start, end).commits == 0
    assert generalise_truth.figures(history, wide, start, end).commits == moved
    # A module that became a package: which file continues it is git's guess, kept apart.
    split, whole = generalise_truth.file_scopes(history, "src/werkzeug/wrappers/request.py")
    assert "werkzeug/wrappers.py" in whole.files - split.files


def test_another_reading_the_docs_allow_is_judged_by_its_own_figure() -> None:
    """A question of no kind the docs give 365 days may be read over 30: judged by the figure
    of the window the answer states; a window neither reading has is wrong."""
    year, month = (1_725_192_000, 1_756_728_000), (1_754_136_000, 1_756_728_000)
    case = {"expect": "answered", "metric": "commits", "subject_key": "module:shop/tests",
            "window": list(year), "figure": 9, "salient": ["tests/"],
            "also": [{"window": list(month), "figure": 2, "top_names": []}]}  # fmt: skip

    def said(window: tuple[int, int], commits: int) -> dict[str, Any]:
        at = [datetime.fromtimestamp(t, UTC).isoformat() for t in window]
        return {"outcome": "answered", "subject_keys": ["module:shop/tests"],
                "temporal_label": {"effective_from": at[0], "effective_to": at[1]},
                "claimed_facts": [{"kind": "commit_activity", "subject_key": "module:shop/tests",
                                   "value": {"commits": commits}}]}  # fmt: skip

    assert judge(case, said(year, 9))["bucket"] == "as_expected"
    assert judge(case, said(month, 2))["bucket"] == "as_expected"
    assert judge(case, said(month, 9))["why"] == "commits 9 instead of 2"
    assert judge(case, said((month[0], year[1] - 1), 2))["why"].startswith("window")
    tie = {"expect": "clarification", "metric": "commits", "salient": ["utils.py"],
           "ties": [["module:shop/a/utils.py"], ["module:shop/b/utils.py"]]}  # fmt: skip
    picked = {"outcome": "answered", "subject_keys": ["module:shop/b/utils.py"]}
    assert judge(tie, picked, {"module:shop/b/utils.py"})["bucket"] == "as_expected"
    assert judge(tie, picked, {"module:shop/a/utils.py"})["bucket"] == "wrong_silent"


def test_the_thirty_day_reading_of_a_quiet_subject_is_a_reading_too(tmp_path: Path) -> None:
    """A question naming no time that the docs read over the last 30 days (its people, its
    bus factor), about a subject with no commit then (pkg: its last, by git, 50 days before
    NOW), is rightly answered "nothing changed in the window" (the judge reads 0): that
    reading was left out because the month has no figure, and the right answer was counted
    wrong against the year's (werkzeug's datastructures package, seed 31)."""
    gitrepo.require_git()
    repo = gitrepo.Repo(tmp_path / "quiet", now=NOW)
    repo.write("pkg/__init__.py", "")
    for days, who in ((400, ADA), (200, GRACE), (50, ADA)):
        repo.lines("pkg/core.py", days // 50, str(days))
        repo.commit(who, days, f"core {days}")
    month = int(NOW.timestamp()) - 30 * 86_400
    stamps = repo.git("log", "--no-merges", "--format=%at", "--", "pkg").split()
    assert len(stamps) == 3 and not any(int(t) >= month for t in stamps)
    bank = json.loads(generalise.BANK.read_text())
    builder = generalise_cases.Builder(
        generalise_truth.read(repo.path, "quiet"), bank, NOW, random.Random(7)
    )
    template = {"id": "people-quiet", "metric": "people", "subject": "package", "window": "any",
                "paraphrases": ["is {s} short of contributors {w}?"]}  # fmt: skip
    made = [builder.one(template) for _ in range(100)]
    quiet = [c for c in made if c is not None and not c.time_phrase]
    assert quiet and {(c.subject_key, c.figure) for c in quiet} == {("module:quiet/pkg", 2)}
    reading = {"window": [month, int(NOW.timestamp())], "figure": 0, "top_names": []}
    label = {
        k: datetime.fromtimestamp(t, UTC).isoformat()
        for k, t in zip(("effective_from", "effective_to"), reading["window"], strict=True)
    }
    answer = {"outcome": "answered", "subject_keys": ["module:quiet/pkg"],
              "temporal_label": label,
              "limitations": ["No contributors records of pkg fall in this window."]}  # fmt: skip
    for case in quiet:
        assert case.also == [reading], case.question
        assert judge(case.as_json(), answer)["bucket"] == "as_expected"


def test_the_time_phrases_come_from_the_corpus_and_mean_what_the_reader_reads(tiny: Path) -> None:
    """bench/generalise.py asks the time corpus's phrasings (tests/data/time_phrases.tsv),
    not a list of its own: a calendar row moved to another year means what the project reads
    then, and a row counted from now what it reads at the bench's clock; its truth code still
    imports nothing of the project."""
    from engine.reading.time.phrases import read_time

    instant, rows = generalise_windows.corpus()
    assert len(rows) >= 400
    bank = generalise_windows.bank()
    groups = {*generalise_windows.SHAPES, "since", "relative", "refuse_wide",
              "refuse_future", "unknown"}  # fmt: skip
    assert groups <= set(bank) and all(len(bank[g]) >= 3 for g in groups), {
        g: len(bank.get(g, ())) for g in groups
    }
    moved = [r for g in (*generalise_windows.SHAPES, "since") for r in bank[g]]
    for years in (-7, -1):
        for row in moved:
            made = generalise_windows._moved(row, years)
            if made is None:
                continue
            text, start, end = made
            read = read_time(text, instant).match
            assert read is not None, text
            assert (read.start_at, read.end_at) == (start, end or read.end_at), text
    for row in rows:  # where the bench reads a row counted from now, it reads it as the corpus
        got = generalise_windows.relative(row.phrase, instant)
        assert got is None or got == (row.start, row.end or instant), row
    for row in bank["relative"]:
        read = read_time(row.phrase, NOW).match
        assert read is not None, row.phrase
        got = generalise_windows.relative(row.phrase, NOW)
        assert got == (read.start_at, read.end_at or NOW), row.phrase
    phrases = {r.phrase for r in rows}
    for row in bank["refuse_wide"]:  # what the bench asks as too wide is, at its clock
        if generalise_windows.wide(row, NOW):
            read = read_time(row.phrase, NOW).match
            assert read is not None and read.start_at is not None, row.phrase
            assert (read.end_at or NOW) - read.start_at > timedelta(days=400), row.phrase
    cases = _cases(tiny, 200)
    assert sum(bool(c["time_phrase"]) for c in cases) >= 100
    for case in cases:
        said = case["time_phrase"]
        assert (
            not said
            or said in phrases
            or _YEARS.sub("Y", said) in {_YEARS.sub("Y", p) for p in phrases}
        ), said
    for module in ("generalise_windows", "generalise_truth"):
        tree = ast.parse((Path(generalise.__file__).with_name(f"{module}.py")).read_text())
        imported = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        project = ("engine", "graph", "resolvers", "gateway", "sources")
        assert not {m for m in imported if m.split(".")[0] in project}, module


_YEARS = re.compile(r"\b(?:19[7-9]\d|2\d{3})\b")


def test_people_ranked_without_bots_are_judged_by_the_first_who_is_none() -> None:
    """ "excluding bots" (bench/generalise_bank.json's who-humans): the answer's fact lists
    bots too (its top five and the top five who are none); the first person who is no bot
    is the one judged. An answer whose first is a bot's is wrong for "top"."""
    case = {"metric": "top_humans", "expect": "answered", "subject_key": "repository:shop",
            "window": None, "figure": 3, "top_names": ["Ada Smith"], "salient": []}  # fmt: skip
    fact = {"kind": "active_contributors", "subject_key": "repository:shop",
            "value": {"top_names": ["dependabot[bot]", "Step Security Bot", "Ada Smith"],
                      "top_commits": [9, 4, 3]}}  # fmt: skip
    result = {"outcome": "answered", "subject_keys": ["repository:shop"],
              "claimed_facts": [fact], "limitations": []}  # fmt: skip
    assert judge(case, result)["bucket"] == "as_expected"
    assert judge(case | {"metric": "top"}, result)["bucket"] == "wrong_silent"
