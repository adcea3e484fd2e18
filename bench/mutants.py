"""Mutants that prove the tests bite: each engine rule (a row of docs/architecture.md's rules
table) changed one line at a time, in a temporary copy of the repository, and the tests named
for it run against the change. A mutant the tests fail on is killed; one they pass on (or that
only runs out of time) survived.

    PYTHONPATH=$PWD python3 bench/mutants.py                   # every mutant, named tests only
    PYTHONPATH=$PWD python3 bench/mutants.py --whole-suite     # a survivor also meets the suite
    PYTHONPATH=$PWD python3 bench/mutants.py --only epochs-1 ring-1

The mutations are bench/mutants.json: file, the exact original text (one occurrence), its
replacement, the tests that should catch it. An original text not found exactly once is an
error, so the list stays true as the code moves. The baseline runs every named test once on the
unchanged copy: a mutant is only judged against tests that pass without it.

The whole suite takes about 5 minutes alone on this 2-core machine, so it is an option
(--whole-suite), run only for survivors. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTATIONS = ROOT / "bench" / "mutants.json"
# What a copy leaves out: history, caches, data and fetched assets (none of it is code).
IGNORED = shutil.ignore_patterns(
    ".git", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "*.egg-info",
    "node_modules", ".venv",
)  # fmt: skip


@dataclass(frozen=True)
class Mutation:
    id: str
    rule: str
    file: str
    original: str
    replacement: str
    tests: tuple[str, ...]


def load(path: Path = MUTATIONS) -> list[Mutation]:
    raw = json.loads(path.read_text())["mutations"]
    return [
        Mutation(m["id"], m["rule"], m["file"], m["original"], m["replacement"], tuple(m["tests"]))
        for m in raw
    ]


def check(mutations: list[Mutation], root: Path) -> list[str]:
    """The mutations whose original text is not in their file exactly once (errors)."""
    wrong = []
    for m in mutations:
        path = root / m.file
        found = path.read_text().count(m.original) if path.exists() else 0
        if found != 1:
            wrong.append(f"{m.id}: original text found {found} times in {m.file}")
    return wrong


def pytest(copy: Path, tests: list[str], timeout: float) -> str:
    """'passed', 'failed' or 'timeout' for the tests run in `copy`."""
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    try:
        done = subprocess.run(
            command, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    if done.returncode == 0:
        return "passed"
    if done.returncode == 1:
        return "failed"
    # 2: interrupted, 3: internal error, 4: usage, 5: nothing collected: not a verdict.
    raise RuntimeError(f"pytest exited {done.returncode}: {done.stdout[-2000:]}{done.stderr}")


def run_one(m: Mutation, copy: Path, timeout: float, whole: bool) -> dict[str, object]:
    path = copy / m.file
    before = path.read_text()
    path.write_text(before.replace(m.original, m.replacement, 1))
    started = time.monotonic()
    try:
        named = pytest(copy, list(m.tests), timeout)
        suite = None
        if named != "failed" and whole:
            suite = pytest(copy, ["tests"], timeout * 10)
    except RuntimeError as exc:
        return {"id": m.id, "rule": m.rule, "verdict": "error", "why": str(exc)[-400:]}
    finally:
        path.write_text(before)
    killed = named == "failed" or suite == "failed"
    return {
        "id": m.id, "rule": m.rule, "verdict": "killed" if killed else "survived",
        "named": named, "suite": suite, "seconds": round(time.monotonic() - started, 1),
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", help="these mutation ids (default: all)")
    parser.add_argument("--whole-suite", action="store_true",
                        help="run the whole suite for a mutant the named tests let survive")
    parser.add_argument("--skip-baseline", action="store_true",
                        help="do not run the named tests on the unchanged copy first (said so)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds per run of the named tests (a timeout survives)")
    args = parser.parse_args(argv)
    mutations = load()
    if args.only:
        mutations = [m for m in mutations if m.id in set(args.only)]
    errors = check(mutations, ROOT)
    for line in errors:
        print(f"error {line}")
    results: list[dict[str, object]] = []
    baseline = "not run"
    interrupted = False
    with tempfile.TemporaryDirectory(prefix="mutants-") as tmp:
        copy = Path(tmp) / "repo"
        shutil.copytree(ROOT, copy, ignore=IGNORED)
        runnable = [m for m in mutations if not any(e.startswith(f"{m.id}:") for e in errors)]
        named = sorted({t for m in runnable for t in m.tests})
        if args.skip_baseline:
            baseline = "skipped"
        else:
            baseline = pytest(copy, named, args.timeout * 4) if named else "passed"
        print(f"baseline ({len(named)} test files, unchanged copy): {baseline}", flush=True)
        signal.signal(signal.SIGTERM, _interrupt)
        try:
            for m in runnable if baseline in ("passed", "skipped") else []:
                result = run_one(m, copy, args.timeout, args.whole_suite)
                results.append(result)
                print(f"{result['verdict']:8} {m.id:26} {m.file}: {m.original.strip()[:60]!r}",
                      flush=True)  # fmt: skip
        except KeyboardInterrupt:  # stopped (time ran out): the summary says what was not run
            interrupted = True
    rules: dict[str, dict[str, int]] = {}
    for r in results:
        counts = rules.setdefault(str(r["rule"]), {"killed": 0, "survived": 0, "error": 0})
        counts[str(r["verdict"])] += 1
    survived = [r["id"] for r in results if r["verdict"] == "survived"]
    summary = {
        "mutants": len(mutations),
        "run": len(results),
        "killed": sum(r["verdict"] == "killed" for r in results),
        "survived": survived,
        "errors": errors + [str(r["id"]) for r in results if r["verdict"] == "error"],
        "wrong": len(survived),  # a rule no test guards: the count this benchmark minimises
        "baseline": baseline,
        "whole_suite_on_survivors": args.whole_suite,
        "interrupted": interrupted,
        "not_run": [m.id for m in mutations if m.id not in {r["id"] for r in results}],
        "rules": rules,
    }
    print(json.dumps(summary, sort_keys=True))
    complete = baseline == "passed" and not interrupted
    return 0 if complete and not errors and not survived else 1


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    raise SystemExit(main())
