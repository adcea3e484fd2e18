"""`fabric serve` with two or more workers (gateway.workers): this process opens the graph
store first (starting the embedded server, or joining the one running on the directory),
bootstraps it and loads the demo once, then runs the workers, which connect to it; it stops
the embedded server it started only after every worker has finished."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from typing import TYPE_CHECKING

from gateway.cli.common import fail
from gateway.settings import Settings

if TYPE_CHECKING:
    from gateway.stores import OpenedStore
    from graph.embedded import EmbeddedServer


def serve_workers(settings: Settings, workers: int, *, demo: bool) -> int:
    import uvicorn

    from gateway.server import server_options
    from gateway.stores import launch_embedded
    from gateway.workers import serve, spawn_gate, worker_app
    from graph.embedded import EmbeddedError, compact

    # The data directory's server loads while the workers start (each imports the whole
    # gateway, seconds of a restart): they wait for this process to have it ready.
    try:
        launched = launch_embedded(settings)
    except (EmbeddedError, ValueError) as exc:
        return fail(str(exc))
    said: list[str] = []
    opened: list[OpenedStore] = []

    def ready_store() -> None:
        opened.append(_open(settings, launched, demo, said))

    try:
        if launched is None:  # a server already running (or no embedded store): open it now
            ready_store()
            socket = opened[0].socket
        else:
            socket = str(launched.socket)
        gate = spawn_gate() if launched is not None else None
        # The workers join the server this process runs (or joined): none starts one.
        joined = {"graph_uri": f"unix://{socket}"} if socket else {}
        config = uvicorn.Config(
            functools.partial(
                worker_app, settings.model_copy(update={**joined, "workers": 1}), gate
            ),
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

        def before() -> None:
            ready_store()
            assert gate is not None
            gate.set()

        def ready(pids: list[int]) -> None:
            line = f"{workers} gateway processes serve the port (pids {', '.join(map(str, pids))})"
            print("\n" + "\n".join([*said, line]), flush=True)

        server = launched if launched is not None else opened[0].server
        with contextlib.suppress(KeyboardInterrupt):
            serve(config, server, ready, before if launched is not None else None)
    except StartFailed as exc:
        return fail(str(exc))
    finally:
        server = launched if launched is not None else (opened[0].server if opened else None)
        if server is not None:
            server.stop()  # a snapshot first, then the server
        elif opened and opened[0].socket is not None:
            compact(opened[0].socket, 0.0)  # someone else's server: what the workers logged
    return 0


class StartFailed(Exception):
    """The graph store could not be opened or prepared: said, and `fabric serve` fails."""


def _open(
    settings: Settings, launched: EmbeddedServer | None, demo: bool, said: list[str]
) -> OpenedStore:
    """The store opened (waiting for `launched` to load), bootstrapped once here (the
    workers' bootstraps find it done) and the demo loaded; what to announce goes to `said`."""
    from engine.ports import GraphError
    from gateway.cli.serve import announcements
    from gateway.stores import open_store, prepare
    from graph.embedded import EmbeddedError

    try:
        opened = open_store(settings, launched=launched)
    except (EmbeddedError, ValueError) as exc:
        raise StartFailed(str(exc)) from exc

    async def ready_store() -> list[str]:
        try:
            await prepare(opened.store)
            return await announcements(opened.store, settings, demo)
        finally:
            await opened.store.close()  # the workers open their own

    try:
        said.extend(asyncio.run(ready_store()))
    except GraphError as exc:
        raise StartFailed(f"graph store error ({exc.code}) while starting") from exc
    return opened
