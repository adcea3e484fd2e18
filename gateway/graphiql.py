"""GraphiQL served by the gateway itself: pinned npm assets, the fetch step, and the page.

A public CDN is out of reach on closed networks, so the page loads React and GraphiQL from
the gateway: `fabric graphiql-assets` (and `fabric serve --demo` on its first start)
downloads pinned tarballs from the npm registry, checks each against the registry's
published sha512 integrity, and extracts the few UMD files into a static directory
(git-ignored, never committed). When that directory holds every file, GET /graphql in a
browser gets our page loading them from `graphiql/` next to it; until then the same page
(with its bearer-token field) loads the same pinned files from jsDelivr, each checked by
the browser against its subresource-integrity hash.

The same step fetches graphql-ws's browser build (SUBSCRIPTIONS), which the dashboard
(gateway.dashboard) loads for its live panels.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tarfile
import tempfile
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REGISTRY = "https://registry.npmjs.org"
CDN = "https://cdn.jsdelivr.net/npm"
DEFAULT_DIR = Path(__file__).parent / "static" / "graphiql"
# Relative to /graphql, so the page also works behind a proxy that adds a path prefix.
ASSETS_PATH = "graphiql"
_PAGE = Path(__file__).with_name("graphiql.html")


class AssetError(Exception):
    """A tarball could not be fetched, failed its integrity check, or lacks a file."""


@dataclass(frozen=True)
class Asset:
    """One npm package version and the files the page needs from its tarball."""

    package: str
    version: str
    integrity: str  # the registry's `dist.integrity`: "sha512-" + base64 digest
    files: tuple[tuple[str, str], ...]  # (path inside the tarball, local file name)

    @property
    def tarball(self) -> str:
        return f"{self.package}/-/{self.package}-{self.version}.tgz"


ASSETS: tuple[Asset, ...] = (
    Asset(
        "react",
        "18.3.1",
        "sha512-wS+hAgJShR0KhEvPJArfuPVN1+Hz1t0Y6n5jLrGQbkb4urgPE/0Rve+1kMB1v/oWgHgm4WIcV+i7F2pTVj+2iQ==",
        (("package/umd/react.production.min.js", "react.production.min.js"),),
    ),
    Asset(
        "react-dom",
        "18.3.1",
        "sha512-5m4nQKp+rZRb09LNH59GM4BxTh9251/ylbKIbpe7TpGxfJ+9kv6BLkLBXIjjspbgbnIBNqlI23tRnTWT0snUIw==",
        (("package/umd/react-dom.production.min.js", "react-dom.production.min.js"),),
    ),
    Asset(
        "graphiql",
        "3.8.3",
        "sha512-cuPDYtXVKV86Pu5PHBX642Odi/uVEE2y1Jxq5rGO/Qy1G2lRp7ZZ7a/T30RzxhuLSWo9zUbzq0P3U49//H0Ugw==",
        (
            ("package/graphiql.min.js", "graphiql.min.js"),
            ("package/graphiql.min.css", "graphiql.min.css"),
        ),
    ),
)


# graphql-ws's browser build (global `graphqlWs`): the dashboard's subscriptions.
SUBSCRIPTIONS: tuple[Asset, ...] = (
    Asset(
        "graphql-ws",
        "6.4.2",
        "sha512-wxhPhhOGJo8PbGDkBYVE76sZLDrS+GkyrR4bZECSLVbo0pZZNKs0HtBh2Ip/uaUuiVUxwO9ssI9R92buQfNSqQ==",
        (("package/umd/graphql-ws.min.js", "graphql-ws.min.js"),),
    ),
)
# Everything `fabric graphiql-assets` fetches into the one static directory.
FETCHED = ASSETS + SUBSCRIPTIONS


# Subresource-integrity hashes of the files themselves (sha384, computed from the tarballs
# above), for the CDN page: the browser refuses a file that does not match.
FILE_INTEGRITY = {
    "react.production.min.js":
        "sha384-DGyLxAyjq0f9SPpVevD6IgztCFlnMF6oW/XQGmfe+IsZ8TqEiDrcHkMLKI6fiB/Z",
    "react-dom.production.min.js":
        "sha384-gTGxhz21lVGYNMcdJOyq01Edg0jhn/c22nsx0kyqP0TxaV5WVdsSH1fSDUf5YJj1",
    "graphiql.min.js": "sha384-HbRVEFG0JGJZeAHCJ9Xm2+tpknBQ7QZmNlO/DgZtkZ0aJSypT96YYGRNod99l9Ie",
    "graphiql.min.css": "sha384-Mq3vbRBY71jfjQAt/DcjxUIYY33ksal4cgdRt9U/hNPvHBCaT2JfJ/PTRiPKf0aM",
}


def asset_files(assets: tuple[Asset, ...] = ASSETS) -> list[str]:
    return [local for asset in assets for _, local in asset.files]


def subscription_files() -> list[str]:
    return asset_files(SUBSCRIPTIONS)


def check_integrity(asset: Asset, data: bytes) -> None:
    algorithm, _, expected = asset.integrity.partition("-")
    if algorithm != "sha512":
        raise AssetError(f"{asset.package}@{asset.version}: unsupported integrity {algorithm}")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if actual != expected:
        raise AssetError(
            f"{asset.package}@{asset.version}: tarball sha512 {actual} does not match the "
            f"pinned integrity {expected}"
        )


def unpack(asset: Asset, data: bytes, dest: Path) -> list[Path]:
    """Check `data` (the tarball) and write the asset's files into `dest`.

    Only the named members are read, and under names we choose, so a hostile tarball cannot
    write outside `dest`. Each file is written to a temporary name and renamed, so a reader
    never sees half a file."""
    check_integrity(asset, data)
    dest.mkdir(parents=True, exist_ok=True)
    written = []
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member, local in asset.files:
            try:
                extracted = tar.extractfile(member)
            except KeyError:
                extracted = None
            if extracted is None:
                raise AssetError(f"{asset.package}@{asset.version}: no file {member}")
            fd, tmp = tempfile.mkstemp(dir=dest, prefix=f".{local}.")
            with os.fdopen(fd, "wb") as out:
                out.write(extracted.read())
            os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide it from a server run as another user
            target = dest / local
            Path(tmp).replace(target)
            written.append(target)
    return written


def download(url: str, timeout_s: float = 120.0) -> bytes:
    if not url.startswith(("https://", "http://", "file://")):
        raise AssetError(f"unsupported registry URL {url}")
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:  # noqa: S310 (checked above)
            body: bytes = response.read()
    except OSError as exc:
        raise AssetError(f"cannot download {url}: {exc}") from exc
    return body


def fetch_assets(
    dest: Path = DEFAULT_DIR,
    registry: str = REGISTRY,
    assets: tuple[Asset, ...] = FETCHED,
    progress: Callable[[str], None] | None = None,
) -> list[Path]:
    """Download, check and unpack every asset into `dest`; returns the files written.
    `progress` is told each package before its download starts."""
    written: list[Path] = []
    for asset in assets:
        if progress is not None:
            progress(f"{asset.package}@{asset.version}")
        data = download(f"{registry.rstrip('/')}/{asset.tarball}")
        written += unpack(asset, data, dest)
    return written


def _tags(sources: dict[str, tuple[str, str]]) -> str:
    """The page's stylesheet and script tags; sources: local file name -> (url, integrity)."""
    tags = []
    for name, (url, integrity) in sources.items():
        check = f' integrity="{integrity}" crossorigin="anonymous"' if integrity else ""
        if name.endswith(".css"):
            tags.append(f'<link rel="stylesheet" href="{url}"{check} />')
        else:
            tags.append(f'<script src="{url}"{check}></script>')
    return "\n    ".join(tags)


