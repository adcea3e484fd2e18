"""`fabric serve` with two or more workers (gateway.workers): this process opens the graph
store first (starting the embedded server, or joining the one running on the directory),
bootstraps it and loads the demo once, then runs the workers, which connect to it; it stops
the embedded server it started only after every worker has finished."""

from __future__ import annotations

import asyncio
import contextlib
import functools

from gateway.cli.common import fail
from gateway.settings import Settings


def serve_workers(settings: Settings, workers: int, *, demo: bool) -> int:
    import uvicorn

    from engine.ports import GraphError
    from gateway.cli.serve import announcements
    from gateway.server import server_options
    from gateway.stores import open_store, prepare
    from gateway.workers import serve, worker_app
    from graph.embedded import EmbeddedError, compact

    try:
        opened = open_store(settings)
    except (EmbeddedError, ValueError) as exc:
        return fail(str(exc))

    async def ready_store() -> list[str]:
        try:
            await prepare(opened.store)  # once here: the workers' bootstraps find it done
            return await announcements(opened.store, settings, demo)
        finally:
            await opened.store.close()  # the workers open their own

    try:
        try:
            said = asyncio.run(ready_store())
        except GraphError as exc:
            return fail(f"graph store error ({exc.code}) while starting")
        # The workers join the server this process runs (or joined): none starts one.
        joined = {"graph_uri": f"unix://{opened.socket}"} if opened.socket else {}
        config = uvicorn.Config(
            functools.partial(worker_app, settings.model_copy(update={**joined, "workers": 1})),
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=workers,
            log_level=settings.log_level,
            log_config=None,  # each worker configures gateway.logs
            access_log=False,
            lifespan="on",
            # A stopping worker finishes what it has: at most a request's time limit.
            timeout_graceful_shutdown=int(settings.request_timeout_s) + 5,
            **server_options(settings),
        )

        def ready(pids: list[int]) -> None:
            line = f"{workers} gateway processes serve the port (pids {', '.join(map(str, pids))})"
            print("\n" + "\n".join([*said, line]), flush=True)

        with contextlib.suppress(KeyboardInterrupt):
            serve(config, opened.server, ready)
    finally:
        if opened.server is not None:
            opened.server.stop()  # a snapshot first, then the server
        elif opened.socket is not None:
            compact(opened.socket, 0.0)  # someone else's server: what the workers logged
    return 0
