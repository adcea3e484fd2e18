"""The dashboard in a real browser: Chromium (tests/chromium.py) against a live gateway holding
the demo organisation, and graphql-ws fetched as `fabric serve --demo` fetches it.

One walk through the four pages, as a user: the token typed once; the organisation page's
figures checked against the API; a subject; a question whose evidence opens a record and
whose clarification is chosen with the keyboard; the live page updated by an ingest. Along
the way: no console error, no request off the gateway's origin, no horizontal scrolling at a
phone's width. Each page's screenshot is written to a directory of the run's own, or to
docs/images/ (README shows one) with FABRIC_UPDATE_SCREENSHOTS=1. The
first load's GraphQL requests and time to render are printed (reported, not asserted).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx

from gateway.dashboard import documents
from gateway.demo import DEMO_SEED
from gateway.graphiql import GraphiQLPage
from graph.falkor import FalkorStore
from graph.projection import Projector
from sources.demo import generate
from tests import system_tools
from tests.chromium import browser
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve
from tests.helpers import load, subject
from tests.readme import Demo

# The screenshots README shows are rewritten only when asked (FABRIC_UPDATE_SCREENSHOTS=1):
# a plain run must leave the checkout as it found it, so it writes them to a directory of its own.
DOCS_IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
IMAGES = (
    DOCS_IMAGES if os.environ.get("FABRIC_UPDATE_SCREENSHOTS") == "1"
    else Path(tempfile.mkdtemp(prefix="fabric-dashboard-shots-"))
)
WAIT_S = 60
LIVE_KEY = "repository:dashboard-live"


@dataclass
class Seen:
    """What the browser did: every request's URL, GraphQL operations by name, statuses."""

    urls: list[str] = field(default_factory=list)
    operations: list[str] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    console: list[dict[str, Any]] = field(default_factory=list)

    def read(self, driver: Any) -> None:
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            params = message.get("params", {})
            if message["method"] == "Network.requestWillBeSent":
                url = params["request"]["url"]
                self.urls.append(url)
                if urlsplit(url).path.endswith("/graphql"):
                    self.operations.append(_operation(params["request"]))
            elif message["method"] == "Network.webSocketCreated":
                self.urls.append(params["url"])
            elif message["method"] == "Network.responseReceived" and urlsplit(
                    params["response"]["url"]).path.endswith("/graphql"):
                self.statuses[params["response"]["status"]] += 1
        self.console += driver.get_log("browser")


def _operation(request: dict[str, Any]) -> str:
    if request["method"] == "GET":
        return parse_qs(urlsplit(request["url"]).query)["operationName"][0]
    return str(json.loads(request.get("postData") or "{}").get("operationName"))


def _ready(driver: Any, page: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    def done(d: Any) -> bool:
        main = d.find_element("id", "main")
        errors = d.find_elements("css selector", "#main .error")
        assert not errors, errors[0].text
        return bool(main.get_attribute("data-page") == page and main.get_attribute("data-ready"))

    WebDriverWait(driver, WAIT_S).until(done)


def _shot(driver: Any, name: str, width: int, height: int | None = None) -> Path:
    """A screenshot of the page at `width` (as tall as the page, up to `height`), kept small."""
    full = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(full, height or 1000) + 140)  # the window's own chrome
    path = IMAGES / f"dashboard-{name}.png"
    IMAGES.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(path))
    return path


def _text(driver: Any, css: str) -> str:
    return str(driver.find_element("css selector", css).text)


def _stat(driver: Any, name: str) -> int:
    return int(_text(driver, f'[data-stat="{name}"] .n').replace(",", ""))


