"""A uvicorn server that says where it serves only once it does."""

from __future__ import annotations

import errno
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
            # After every start-up log line (uvicorn's "running on" included), set off from
            # them by a blank line: the JSON log lines share the terminal, and the token,
            # the banner's last line, was easy to miss among them.
            print("\n" + "\n".join(self._said), flush=True)


def port_in_use(host: str, port: int) -> bool:
    """Whether another server listens where this one would: probed before anything starts,
    so a second `fabric serve` says so plainly instead of loading the demo and then failing
    with uvicorn's bind error. Binds as asyncio does (SO_REUSEADDR, IPv6 only on IPv6
    sockets), so a port in TIME_WAIT counts as free, as it is to uvicorn. Any other bind
    failure (an address this host lacks) is left to uvicorn to report."""
    if port == 0:
        return False
    try:
        addresses = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError:
        return False
    for family, kind, proto, _, address in addresses:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return True
    return False
