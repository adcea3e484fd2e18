"""`fabric serve` says where it serves only once the port listens (gateway.cli.announcing):
a banner printed before uvicorn binds sent a first request to a closed port."""

from __future__ import annotations

import asyncio
import io
import socket
import sys

import pytest
import uvicorn
from starlette.applications import Starlette

from gateway.cli.announcing import AnnouncingServer
from tests.test_cli import free_port


class _Probe(io.StringIO):
    """Stdout that tries the port the moment anything is written to it."""

    def __init__(self, port: int) -> None:
        super().__init__()
        self.port = port
        self.listening: list[bool] = []

    def write(self, text: str) -> int:
        if text.strip():
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                self.listening.append(True)
            except OSError:
                self.listening.append(False)
        return super().write(text)


async def test_the_banner_is_printed_once_the_port_accepts_connections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port = free_port()
    probe = _Probe(port)
    monkeypatch.setattr(sys, "stdout", probe)
    config = uvicorn.Config(Starlette(), host="127.0.0.1", port=port, log_config=None,
                            lifespan="on")
    server = AnnouncingServer(config, ["Context Fabric Gateway: somewhere", "Bearer token: t"])
    serving = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started or serving.done():
            break
        await asyncio.sleep(0.01)
    server.should_exit = True
    await serving
    assert probe.listening == [True]
    assert "Bearer token: t" in probe.getvalue()