async def test_the_dashboard_on_the_demo_in_chromium(falkor: FalkorStore,
                                                     readme_demo: Demo) -> None:
    if not GraphiQLPage(readme_demo.assets).fetched():
        system_tools.missing("registry", "the npm registry (graphql-ws's browser build)")
    org = new_org()
    await falkor.bootstrap(org)
    lines = (json.dumps(r) for r in generate(20_000, seed=DEMO_SEED))  # README's demo
    assert (await Projector(falkor.org(org), source="demo").run(lines)).ok
    async for gateway in serve(falkor, graphiql_assets_dir=readme_demo.assets):
        token = await gateway.token(org)
        ingest = _ingester(falkor, org, asyncio.get_running_loop())
        # selenium blocks; the gateway runs on this event loop, so the browser gets a thread.
        seen, answers = await asyncio.to_thread(_walk, gateway.url, token, ingest)
        # Another caller: the references the browser's key resolved (Alex Kim, chosen) would
        # otherwise rank the same question's candidates differently (useRecent).
        await _check_against_the_api(gateway, await gateway.token(org, "checker"), answers)
        # A receipt answers only the caller it was offered to: the browser's key.
        chosen = (await gateway.query(token, documents()["Ask"], {
            "question": "why is Alex behind?", "receipts": [answers["receipt"]]})).json()
        result = chosen["data"]["investigate"]["result"]
        assert result["outcome"] == "ANSWERED"
        assert result["directJudgment"] in answers["answer"] and "Alex Kim" in answers["answer"]
    origin = urlsplit(gateway.url).netloc
    # Over the network (not data: URLs, nor the browser's own chrome:// start page).
    network = [u for u in seen.urls if urlsplit(u).scheme in ("http", "https", "ws", "wss")]
    off_origin = [u for u in network if urlsplit(u).netloc != origin]
    assert not off_origin, off_origin
    assert any(u.startswith("ws://") for u in network)  # the live page's graphql-ws
    errors = [e for e in seen.console if e["level"] == "SEVERE"]
    assert not errors, errors


def _ingester(falkor: FalkorStore, org: str, loop: asyncio.AbstractEventLoop) -> Any:
    """An ingest the browser's thread runs on the gateway's loop: a new repository, valid
    from now (the figures checked as of the demo's last day stay), with a deploy."""

    def ingest() -> None:
        now = datetime.now(UTC).isoformat()
        records = [subject(LIVE_KEY, "dashboard-live", valid_from=now), {
            "type": "source_record", "key": "deploy:dashboard-live", "record_kind": "deploy",
            "subject": LIVE_KEY, "title": "dashboard-live v1", "start": now}]  # fmt: skip
        asyncio.run_coroutine_threadsafe(
            load(falkor.org(org), records, source="live-test"), loop).result(WAIT_S)

    return ingest