class GraphiQLPage:
    """The gateway's GraphiQL page: its assets from `directory` once it holds every file,
    else from the CDN. Checked per request, so fetching the assets needs no restart."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory or DEFAULT_DIR

    def complete(self) -> bool:
        return all((self.directory / name).is_file() for name in asset_files())

    def fetched(self) -> bool:
        """Every asset `fabric graphiql-assets` fetches is here (the dashboard's too)."""
        return all((self.directory / name).is_file() for name in asset_files(FETCHED))

    def html(self) -> str:
        local = self.complete()
        sources: dict[str, tuple[str, str]] = {}
        for asset in ASSETS:
            for member, name in asset.files:
                if local:
                    sources[name] = (f"{ASSETS_PATH}/{name}", "")
                else:
                    path = member.removeprefix("package/")
                    url = f"{CDN}/{asset.package}@{asset.version}/{path}"
                    sources[name] = (url, FILE_INTEGRITY[name])
        notice = "" if local else (
            "GraphiQL loads from a CDN: the gateway has no local copy yet "
            "(<code>fabric graphiql-assets</code> fetches one)."
        )
        page = _PAGE.read_text(encoding="utf-8")
        return page.replace("{{ASSETS}}", _tags(sources)).replace("{{NOTICE}}", notice)
