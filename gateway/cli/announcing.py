"""A uvicorn server that says where it serves only once it does."""

from __future__ import annotations

import socket

import uvicorn


class AnnouncingServer(uvicorn.Server):
    """Prints the banner once the port listens. The app's startup (which loads the demo and
    makes its token) runs before uvicorn binds, and a banner printed there invited a first
    request to a port not yet open: a user pasting the URL at once, or a script, got
    "connection refused"."""

    def __init__(self, config: uvicorn.Config, said: list[str]) -> None:
        super().__init__(config)
        self._said = said

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            print("\n".join(self._said), flush=True)