def _walk(url: str, token: str, ingest: Any) -> tuple[Seen, dict[str, Any]]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    dashboard = url.removesuffix("/graphql") + "/dashboard"
    seen = Seen()
    answers: dict[str, Any] = {}
    with browser(1280, 900, logs=True) as driver:
        wait = WebDriverWait(driver, WAIT_S)
        driver.get(dashboard)  # redirected to /dashboard/; asks for the token, sends nothing
        field = wait.until(ec.element_to_be_clickable((By.ID, "token")))
        assert driver.find_element(By.CSS_SELECTOR, "label[for=token]").text == "Bearer token"
        seen.read(driver)
        assert seen.operations == []
        field.send_keys(token, Keys.ENTER)
        _ready(driver, "org")
        # The first load: its GraphQL requests and the time from the token to the page.
        seen.read(driver)
        first = list(seen.operations)
        took = driver.execute_script(
            "return performance.measure('first', 'fabric-token', 'fabric-rendered').duration")
        each = driver.execute_script(_GRAPHQL_TIMES)
        print(f"\nfirst load: {len(first)} GraphQL requests, rendered in {took:.0f} ms after the "
              f"token was entered; each request's start and duration (ms): {each}")
        assert token not in driver.current_url and "token" not in driver.current_url
        answers["asOf"] = driver.find_element(By.ID, "as-of").get_attribute("value")
        answers["window"] = driver.find_element(By.ID, "window").get_attribute("value")
        answers["stats"] = {n: _stat(driver, n) for n in
                            ("repositories", "services", "merged", "deploys", "incidents")}
        answers["busiest"] = _text(driver, '[aria-labelledby="h-busiest-repositories"] li a')
        _shot(driver, "organisation", 1280, 1500)
        # Reloaded: the same documents by hash alone.
        before = len(seen.operations)
        driver.refresh()
        _ready(driver, "org")
        seen.read(driver)
        took = driver.execute_script(
            "return performance.measure('reload', undefined, 'fabric-rendered').duration")
        print(f"reload: {len(seen.operations) - before} GraphQL requests, rendered {took:.0f} ms "
              "after the navigation started")

        # Subject: a repository from the busiest list, then back to the organisation.
        driver.find_element(By.LINK_TEXT, "payments-api").click()
        _ready(driver, "subject")
        answers["subject_h1"] = _text(driver, "#main h1")
        answers["relationships"] = _text(driver, '[aria-labelledby="h-relationships-over-the-window"] caption')
        answers["people"] = [a.text for a in driver.find_elements(
            By.CSS_SELECTOR, '[aria-labelledby="h-people-who-changed-it"] li a')]
        _shot(driver, "subject", 1280, 1500)
        seen.read(driver)
        seen.statuses.clear()
        driver.back()  # nothing changed: the organisation's documents are revalidated, 304
        _ready(driver, "org")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-panel="recent-deploys"] li'))
        seen.read(driver)
        answers["revalidated"] = dict(seen.statuses)

        # Ask: evidence opens its record; a clarification is chosen with the keyboard.
        driver.find_element(By.LINK_TEXT, "Ask").click()
        question = wait.until(ec.element_to_be_clickable((By.ID, "question")))
        question.clear()
        question.send_keys("why is payments-api behind?", Keys.ENTER)
        evidence = wait.until(ec.element_to_be_clickable((By.CSS_SELECTOR, "[data-record]")))
        _shot(driver, "ask", 1280, 1100)
        answers["evidence_key"] = evidence.get_attribute("data-record")
        evidence.click()
        dialog = wait.until(ec.visibility_of_element_located((By.ID, "record")))
        wait.until(ec.text_to_be_present_in_element((By.ID, "record-body"), answers["evidence_key"]))
        answers["record_text"] = dialog.text
        dialog.find_element(By.CSS_SELECTOR, ".close button").send_keys(Keys.ENTER)
        wait.until(ec.invisibility_of_element_located((By.ID, "record")))
        question.clear()
        question.send_keys("why is Alex behind?", Keys.ENTER)
        wait.until(ec.presence_of_element_located(
            (By.CSS_SELECTOR, '[data-outcome="CLARIFICATION_REQUIRED"]')))
        choices = driver.find_elements(By.CSS_SELECTOR, "[data-receipt]")
        answers["choices"] = [c.text for c in choices]
        chosen = next(c for c in choices if c.text.startswith("Alex Kim"))
        answers["receipt"] = chosen.get_attribute("data-receipt")
        driver.execute_script("arguments[0].focus()", chosen)
        driver.switch_to.active_element.send_keys(Keys.ENTER)  # the keyboard, not a click
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, '[data-outcome="ANSWERED"]')))
        answers["answer"] = _text(driver, "#answer")

        # Live: connected, then an ingest updates its panels without a reload.
        driver.find_element(By.LINK_TEXT, "Live").click()
        _ready(driver, "live")
        wait.until(lambda d: d.find_element(By.ID, "live-badge").get_attribute("data-state") == "live")
        navigations = driver.execute_script("return performance.getEntriesByType('navigation').length")
        ingest()
        wait.until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, '[data-panel="batches"]'), "live-test"))
        wait.until(ec.presence_of_element_located(
            (By.CSS_SELECTOR, f'[data-panel="changed"] [data-key="{LIVE_KEY}"]')))
        wait.until(ec.presence_of_element_located(
            (By.CSS_SELECTOR, f'[data-panel="active"] [data-key="{LIVE_KEY}"]')))
        answers["live_badge"] = _text(driver, "#live-badge")
        assert driver.execute_script("return performance.getEntriesByType('navigation').length") == navigations
        _shot(driver, "live", 1280, 700)

        # A phone's width: nothing scrolls sideways.
        driver.set_window_size(390, 844)
        driver.get(dashboard + "/#/org")
        _ready(driver, "org")
        answers["overflow"] = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        _shot(driver, "phone", 390, 1400)
        answers["unlabelled"] = driver.execute_script(_UNLABELLED)
        seen.read(driver)
    return seen, answers


# Each GraphQL request of the page so far: operation, start and duration in milliseconds.
_GRAPHQL_TIMES = """
return performance.getEntriesByType("resource").filter((e) => e.name.includes("/graphql?"))
  .map((e) => [new URL(e.name).searchParams.get("operationName"),
               Math.round(e.startTime), Math.round(e.duration)]);
"""


# Form fields without a label, and buttons or links without text: each one's outer HTML.
_UNLABELLED = """
const bad = [];
for (const el of document.querySelectorAll("input, select, textarea")) {
  if (!el.labels.length && !el.getAttribute("aria-label")) bad.push(el.outerHTML);
}
for (const el of document.querySelectorAll("button, a")) {
  if (!el.textContent.trim() && !el.getAttribute("aria-label")) bad.push(el.outerHTML);
}
return bad;
"""


