"""How bench/generalise.py judges an answer against its case (pure functions over the result
as `fabric investigate --json` prints it; standard library only).

Buckets: `as_expected`; `wrong_silent` and `wrong_disclosed` (answered, but for another
subject, person or window, with another figure, without the figure asked, or answered where
a choice or no match was due: disclosed when a limitation names the question's subject,
person or time phrase or says something was not understood or names no one, silent when
none does); `clarification` and `no_match` (asked back or found nothing where an answer was
due: not wrong, not as expected); `refused` (a time refused where none should be) and
`failed`.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from bench.generalise_truth import is_bot, person_key

BOILERPLATE = ("Merge commits are not counted", "Lines are counted as git log")
DISCLOSING = ("not understood", "names no", "not read", "was read as", "left out", "instead")
OUTCOMES = {
    "answered": "answered",
    "clarification_required": "clarification",
    "no_match": "no_match",
    "REFUSED": "refused",
    "failed": "failed",
}
FACT_FIELD = {
    "commits": ("commit_activity", "commits"),
    "changes": ("changes", "changes"),
    "lines": ("churn", "lines_changed"),
    "people": ("active_contributors", "contributors"),
    "top": ("active_contributors", "top_names"),
    "top_humans": ("active_contributors", "top_names"),
    "bus": ("bus_factor", "bus_factor"),
    "compared": ("churn", "commits"),  # the later period's; prior_commits the earlier one's
}

# Where else an answer carries how many commits (a ranking, a list, a churn).
COUNTED = [
    ("commit_activity", "commits"),
    ("changes", "changes"),
    ("active_contributors", "commits"),
    ("churn", "commits"),
]


def judge(
    case: dict[str, Any], result: dict[str, Any], recent: set[str] | None = None
) -> dict[str, Any]:
    """The bucket of RESULT for CASE, and why. RECENT: the subject keys this actor's earlier
    answers were about (session mode), which may settle a genuine tie."""
    outcome = OUTCOMES.get(str(result.get("outcome")), str(result.get("outcome")))
    expect = case["expect"]
    if outcome == "failed":
        return _verdict("failed", "the investigation failed")
    if expect == "answered":
        if outcome != "answered":
            return _verdict(outcome, f"{outcome} where an answer was due")
        why = _wrong_answer(case, result)
        return _verdict("as_expected") if why is None else _wrong(case, result, why)
    if outcome == "answered":
        if expect == "clarification" and recent and _memory_settled(case, result, recent):
            return _verdict("as_expected", "a recent reference settled the tie")
        return _wrong(case, result, f"answered where {expect} was due")
    if outcome == expect or (expect == "no_match" and outcome == "clarification"):
        return _verdict("as_expected")
    return _verdict(outcome, f"{outcome} where {expect} was due")


def _verdict(bucket: str, why: str = "") -> dict[str, Any]:
    return {"bucket": bucket, "why": why}


def _wrong(case: dict[str, Any], result: dict[str, Any], why: str) -> dict[str, Any]:
    said = disclosed(case, result)
    return _verdict("wrong_disclosed" if said else "wrong_silent", why)


def disclosed(case: dict[str, Any], result: dict[str, Any]) -> bool:
    """Whether a limitation names what the question named, or says a word went unread."""
    notes = [n for n in result.get("limitations") or () if not n.startswith(BOILERPLATE)]
    words = [w.casefold() for w in case.get("salient", ()) if w]
    return any(w in n.casefold() for n in notes for w in words) or any(
        d in n.casefold() for n in notes for d in DISCLOSING
    )


def _wrong_answer(case: dict[str, Any], result: dict[str, Any]) -> str | None:
    """Why an answer is not the case's, or None when subject, window and figure hold."""
    keys = list(result.get("subject_keys") or ())
    expected = case.get("subject_key")
    if expected is not None and keys != [expected]:
        return f"subject {keys} instead of {expected}"
    emails = set(case.get("person_emails") or ())
    persons = {person_key(e) for e in emails}
    if expected is None and emails and not (len(keys) == 1 and keys[0] in persons):
        return f"person {keys} instead of one of {sorted(persons)}"
    window = case.get("window")
    label = result.get("temporal_label") or {}
    if window is not None:
        got = (_epoch(label.get("effective_from")), _epoch(label.get("effective_to")))
        readings = [case] + [
            case | {"window": a["window"], "figure": a["figure"], "top_names": a["top_names"]}
            for a in case.get("also") or ()
        ]
        chosen = [r for r in readings if tuple(r["window"]) == got]
        if not chosen:
            return f"window {_span(got)} instead of {_span(tuple(window))}"
        case = chosen[0]
    value = figure(case["metric"], result, keys[0] if keys else None)
    if value is None:
        return f"no {case['metric']} figure in the answer"
    if case["metric"] in ("top", "top_humans"):
        names, commits = value
        if not names or names[0] not in case["top_names"] or commits[0] != case["figure"]:
            top = (names[0], commits[0]) if names else None
            return f"top {top} instead of {case['top_names']} with {case['figure']}"
        return None
    if value != case["figure"]:
        return f"{case['metric']} {value} instead of {case['figure']}"
    if case["metric"] == "compared":
        before = prior(result, keys[0] if keys else None)
        if before != case["before_figure"]:
            return f"commits before {before} instead of {case['before_figure']}"
    return None


