"""`fabric investigate QUESTION`: ask an organisation a question from the command line, with
the same engine, providers and receipts as the GraphQL `investigate` mutation."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from gateway.cli.common import add_graph_options, fail, settings_from, with_store

if TYPE_CHECKING:  # the engine is imported when a command runs, not when the CLI starts
    from engine.domain.errors import PublicError


def add_parser(sub: Any) -> None:
    investigate = sub.add_parser("investigate", help="ask a question of an organisation")
    investigate.add_argument("question", type=question)
    investigate.add_argument("--org", default="demo")
    investigate.add_argument("--actor", default="cli")
    investigate.add_argument(
        "--as-of", type=instant, help="ISO-8601 time the answer is about (2024-12-31T12:00Z)"
    )
    investigate.add_argument("--receipt", action="append", help="bind a clarification candidate")
    investigate.add_argument("--json", action="store_true", help="print the whole result")
    add_graph_options(investigate)
    investigate.set_defaults(func=run)


def print_refusal(exc: PublicError) -> None:
    """A refusal (a `PublicError`) as GraphQL's `errors` give it, for a script reading
    `--json`: it got nothing on stdout, only the sentence on stderr, so it could not tell a
    time in the future from a store that failed except by parsing prose."""
    extensions = {**exc.extensions, "code": exc.code}
    print(json.dumps({"errors": [{"message": str(exc), "extensions": extensions}]}, indent=2))


def question(text: str) -> str:
    """The question, refused as GraphQL's `investigate` refuses it (empty, blank, too long):
    a usage error, exit status 2, before any store is opened, so nothing is saved."""
    from engine.domain.errors import BadUserInput
    from resolvers.investigation import checked_question

    try:
        return checked_question(text)
    except BadUserInput as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def instant(text: str) -> datetime:
    """An ISO-8601 instant (a trailing Z is UTC; no offset is UTC). Anything else is a usage
    error: argparse prints it and exits with status 2, never a traceback."""
    try:
        value = datetime.fromisoformat(text.strip().replace("z", "Z").replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO-8601 time (for example 2024-12-31 or 2024-12-31T23:59Z)"
        ) from None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def print_result(result: Any, reused: bool) -> None:
    """The result for a person at a terminal (`--json` prints all of it)."""
    label = result.temporal_label
    print(f"{result.outcome.value.upper()}{' (reused)' if reused else ''}  id={result.id}")
    if label is not None:
        grain = f", grain {label.grain.value}" if label.grain else ""
        note = f" ({label.note})" if label.note else ""
        print(
            f"Time: {label.axis.value} {label.effective_from:%Y-%m-%d %H:%M} .. "
            f"{label.effective_to:%Y-%m-%d %H:%M}{grain}{note}"
        )
    if result.direct_judgment:
        print(f"\n{result.direct_judgment}")
    if result.current_state:
        print(f"\nState: {result.current_state}")
    for driver in result.drivers:
        refs = ", ".join(e.ref for e in driver.evidence[:4])
        print(f"\n  [{driver.standing.value}/{driver.category.value}] {driver.statement}")
        print(f"      evidence: {refs}{' ...' if len(driver.evidence) > 4 else ''}")
    for candidate in result.candidates:
        print(
            f"  {candidate.name} ({candidate.subject_key}) score {candidate.score:.2f}"
            f"  --receipt {candidate.receipt}"
        )
    if result.clarification_prompt:
        print(f"\n{result.clarification_prompt}")
    for text in result.limitations:
        print(f"  note: {text}")
    for observation in result.coverage:
        print(
            f"  coverage: {observation.source} {observation.state.value} "
            f"({observation.reason.value})"
        )


def run(args: argparse.Namespace) -> int:
    from engine.domain.errors import PublicError
    from engine.investigation.investigate import (
        InvestigationFailed,
        InvestigationRequest,
        Investigator,
    )
    from engine.resolving.resolution import Resolver
    from engine.resolving.ring import ReferenceRing
    from gateway.app import engine_services

    settings = settings_from(args)

    async def work(store: Any) -> int:
        from gateway.stores import prepare

        await prepare(store, args.org)
        services = await engine_services(store, settings)
        graph = await store.serving(args.org)
        investigator = Investigator(
            graph,
            Resolver(graph, ReferenceRing(), args.org),
            services.providers,
            services.synthesizer,
            services.signer,
            services.versions,
            now=lambda: datetime.now(UTC),
            round_trips=services.round_trips,
            reuse_max_age=services.reuse_max_age,
        )
        request = InvestigationRequest(
            args.question, as_of=args.as_of, prior_receipts=tuple(args.receipt or ())
        )
        try:
            result, reused = await investigator.investigate(args.actor, request)
        except PublicError as exc:
            if args.json:
                print_refusal(exc)
            return fail(str(exc))
        except InvestigationFailed as failed:
            stage = failed.result.failure_stage
            return fail(f"the investigation failed at {stage.value if stage else '?'}")
        if args.json:
            print(result.model_dump_json(indent=2))
        else:
            print_result(result, reused)
        return 0

    return with_store(settings, work)
