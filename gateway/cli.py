"""`fabric`: serve the gateway, ingest projection files, make demo data, print the schema."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from gateway.settings import Settings, load_settings

EXIT_INVALID_LINES = 1
EXIT_FAILURE = 2


def _settings(args: argparse.Namespace) -> Settings:
    return load_settings(
        host=getattr(args, "host", None),
        port=getattr(args, "port", None),
        data_dir=getattr(args, "data_dir", None),
        graph_uri=getattr(args, "graph_uri", None),
    )


def _with_store(settings: Settings, work: Callable[[Any], Awaitable[int]]) -> int:
    """Open the configured store (joining a running embedded server), run `work`, close."""
    from engine.ports import GraphError
    from gateway.stores import open_store
    from graph.embedded import EmbeddedError

    try:
        opened = open_store(settings)
    except (EmbeddedError, ValueError) as exc:
        print(f"fabric: {exc}", file=sys.stderr)
        return EXIT_FAILURE

    async def run() -> int:
        try:
            return await work(opened.store)
        finally:
            await opened.close()

    try:
        return asyncio.run(run())
    except GraphError as exc:
        print(
            f"fabric: graph store error ({exc.code}); nothing after the last "
            "acknowledged batch was written",
            file=sys.stderr,
        )
        return EXIT_FAILURE


# --- serve ------------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from gateway import logs, tracing
    from gateway.app import Runtime, create_app
    from gateway.demo import demo_token, ensure_demo_data

    settings = _settings(args)
    if args.log_level:
        settings.log_level = args.log_level
    logs.configure(settings)  # JSON lines with request ids, secrets redacted
    tracing.configure_exporter(settings)

    async def startup(runtime: Runtime) -> None:
        url = f"http://{settings.host}:{settings.port}/graphql"
        if args.demo:
            report = await ensure_demo_data(runtime.store, settings)
            if report is not None:
                print(f"Loaded {report.accepted} demo records into '{settings.demo_org}'.")
            token = await demo_token(runtime.store, settings)
            print(f"Context Fabric Gateway: {url}\nBearer token: {token}", flush=True)
        else:
            print(f"Context Fabric Gateway: {url}", flush=True)

    app = create_app(settings, on_startup=startup)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None,  # keep the handler logs.configure installed
        access_log=False,  # gateway.logs.RequestId writes the access lines
        lifespan="on",
    )
    return 0


# --- ingest -----------------------------------------------------------------------------------


class ProgressBar:
    """A one-line progress bar on a terminal; silent when stderr is not one."""

    def __init__(self, total: int | None, stream: IO[str] = sys.stderr) -> None:
        self.total = total
        self.stream = stream
        self.enabled = stream.isatty()

    def __call__(self, lines: int, accepted: int) -> None:
        if not self.enabled:
            return
        if self.total:
            share = min(lines / self.total, 1.0)
            bar = "#" * int(share * 30)
            self.stream.write(f"\r[{bar:<30}] {share:4.0%} {lines}/{self.total} lines")
        else:
            self.stream.write(f"\r{lines} lines, {accepted} records")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")


def _count_lines(path: Path) -> int:
    count = 0
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            count += chunk.count(b"\n")
    return count


@contextmanager
def _input(name: str) -> Iterator[tuple[Iterable[bytes], int | None]]:
    if name == "-":
        yield sys.stdin.buffer, None
        return
    path = Path(name)
    with path.open("rb") as fh:
        yield fh, _count_lines(path) if path.is_file() else None


def cmd_ingest(args: argparse.Namespace) -> int:
    from engine.ports import check_org
    from graph.projection import Projector

    try:
        check_org(args.org)
    except ValueError as exc:
        print(f"fabric: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    if args.file != "-" and not Path(args.file).exists():
        print(f"fabric: no such file: {args.file}", file=sys.stderr)
        return EXIT_FAILURE

    async def work(store: Any) -> int:
        await store.bootstrap(args.org)
        with _input(args.file) as (lines, total):
            bar = ProgressBar(total)
            projector = Projector(
                store.org(args.org),
                source=args.source,
                batch_size=args.batch_size,
                complete=args.complete,
                resume=not args.no_resume,
                on_progress=bar,
            )
            try:
                report = await projector.run(lines)
            finally:
                bar.close()
        for bad in report.invalid[:50]:
            print(f"line {bad.line}: {bad.reason}", file=sys.stderr)
        if report.invalid_count > 50:
            print(f"... and {report.invalid_count - 50} more invalid lines", file=sys.stderr)
        summary = {
            "org": args.org,
            "source": report.source,
            "lines": report.lines,
            "accepted": report.accepted,
            "invalid": report.invalid_count,
            "resumed_from_line": report.resumed_from,
            "deleted": report.deleted,
            "seconds": round(report.seconds, 3),
        }
        if report.complete_skipped:
            summary["complete"] = "skipped: invalid lines are no proof of a complete snapshot"
        print(json.dumps(summary))
        return EXIT_INVALID_LINES if report.invalid_count else 0

    return _with_store(_settings(args), work)


# --- demo-data, schema, keys ------------------------------------------------------------------


def cmd_demo_data(args: argparse.Namespace) -> int:
    from graph.demo import generate
    from graph.records import FORMAT_NAME, FORMAT_VERSION

    out = sys.stdout if args.out in (None, "-") else open(args.out, "w")  # noqa: SIM115
    try:
        header = {"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION}
        out.write(json.dumps(header) + "\n")
        for record in generate(args.records, seed=args.seed):
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def cmd_reembed(args: argparse.Namespace) -> int:
    from engine.ports import SubjectQuery, check_org

    try:
        check_org(args.org)
    except ValueError as exc:
        print(f"fabric: {exc}", file=sys.stderr)
        return EXIT_FAILURE

    async def work(store: Any) -> int:
        if store.embedder is None:
            print("fabric: no embedder is configured (FABRIC_EMBEDDER=none)", file=sys.stderr)
            return EXIT_FAILURE
        await store.bootstrap(args.org)
        graph = store.org(args.org)
        bar = ProgressBar(await graph.count_subjects(SubjectQuery(include_stubs=True)))
        try:
            done = await graph.reembed(lambda n: bar(n, n))
        finally:
            bar.close()
        stamp = store.embedder.identity.stamp()
        print(json.dumps({"org": args.org, "subjects": done, "embedder": stamp}))
        return 0

    return _with_store(_settings(args), work)


def _print_result(result: Any, reused: bool) -> None:
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


def cmd_investigate(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from engine.errors import PublicError
    from engine.investigate import InvestigationFailed, InvestigationRequest, Investigator
    from engine.resolution import Resolver
    from engine.ring import ReferenceRing
    from gateway.app import engine_services

    settings = _settings(args)

    async def work(store: Any) -> int:
        from gateway.stores import prepare

        await prepare(store, args.org)
        services = await engine_services(store, settings)
        graph = store.org(args.org)
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
        as_of = datetime.fromisoformat(args.as_of) if args.as_of else None
        request = InvestigationRequest(
            args.question, as_of=as_of, prior_receipts=tuple(args.receipt or ())
        )
        try:
            result, reused = await investigator.investigate(args.actor, request)
        except PublicError as exc:
            print(f"fabric: {exc}", file=sys.stderr)
            return EXIT_FAILURE
        except InvestigationFailed as failed:
            stage = failed.result.failure_stage
            print(
                f"fabric: the investigation failed at {stage.value if stage else '?'}",
                file=sys.stderr,
            )
            return EXIT_FAILURE
        if args.json:
            print(result.model_dump_json(indent=2))
        else:
            _print_result(result, reused)
        return 0

    return _with_store(settings, work)


def cmd_schema(args: argparse.Namespace) -> int:
    from resolvers.schema import sdl

    sys.stdout.write(sdl())
    return 0


def cmd_graphiql_assets(args: argparse.Namespace) -> int:
    from gateway.graphiql import DEFAULT_DIR, AssetError, fetch_assets

    dest = args.dir or load_settings().graphiql_assets_dir or DEFAULT_DIR
    try:
        written = fetch_assets(dest, args.registry)
    except AssetError as exc:
        print(f"graphiql-assets: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    for path in written:
        print(path)
    return 0


def cmd_config_reference(args: argparse.Namespace) -> int:
    from gateway.configuration import reference

    text = reference()
    if args.out in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


def cmd_keys(args: argparse.Namespace) -> int:
    from gateway.auth import create_key

    async def work(store: Any) -> int:
        from gateway.stores import prepare

        await prepare(store)
        if args.keys_command == "create":
            scopes = frozenset(args.scope or ["read"])
            token, key_id = await create_key(store.keys, args.org, args.actor, scopes)
            print(
                json.dumps(
                    {
                        "key_id": key_id,
                        "org": args.org,
                        "actor": args.actor,
                        "scopes": sorted(scopes),
                        "token": token,
                    }
                )
            )
            return 0
        if args.keys_command == "revoke":
            if not await store.keys.revoke_key(args.key_id):
                print(f"fabric: no key {args.key_id}", file=sys.stderr)
                return EXIT_FAILURE
            print(json.dumps({"key_id": args.key_id, "revoked": True}))
            return 0
        for record in await store.keys.list_keys(args.org):
            print(
                json.dumps(
                    {
                        "key_id": record.key_id,
                        "org": record.org_id,
                        "actor": record.actor,
                        "scopes": list(record.scopes),
                        "revoked": record.revoked,
                    }
                )
            )
        return 0

    try:
        return _with_store(_settings(args), work)
    except ValueError as exc:
        print(f"fabric: {exc}", file=sys.stderr)
        return EXIT_FAILURE


# --- parser -----------------------------------------------------------------------------------


def _graph_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, help="embedded server data directory")
    parser.add_argument("--graph-uri", help="graph store URI (default: embedded)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fabric", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the GraphQL gateway")
    serve.add_argument("--demo", action="store_true", help="load the demo organisation")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument(
        "--log-level", choices=["debug", "info", "warning", "error"], help="FABRIC_LOG_LEVEL"
    )
    _graph_options(serve)
    serve.set_defaults(func=cmd_serve)

    ingest = sub.add_parser("ingest", help="load an NDJSON projection file (or - for stdin)")
    ingest.add_argument("file")
    ingest.add_argument("--org", default="demo")
    ingest.add_argument("--source", default="default")
    ingest.add_argument("--batch-size", type=int, default=5_000)
    ingest.add_argument(
        "--complete",
        action="store_true",
        help="the input is a complete snapshot of the source: afterwards "
        "delete what the source wrote before and the input omits",
    )
    ingest.add_argument(
        "--no-resume",
        action="store_true",
        help="ignore the source's checkpoint and load from the first line",
    )
    _graph_options(ingest)
    ingest.set_defaults(func=cmd_ingest)

    demo = sub.add_parser("demo-data", help="write a deterministic demo organisation")
    demo.add_argument("--records", type=int, default=10_000)
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--out", help="output file (default: stdout)")
    demo.set_defaults(func=cmd_demo_data)

    investigate = sub.add_parser("investigate", help="ask a question of an organisation")
    investigate.add_argument("question")
    investigate.add_argument("--org", default="demo")
    investigate.add_argument("--actor", default="cli")
    investigate.add_argument("--as-of", help="ISO-8601 time the answer is about")
    investigate.add_argument("--receipt", action="append", help="bind a clarification candidate")
    investigate.add_argument("--json", action="store_true", help="print the whole result")
    _graph_options(investigate)
    investigate.set_defaults(func=cmd_investigate)

    reembed = sub.add_parser("reembed", help="rebuild an organisation's subject vectors")
    reembed.add_argument("--org", required=True)
    _graph_options(reembed)
    reembed.set_defaults(func=cmd_reembed)

    from gateway.gitimport import add_import_parser

    add_import_parser(sub, _graph_options)

    schema = sub.add_parser("schema", help="print the GraphQL schema (SDL)")
    schema.set_defaults(func=cmd_schema)

    assets = sub.add_parser(
        "graphiql-assets", help="fetch GraphiQL's pinned UMD assets from the npm registry"
    )
    assets.add_argument("--dir", type=Path, help="target (default: FABRIC_GRAPHIQL_ASSETS_DIR)")
    assets.add_argument("--registry", default="https://registry.npmjs.org")
    assets.set_defaults(func=cmd_graphiql_assets)

    config = sub.add_parser(
        "config-reference", help="write the configuration reference (markdown) of every setting"
    )
    config.add_argument("--out", help="output file, e.g. docs/configuration.md (default: stdout)")
    config.set_defaults(func=cmd_config_reference)

    keys = sub.add_parser("keys", help="manage API keys")
    keys_sub = keys.add_subparsers(dest="keys_command", required=True)
    create = keys_sub.add_parser("create")
    create.add_argument("--org", required=True)
    create.add_argument("--actor", required=True)
    create.add_argument("--scope", action="append", choices=["read", "write", "admin"])
    revoke = keys_sub.add_parser("revoke")
    revoke.add_argument("key_id")
    listing = keys_sub.add_parser("list")
    listing.add_argument("--org")
    for p in (create, revoke, listing):
        _graph_options(p)
    keys.set_defaults(func=cmd_keys)
    return parser


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