def prior(result: dict[str, Any], key: str | None) -> int | None:
    """The commits of the period compared with (the churn fact's prior_commits); 0 when the
    answer claims no churn and says nothing fell in the window, as `figure` reads it."""
    facts = [f for f in result.get("claimed_facts") or () if f.get("kind") == "churn"]
    mine = [f for f in facts if f.get("subject_key") == key] or (facts if len(facts) == 1 else [])
    if mine:
        value = (mine[0].get("value") or {}).get("prior_commits")
        return value if isinstance(value, int) else None
    return 0 if "fall in this window" in " ".join(result.get("limitations") or ()) else None


def figure(metric: str, result: dict[str, Any], key: str | None) -> Any:
    """The figure the answer gives for METRIC: from its claimed fact about KEY (or its only
    fact of that kind)."""
    kinds = [FACT_FIELD[metric]] + (COUNTED if metric in ("commits", "changes") else [])
    for kind, name in kinds:
        facts = [f for f in result.get("claimed_facts") or () if f.get("kind") == kind]
        mine = [f for f in facts if f.get("subject_key") == key] or (
            facts if len(facts) == 1 else []
        )
        if mine:
            value = mine[0].get("value") or {}
            if metric in ("top", "top_humans"):
                ranked = zip(
                    value.get("top_names") or (), value.get("top_commits") or (), strict=False
                )
                # "excluding bots": the first person ranked who is none
                kept = [(n, c) for n, c in ranked if metric == "top" or not is_bot(str(n))]
                return [n for n, _ in kept], [c for _, c in kept]
            return value.get(name)
    notes = " ".join(result.get("limitations") or ())
    if metric not in ("top", "top_humans") and "fall in this window" in notes:
        return 0  # nothing recorded in the window: the answer claims no fact, and says so
    return None


def _memory_settled(case: dict[str, Any], result: dict[str, Any], recent: set[str]) -> bool:
    """A tie answered for the one candidate the actor asked about lately (documented)."""
    keys = list(result.get("subject_keys") or ())
    ties = [set(t) for t in case.get("ties") or ()]
    if len(keys) != 1 or not ties:
        return False
    lately = [t for t in ties if t & recent]
    return len(lately) == 1 and keys[0] in lately[0]


def _epoch(text: Any) -> int | None:
    if not isinstance(text, str):
        return None
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def _span(window: tuple[Any, ...]) -> str:
    def day(t: Any) -> str:
        return "?" if t is None else datetime.utcfromtimestamp(t).strftime("%Y-%m-%d %H:%M")

    return f"{day(window[0])}..{day(window[1])}"


def tally(verdicts: list[dict[str, Any]]) -> dict[str, int]:
    counts = Counter(v["bucket"] for v in verdicts)
    keys = (
        "as_expected",
        "wrong_silent",
        "wrong_disclosed",
        "clarification",
        "no_match",
        "refused",
        "failed",
    )
    return {k: counts.get(k, 0) for k in keys} | {"questions": len(verdicts)}
