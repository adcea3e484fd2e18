"""GraphiQL's page and assets: served locally when fetched, the same page over a CDN otherwise,
and the fetch step's integrity check."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gateway.cli import EXIT_FAILURE, main
from gateway.graphiql import (
    ASSETS,
    FILE_INTEGRITY,
    Asset,
    AssetError,
    GraphiQLPage,
    asset_files,
    fetch_assets,
    unpack,
)
from graph.falkor import FalkorStore
from tests.gateway_fixture import Gateway, serve


def _tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _fake_assets(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name in asset_files():
        (directory / name).write_text(f"/* {name} */")


async def _gateway(falkor: FalkorStore, **settings: object) -> AsyncIterator[Gateway]:
    async for running in serve(falkor, **settings):
        yield running


@pytest.fixture
async def local(falkor: FalkorStore, tmp_path: Path) -> AsyncIterator[Gateway]:
    _fake_assets(tmp_path / "assets")
    async for running in _gateway(falkor, graphiql_assets_dir=tmp_path / "assets"):
        yield running


async def test_the_page_and_its_assets_come_from_the_gateway(local: Gateway) -> None:
    page = await local.client.get(local.url, headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "unpkg.com" not in page.text and "cdn" not in page.text.lower()
    for name in asset_files():
        assert f'"graphiql/{name}"' in page.text
    assert 'id="fabric-token"' in page.text
    base = local.url.removesuffix("/graphql")
    script = await local.client.get(f"{base}/graphiql/graphiql.min.js")  # no token needed
    assert script.status_code == 200 and script.text == "/* graphiql.min.js */"
    assert "javascript" in script.headers["content-type"]
    css = await local.client.get(f"{base}/graphiql/graphiql.min.css")
    assert css.headers["content-type"].startswith("text/css")
    assert (await local.client.get(f"{base}/graphiql/../settings.py")).status_code == 404
    # The page is public; data still needs the token.
    anonymous = await local.client.post(local.url, json={"query": "{ __typename }"},
                                        headers={"Accept": "text/html, application/json"})
    assert anonymous.status_code == 401


async def test_without_local_assets_the_page_loads_pinned_files_from_a_cdn(
    falkor: FalkorStore, tmp_path: Path
) -> None:
    """Until every file is fetched, the same page (token field included) loads the same
    pinned versions from jsDelivr, each with its subresource-integrity hash."""
    (tmp_path / "partial").mkdir()
    (tmp_path / "partial" / "graphiql.min.js").write_text("/* only one */")
    async for gateway in _gateway(falkor, graphiql_assets_dir=tmp_path / "partial"):
        page = await gateway.client.get(gateway.url, headers={"Accept": "text/html"})
        assert page.status_code == 200 and 'id="fabric-token"' in page.text
        assert '"graphiql/' not in page.text
        for asset in ASSETS:
            for member, name in asset.files:
                url = f"https://cdn.jsdelivr.net/npm/{asset.package}@{asset.version}/" \
                      f"{member.removeprefix('package/')}"
                assert f'"{url}" integrity="{FILE_INTEGRITY[name]}"' in page.text
        assert "fabric graphiql-assets" in page.text


def test_the_cdn_integrity_hashes_are_those_of_the_pinned_tarballs_files() -> None:
    """FILE_INTEGRITY is the sha384 of each file inside the tarball whose sha512 is pinned:
    checked against the real tarballs when the assets have been fetched here."""
    page = GraphiQLPage(None)
    if not page.complete():
        pytest.skip("GraphiQL assets not fetched here (fabric graphiql-assets)")
    for name, integrity in FILE_INTEGRITY.items():
        digest = hashlib.sha384((page.directory / name).read_bytes()).digest()
        assert integrity == "sha384-" + base64.b64encode(digest).decode(), name


async def test_graphiql_off_serves_neither_page_nor_assets(falkor: FalkorStore,
                                                           tmp_path: Path) -> None:
    _fake_assets(tmp_path)
    async for gateway in _gateway(falkor, graphiql=False, graphiql_assets_dir=tmp_path):
        page = await gateway.client.get(gateway.url, headers={"Accept": "text/html"})
        assert page.status_code == 406
        base = gateway.url.removesuffix("/graphql")
        assert (await gateway.client.get(f"{base}/graphiql/graphiql.min.js")).status_code == 404


def _registry(root: Path, asset: Asset, data: bytes) -> str:
    path = root / asset.tarball
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return root.as_uri()


def test_fetch_unpacks_only_the_named_files_after_the_integrity_check(tmp_path: Path) -> None:
    data = _tarball({"package/umd/x.min.js": b"x()", "package/../../evil": b"no",
                     "package/README.md": b"readme"})
    asset = Asset("x", "1.0.0", _integrity(data), (("package/umd/x.min.js", "x.min.js"),))
    registry = _registry(tmp_path / "registry", asset, data)
    written = fetch_assets(tmp_path / "out", registry, (asset,))
    assert written == [tmp_path / "out" / "x.min.js"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["x.min.js"]
    assert (tmp_path / "out" / "x.min.js").read_bytes() == b"x()"


def test_a_tarball_that_fails_its_integrity_writes_nothing(tmp_path: Path) -> None:
    good = _tarball({"package/x.js": b"good"})
    asset = Asset("x", "1.0.0", _integrity(good), (("package/x.js", "x.js"),))
    with pytest.raises(AssetError, match="does not match the pinned integrity"):
        unpack(asset, _tarball({"package/x.js": b"tampered"}), tmp_path)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(AssetError, match=r"no file package/missing\.js"):
        unpack(Asset("x", "1.0.0", _integrity(good), (("package/missing.js", "m.js"),)),
               good, tmp_path)


def test_the_cli_reports_a_bad_registry_clearly(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    registry = tmp_path / "registry"
    for asset in ASSETS:  # right names, wrong bytes: every pinned checksum must refuse them
        _registry(registry, asset, _tarball({"package/x": b"not the real package"}))
    code = main(["graphiql-assets", "--dir", str(tmp_path / "out"),
                 "--registry", registry.as_uri()])
    assert code == EXIT_FAILURE
    assert "does not match the pinned integrity" in capsys.readouterr().err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    assert main(["graphiql-assets", "--dir", str(tmp_path / "out"),
                 "--registry", (tmp_path / "nowhere").as_uri()]) == EXIT_FAILURE
    assert "cannot download" in capsys.readouterr().err
