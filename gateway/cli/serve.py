"""`fabric serve`: run the GraphQL gateway (optionally with the demo organisation loaded)."""

from __future__ import annotations

import argparse
from typing import Any

from gateway.cli.common import add_graph_options, settings_from


def add_parser(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run the GraphQL gateway")
    serve.add_argument("--demo", action="store_true", help="load the demo organisation")
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument(
        "--log-level", choices=["debug", "info", "warning", "error"], help="FABRIC_LOG_LEVEL"
    )
    add_graph_options(serve)
    serve.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from gateway import logs, tracing
    from gateway.app import Runtime, create_app
    from gateway.demo import demo_token, ensure_demo_data

    settings = settings_from(args)
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