async def _check_against_the_api(gateway: Gateway, token: str, answers: dict[str, Any]) -> None:
    """The page showed what the API answers to the same documents and variables."""
    day = datetime.fromisoformat(answers["asOf"]).replace(tzinfo=UTC)
    end = day.timestamp() + 86_400
    days = int(answers["window"])
    variables = {
        "asOf": datetime.fromtimestamp(end, UTC).isoformat(),
        "window": {"from": datetime.fromtimestamp(end - days * 86_400, UTC).isoformat(),
                   "to": datetime.fromtimestamp(end, UTC).isoformat()},
        "bucket": "WEEK",
    }
    docs = documents()
    repos = (await gateway.query(token, docs["OrgRepositories"], variables)).json()["data"]
    services = (await gateway.query(token, docs["OrgServices"], variables)).json()["data"]
    nodes = [e["node"] for e in repos["subjects"]["edges"]]
    serving = [e["node"] for e in services["subjects"]["edges"]]
    assert answers["stats"] == {
        "repositories": repos["subjects"]["totalCount"],
        "services": services["subjects"]["totalCount"],
        "merged": sum(n["merged"]["total"] for n in nodes),
        "deploys": sum(n["deploys"]["total"] for n in serving),
        "incidents": sum(n["incidents"]["total"] for n in serving),
    }
    assert answers["stats"]["merged"] > 0 and answers["stats"]["repositories"] == len(nodes)
    top = max(n["merged"]["total"] for n in nodes)
    assert answers["busiest"] in {n["name"] for n in nodes if n["merged"]["total"] == top}
    # Back on the page: its three documents revalidated (the clock is kept by the page).
    assert answers["revalidated"] == {304: 3}, answers["revalidated"]

    assert answers["subject_h1"].startswith("payments-api")
    page = (await gateway.query(token, docs["SubjectPage"], {
        "key": "repository:payments-api", "asOf": variables["asOf"],
        "earlier": variables["window"]["from"], "window": variables["window"], "bucket": "WEEK",
    })).json()["data"]["subject"]
    ids = {e["node"]["id"] for conn in ("now", "before") for e in page[conn]["edges"]}
    assert answers["relationships"].startswith(f"{len(ids)} relationships")
    actors = Counter(r["actor"]["name"] for r in page["records"] if r["actor"])
    assert answers["people"] and set(answers["people"]) == set(actors)

    assert answers["evidence_key"] in answers["record_text"]
    ask = docs["Ask"]
    offered = (await gateway.query(token, ask, {"question": "why is Alex behind?"})).json()
    names = [c["name"] for c in offered["data"]["investigate"]["result"]["candidates"]]
    assert [c.split(" (")[0] for c in answers["choices"]] == names

    assert answers["live_badge"] == "Live: connected"
    assert answers["overflow"] <= 0, answers["overflow"]
    assert answers["unlabelled"] == []
    for name in ("organisation", "subject", "ask", "live", "phone"):
        assert (IMAGES / f"dashboard-{name}.png").stat().st_size > 10_000



def test_readme_demo_shows_the_demo_organisation_at_dashboard(readme_demo: Demo) -> None:
    """README's `fabric serve --demo` itself: /dashboard, the printed token typed once, and
    the organisation page counts the demo's repositories and services as the API does."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    query = "{ r: subjects(filter: {kind: REPOSITORY}) { totalCount } " \
            "s: subjects(filter: {kind: SERVICE}) { totalCount } }"
    counts = httpx.post(readme_demo.url, json={"query": query}, timeout=60,
                        headers={"Authorization": f"Bearer {readme_demo.token}"}).json()["data"]
    with browser(1280, 900) as driver:
        driver.get(readme_demo.url.removesuffix("/graphql") + "/dashboard")
        field = WebDriverWait(driver, WAIT_S).until(ec.element_to_be_clickable((By.ID, "token")))
        field.send_keys(readme_demo.token, Keys.ENTER)
        _ready(driver, "org")
        shown = (_stat(driver, "repositories"), _stat(driver, "services"))
    assert shown == (counts["r"]["totalCount"], counts["s"]["totalCount"]) and shown[0] > 0
