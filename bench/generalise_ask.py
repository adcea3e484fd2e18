"""How bench/generalise.py imports a history and asks it questions: through the same surface
as `fabric import git` and `fabric investigate --json` (the gateway's store, its engine
services, the engine's top-level investigate entry), kept open for the whole run so one
question costs one investigation, not a process and a store start.

Everything the bench needs from the project is here, so a move of engine modules touches
this file only. An answer leaves as the plain JSON `fabric investigate --json` prints, and a
refused question (a future time) as {"outcome": "REFUSED", "error": ...}.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

_ROOT = Path(__file__).resolve().parent.parent


class Asker(Protocol):
    async def __call__(self, actor: str, question: str) -> dict[str, Any]: ...


def import_history(repo: Path, org: str, data_dir: Path) -> dict[str, Any]:
    """`fabric import git REPO --org ORG` into DATA_DIR; its summary (the last JSON line)."""
    env = dict(os.environ, PYTHONPATH=str(_ROOT))
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gateway.cli",
            "import",
            "git",
            str(repo),
            "--org",
            org,
            "--data-dir",
            str(data_dir),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    summary: dict[str, Any] = json.loads(lines[-1]) if lines else {}
    summary["exit_status"] = done.returncode
    if done.returncode and not lines:
        summary["stderr"] = done.stderr[-2000:]
    return summary


@asynccontextmanager
async def engine(data_dir: Path, org: str, now: datetime) -> AsyncIterator[Asker]:
    """One long-lived engine over DATA_DIR's organisation ORG, its clock fixed at NOW, its
    recent references kept per actor for the whole run (as the gateway keeps them)."""
    from engine.domain.errors import PublicError
    from engine.investigation.investigate import InvestigationRequest, Investigator
    from engine.resolving.resolution import Resolver
    from engine.resolving.ring import ReferenceRing
    from gateway.app import engine_services
    from gateway.settings import load_settings
    from gateway.stores import open_store, prepare

    settings = load_settings(data_dir=data_dir)
    opened = open_store(settings)
    try:
        store = opened.store
        await prepare(store, org)
        services = await engine_services(store, settings)
        graph = await store.serving(org)
        investigator = Investigator(
            graph,
            Resolver(graph, ReferenceRing(), org),
            services.providers,
            services.synthesizer,
            services.signer,
            services.versions,
            now=lambda: now,
            round_trips=services.round_trips,
        )

        async def ask(actor: str, question: str) -> dict[str, Any]:
            try:
                result, _ = await investigator.investigate(actor, InvestigationRequest(question))
            except PublicError as exc:
                return {"outcome": "REFUSED", "error": str(exc)}
            answer: dict[str, Any] = json.loads(result.model_dump_json())
            return answer

        yield ask
    finally:
        await opened.close()
