"""Any repository, any phrasing: questions about git histories the tests were not tuned on,
with the truth from git alone (issue 31).

Usage: python bench/generalise.py [--histories PATH ...] [--seed 31] [--per-history 152]
                                  [--modes fresh,session] [--now 2026-09-01T12:00:00Z]
                                  [--out cases.jsonl]

Each history (a repository or a bundle; default: the click, werkzeug, requests and attrs
bundles of ../shared/data) is cloned to a temporary directory, imported with `fabric import
git` into a temporary data directory, and read with git (bench/generalise_truth.py, which
does not import the project). Questions are made from the templates of
bench/generalise_bank.json about subjects, people and windows picked at random with the
seed (bench/generalise_cases.py), the time phrases drawn from the project's time corpus,
tests/data/time_phrases.tsv (bench/generalise_windows.py reads it as data); each states its
expected outcome (ANSWERED with its figure, CLARIFICATION_REQUIRED, NO_MATCH, or a refused
time). They are asked of one engine per
history with its clock fixed at --now (bench/generalise_ask.py), in two modes: `fresh`, a new
actor per question, and `session`, one actor asking them all in turn (recent references are
kept per actor). bench/generalise_judge.py sorts each answer into as expected, answered wrong
(silent or disclosed), clarification, no match, refused or failed.

Prints per history and overall, with examples of each wrong answer; the last line is one
JSON object: seed, questions per mode, the counts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# Run as a script, the checkout this file is in is what is measured (not an installed copy).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import generalise_cases, generalise_truth
from bench.generalise_judge import judge, tally

BANK = Path(__file__).with_name("generalise_bank.json")
DATA = next(
    (
        p / "shared" / "data"
        for p in Path(__file__).resolve().parents
        if (p / "shared" / "data" / "click.bundle").exists()
    ),
    Path("shared/data"),
)
DEFAULT = [DATA / f"{name}.bundle" for name in ("click", "werkzeug", "requests", "attrs")]
EXAMPLES = 8


def make_cases(
    repo: Path, name: str, per_history: int, seed: int, now: datetime
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    history = generalise_truth.read(repo, name)
    bank = json.loads(BANK.read_text())
    builder = generalise_cases.Builder(history, bank, now, random.Random(f"{seed}:{name}"))
    cases = [c.as_json() for c in builder.cases(per_history)]
    return cases, dict(builder.skipped)


async def ask_all(
    data: Path, org: str, now: datetime, cases: list[dict[str, Any]], modes: list[str]
) -> dict[str, list[dict[str, Any]]]:
    from bench.generalise_ask import engine

    out: dict[str, list[dict[str, Any]]] = {}
    async with engine(data, org, now) as ask:
        for mode in modes:
            rows: list[dict[str, Any]] = []
            recent: set[str] = set()
            for n, case in enumerate(cases):
                actor = f"{mode}-{n}" if mode == "fresh" else f"{mode}-{org}"
                result = await ask(actor, case["question"])
                verdict = judge(case, result, recent if mode == "session" else None)
                if result.get("outcome") == "answered":
                    recent |= set(result.get("subject_keys") or ())
                rows.append({"case": case, "verdict": verdict, "answer": _brief(result)})
            out[mode] = rows
    return out


def _brief(result: dict[str, Any]) -> dict[str, Any]:
    label = result.get("temporal_label") or {}
    return {
        "outcome": result.get("outcome"),
        "judgment": result.get("direct_judgment"),
        "prompt": result.get("clarification_prompt"),
        "keys": result.get("subject_keys"),
        "window": [label.get("effective_from"), label.get("effective_to")],
        "limitations": result.get("limitations"),
        "error": result.get("error"),
    }


def run_history(source: Path, args: argparse.Namespace, now: datetime) -> dict[str, Any]:
    name = source.name.removesuffix(".bundle")
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / name
        subprocess.run(
            ["git", "clone", "-q", str(source), str(repo)], check=True, capture_output=True
        )
        started = time.perf_counter()
        cases, skipped = make_cases(repo, name, args.per_history, args.seed, now)
        from bench.generalise_ask import import_history

        summary = import_history(repo, name, Path(tmp) / "data")
        rows = asyncio.run(ask_all(Path(tmp) / "data", name, now, cases, args.modes))
    return {
        "history": name,
        "import": summary,
        "skipped": skipped,
        "modes": rows,
        "seconds": round(time.perf_counter() - started, 1),
    }


def report(runs: list[dict[str, Any]], modes: list[str], out: Any) -> dict[str, Any]:
    overall: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for run in runs:
        imported = {
            k: run["import"].get(k)
            for k in ("commits", "people", "modules", "invalid", "exit_status")
        }
        print(f"\n== {run['history']} ({run['seconds']} s; import {imported})")
        for mode in modes:
            rows = run["modes"][mode]
            overall[mode] += rows
            print(f"  {mode}: {tally([r['verdict'] for r in rows])}")
            for r in rows:
                out.write(json.dumps({"history": run["history"], "mode": mode, **r}) + "\n")
    print("\n== overall")
    for mode in modes:
        print(f"  {mode}: {tally([r['verdict'] for r in overall[mode]])}")
        _examples(mode, overall[mode])
    return {mode: tally([r["verdict"] for r in overall[mode]]) for mode in modes}


def _examples(mode: str, rows: list[dict[str, Any]]) -> None:
    by_why: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if r["verdict"]["bucket"].startswith("wrong"):
            by_why[r["case"]["template"] + " / " + r["verdict"]["why"].split(" ")[0]].append(r)
    for why, some in sorted(by_why.items(), key=lambda kv: -len(kv[1])):
        print(f"    [{mode}] {len(some)} x {why}")
        for r in some[:2]:
            print(
                f"      {r['case']['history']}: {r['case']['question']!r} -> "
                f"{r['verdict']['bucket']}: {r['verdict']['why']}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--histories", type=Path, nargs="+", default=DEFAULT)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--per-history", type=int, default=152)
    parser.add_argument("--modes", default="fresh,session")
    parser.add_argument("--now", default="2026-09-01T12:00:00Z", help="the engine's clock")
    parser.add_argument("--out", type=Path, help="every case, answer and verdict (JSON lines)")
    args = parser.parse_args()
    args.modes = [m for m in args.modes.split(",") if m]
    now = datetime.fromisoformat(args.now.replace("Z", "+00:00")).astimezone(UTC)
    runs = [run_history(source, args, now) for source in args.histories]
    with open(args.out or "/dev/null", "w") as out:
        counts = report(runs, args.modes, out)
    questions = {mode: counts[mode]["questions"] for mode in args.modes}
    print(
        json.dumps(
            {
                "seed": args.seed,
                "now": args.now,
                "histories": [r["history"] for r in runs],
                "questions": questions,
                "counts": counts,
                "wrong": {m: c["wrong_silent"] + c["wrong_disclosed"] for m, c in counts.items()},
                "as_expected_share": {
                    m: round(c["as_expected"] / max(c["questions"], 1), 4)
                    for m, c in counts.items()
                },
                "skipped": sum(sum(r["skipped"].values()) for r in runs),
            }
        )
    )


if __name__ == "__main__":
    main()
