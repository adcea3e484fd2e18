"""The dashboard at /dashboard: static pages built only on the public GraphQL API.

The pages (web/) are plain HTML, CSS and JavaScript shipped in the package: no build step.
Every request they send is a named operation of operations.graphql, sent as a persisted query
(GET for queries, so answers revalidate with ETags); the page gets the documents and their
SHA-256 hashes embedded in its HTML, so it never hashes in the browser (which has no
`crypto.subtle` on a plain-HTTP origin other than localhost). Subscriptions use graphql-ws's
browser build, a pinned npm asset fetched like GraphiQL's (gateway.graphiql) and served
from /dashboard/vendor/: no CDN at run time. The bearer token is typed once and kept in the
tab's sessionStorage, never in a URL.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from graphql import (
    DocumentNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    Node,
    OperationDefinitionNode,
    Visitor,
    parse,
    visit,
)
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from gateway.documents import sha256_hex
from gateway.graphiql import GraphiQLPage, subscription_files

WEB = Path(__file__).with_name("web")
OPERATIONS = Path(__file__).with_name("operations.graphql")
PATH = "/dashboard"
# The organisation page's first load: the clock (unless the time is in the URL), then these.
ORGANISATION_PAGE = ("DashboardClock", "OrgRepositories", "OrgServices", "OrgRecent")


class _Spreads(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: list[str] = []

    def enter_fragment_spread(self, node: FragmentSpreadNode, *_: object) -> None:
        self.names.append(node.name.value)


def _text(source: str, node: Node) -> str:
    assert node.loc is not None
    return source[node.loc.start : node.loc.end]


def _fragments_of(node: Node, fragments: dict[str, FragmentDefinitionNode]) -> list[str]:
    """The fragments `node` spreads, directly or through other fragments, in first-use order."""
    found: list[str] = []
    pending = [node]
    while pending:
        spreads = _Spreads()
        visit(pending.pop(), spreads)
        for name in spreads.names:
            if name not in found:
                found.append(name)
                pending.append(fragments[name])
    return found


@cache
def documents() -> dict[str, str]:
    """Each operation of operations.graphql by name, as one document: its text as written,
    followed by the fragments it uses. These exact texts (and their hashes) are what the
    pages send."""
    source = OPERATIONS.read_text(encoding="utf-8")
    document: DocumentNode = parse(source)
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    found: dict[str, str] = {}
    for definition in document.definitions:
        if isinstance(definition, OperationDefinitionNode) and definition.name is not None:
            parts = [definition, *(fragments[n] for n in _fragments_of(definition, fragments))]
            found[definition.name.value] = "\n\n".join(_text(source, p) for p in parts)
    return found


@cache
def _page() -> str:
    """index.html with the documents (text and hash, by operation name) embedded."""
    embedded = {
        name: {"query": text, "sha256": sha256_hex(text)} for name, text in documents().items()
    }
    # Inside <script type="application/json">: only "</" could end the element early.
    data = json.dumps(embedded, separators=(",", ":")).replace("</", "<\\/")
    return (WEB / "index.html").read_text(encoding="utf-8").replace("{{DOCUMENTS}}", data)


def routes(assets: GraphiQLPage) -> list[BaseRoute]:
    """/dashboard/ (the page), its static files, and graphql-ws from the fetched assets."""

    async def page(request: Request) -> Response:
        missing = [n for n in subscription_files() if not (assets.directory / n).is_file()]
        # Without graphql-ws the pages still work; the live panels say why they cannot.
        notice, script = (
            ("Live updates need graphql-ws, which this gateway has not fetched yet: run "
             "<code>fabric graphiql-assets</code>.", "")
            if missing
            else ("", '<script src="vendor/graphql-ws.min.js"></script>')
        )
        body = _page().replace("{{NOTICE}}", notice).replace("{{SUBSCRIPTIONS}}", script)
        return HTMLResponse(body, headers={"Cache-Control": "no-cache"})

    async def bare(request: Request) -> Response:
        # Relative, so it holds behind a proxy that adds a path prefix.
        return RedirectResponse("dashboard/", status_code=308)

    return [
        Route(PATH, bare),
        Route(f"{PATH}/", page),
        Route(f"{PATH}/index.html", page),
        Mount(f"{PATH}/vendor", StaticFiles(directory=assets.directory, check_dir=False)),
        Mount(PATH, StaticFiles(directory=WEB)),
    ]


