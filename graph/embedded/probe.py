"""Talking to the server over its unix socket by hand (RESP), without a client library or a
pool: the start-up, the stop and `fabric` commands ask a server that may still be loading
(it answers PING with -LOADING, and INFO between chunks of its files) or may not be there.
"""

from __future__ import annotations

import socket


def ping(sock_path: str, timeout: float) -> bytes:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(sock_path)
            s.sendall(b"PING\r\n")
            return s.recv(64)
    except OSError:
        return b""


def command(sock_path: str, *args: str, timeout: float = 2.0) -> bytes:
    """One command over RESP; the whole reply (a status, an error or one bulk string)."""
    payload = f"*{len(args)}\r\n".encode() + b"".join(
        f"${len(a.encode())}\r\n".encode() + a.encode() + b"\r\n" for a in args
    )
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(sock_path)
            s.sendall(payload)
            reply = s.recv(65536)
            if reply.startswith(b"$") and b"\r\n" in reply:
                head, _, _ = reply.partition(b"\r\n")
                wanted = len(head) + 2 + int(head[1:]) + 2
                while len(reply) < wanted:
                    more = s.recv(65536)
                    if not more:
                        break
                    reply += more
            return reply
    except (OSError, ValueError):
        return b""


def info(sock_path: str, section: str = "persistence", timeout: float = 2.0) -> dict[str, str]:
    """The server's INFO fields of one section (empty when it does not answer within
    `timeout`). Redis answers INFO while it loads, between chunks of its files."""
    return info_fields(command(sock_path, "INFO", section, timeout=timeout))


def info_fields(reply: bytes) -> dict[str, str]:
    """The fields of an INFO reply; empty for anything else (an error, no answer)."""
    if not reply.startswith(b"$"):
        return {}
    text = reply.partition(b"\r\n")[2].decode("utf-8", "replace")
    pairs = (line.split(":", 1) for line in text.splitlines() if ":" in line)
    return {k: v.strip() for k, v in pairs}


def answers(sock_path: str, timeout: float = 1.0) -> bool:
    """True when a server on the socket answers PING (not while it is still loading)."""
    return ping(sock_path, timeout).startswith(b"+PONG")
