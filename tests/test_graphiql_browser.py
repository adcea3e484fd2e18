"""GraphiQL in a real browser: Chromium, driven by selenium, against the live gateway.

The first test is README's first run: `fabric serve --demo` started from an empty directory
with no GraphiQL assets fetches them on its first start, and the page runs its own first
query with the token the command printed. The second sets the token, types a query, runs it
and reads the docs explorer. Both read the result pane; screenshots go to test-artifacts/.
Chromium (tests/chromium.py) is found on PATH (or FABRIC_TEST_CHROMIUM); without it the
tests fail where `.ci/deps` installs it and are skipped elsewhere (tests/system_tools.py).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx

from gateway.graphiql import GraphiQLPage
from graph.falkor import FalkorStore
from tests import system_tools
from tests.chromium import browser
from tests.conftest import new_org
from tests.gateway_fixture import Gateway, serve
from tests.helpers import load, subject
from tests.readme import Demo

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
QUERY = "{ subjects(first: 10, orderBy: KEY) { totalCount edges { node { key name } } } }"


def _run_first_query(url: str, token: str, screenshot: Path) -> str:
    """Open the page, give it the token, run the query it opens with; the result pane."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    with browser() as driver:
        driver.get(url)
        wait = WebDriverWait(driver, 60)
        result = (By.CSS_SELECTOR, ".graphiql-response")
        # Before a token, the page says what to do (it sent nothing: no 401 to show).
        wait.until(ec.text_to_be_present_in_element(result, "Set your bearer token"))
        assert "UNAUTHENTICATED" not in driver.find_element(*result).text
        field = wait.until(ec.element_to_be_clickable((By.ID, "fabric-token")))
        field.send_keys(token, Keys.ENTER)
        # With the token, GraphiQL starts afresh: the advice is gone from the result pane.
        wait.until_not(ec.text_to_be_present_in_element(result, "Set your bearer token"))
        wait.until(ec.element_to_be_clickable((By.CSS_SELECTOR, ".graphiql-execute-button")))
        driver.find_element(By.CSS_SELECTOR, ".graphiql-execute-button").click()
        wait.until(ec.text_to_be_present_in_element(result, "totalCount"))
        # The pane draws only the lines in view; its editor holds the whole answer.
        text: str = driver.execute_script(
            "return document.querySelector('.graphiql-response .CodeMirror').CodeMirror.getValue()"
        )
        driver.save_screenshot(str(screenshot))
        return text


def test_readme_first_run_graphiql_runs_its_first_query(readme_demo: Demo) -> None:
    """After README's command 1 alone: the assets were fetched on the first start (a line
    per package), the page serves them itself, and its first query (repositories with their
    owners and dependencies) answers with the printed token."""
    fetched = GraphiQLPage(readme_demo.assets)
    if not fetched.complete():
        assert "could not be fetched" in readme_demo.output, readme_demo.output
        system_tools.missing("registry", "the npm registry (GraphiQL's assets)")
    for package in ("react@18.3.1", "react-dom@18.3.1", "graphiql@3.8.3", "graphql-ws@6.4.2"):
        assert f"fetching {package}" in readme_demo.output
    page = httpx.get(readme_demo.url, headers={"Accept": "text/html"})
    assert '"graphiql/graphiql.min.js"' in page.text and "cdn.jsdelivr" not in page.text
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot = ARTIFACTS / "graphiql-first-run.png"
    screenshot.unlink(missing_ok=True)
    result = _run_first_query(readme_demo.url, readme_demo.token, screenshot)
    answer = json.loads(result)
    assert "errors" not in answer, answer
    repositories = [e["node"] for e in answer["data"]["subjects"]["edges"]]
    assert len(repositories) == 5 and all(r["key"].startswith("repository:") for r in repositories)
    assert all(o["key"].startswith("team:") for r in repositories for o in r["ownedBy"])
    assert any(r["ownedBy"] for r in repositories) and any(r["dependsOn"] for r in repositories)
    assert screenshot.stat().st_size > 10_000


def _type_and_run(driver: Any, wait: Any, url: str, token: str, text: str,
                  at_once: bool = False) -> None:
    """Open the page, give it the token, type `text` in the editor and run it: with the
    execute button, or (at_once) with Ctrl-Enter in the same keystrokes, as a user pasting
    and running does (GraphiQL parses the editor 100 ms after a change; this runs sooner)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec

    driver.get(url)
    field = wait.until(ec.element_to_be_clickable((By.ID, "fabric-token")))
    field.send_keys(token, Keys.ENTER)
    editor = wait.until(ec.element_to_be_clickable(
        (By.CSS_SELECTOR, ".graphiql-query-editor .CodeMirror")))
    editor.click()
    typing = driver.switch_to.active_element
    typing.send_keys(Keys.CONTROL, "a")
    typing.send_keys(Keys.DELETE)
    if at_once:
        typing.send_keys(text, Keys.CONTROL, Keys.ENTER)
        return
    typing.send_keys(text)
    driver.find_element(By.CSS_SELECTOR, ".graphiql-execute-button").click()


def _drive(url: str, token: str, screenshot: Path) -> tuple[str, str]:
    """What a user does in the browser; returns the text of the result pane, then of the
    docs explorer."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    with browser() as driver:
        wait = WebDriverWait(driver, 60)
        _type_and_run(driver, wait, url, token, QUERY)
        result = (By.CSS_SELECTOR, ".graphiql-response")
        wait.until(ec.text_to_be_present_in_element(result, "totalCount"))
        text: str = driver.find_element(*result).text
        # The schema was fetched again with the token: the docs explorer knows the root fields.
        driver.find_element(By.CSS_SELECTOR, "button[aria-label^='Show Documentation']").click()
        explorer = (By.CSS_SELECTOR, ".graphiql-doc-explorer")
        wait.until(ec.text_to_be_present_in_element(explorer, "Mutation"))
        docs: str = driver.find_element(*explorer).text
        # Prettified, the query fits the editor in the screenshot.
        driver.find_element(By.CSS_SELECTOR, "button[aria-label^='Prettify']").click()
        driver.save_screenshot(str(screenshot))
        return text, docs


async def test_graphiql_runs_a_typed_query_in_chromium(falkor: FalkorStore,
                                                       readme_demo: Demo) -> None:
    """The page served by a gateway of the test session, with the assets README's first
    run fetched: a typed query, the data of a fresh organisation, the docs explorer."""
    if not GraphiQLPage(readme_demo.assets).complete():
        system_tools.missing("registry", "the npm registry (GraphiQL's assets)")
    async for gateway in serve(falkor, graphiql_assets_dir=readme_demo.assets):
        await _typed_query(gateway)


async def _typed_query(gateway: Gateway) -> None:
    org = new_org()
    await gateway.store.bootstrap(org)
    await load(gateway.store.org(org), [
        subject("service:payments-api", "payments-api"),
        subject("team:checkout", "Checkout Team"),
        subject("repository:ledger", "ledger"),
    ])
    token = await gateway.token(org)
    ARTIFACTS.mkdir(exist_ok=True)
    screenshot = ARTIFACTS / "graphiql.png"
    screenshot.unlink(missing_ok=True)
    # selenium blocks; the gateway runs on this event loop, so the browser gets a thread.
    result, docs = await asyncio.to_thread(_drive, gateway.url, token, screenshot)
    assert '"totalCount": 3' in result
    for name in ("payments-api", "Checkout Team", "ledger"):
        assert name in result
    assert "UNAUTHENTICATED" not in result
    assert "Query" in docs and "Mutation" in docs
    assert screenshot.stat().st_size > 10_000


SUBSCRIPTION = (
    "subscription Live { recordsIngested { __typename ... on RecordsIngested { source count } } }"
)


def _subscribe_in_browser(url: str, token: str, screenshot: Path) -> tuple[str, list[str]]:
    """Type a subscription and run it; the result pane once an event arrived, and the
    console's errors."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    with browser(logs=True) as driver:
        wait = WebDriverWait(driver, 90)
        _type_and_run(driver, wait, url, token, SUBSCRIPTION, at_once=True)
        result = (By.CSS_SELECTOR, ".graphiql-response")
        wait.until(ec.text_to_be_present_in_element(result, "RecordsIngested"))
        text: str = driver.execute_script(
            "return document.querySelector('.graphiql-response .CodeMirror').CodeMirror.getValue()"
        )
        driver.save_screenshot(str(screenshot))
        console = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        return text, console


async def test_graphiql_runs_a_typed_subscription_over_websocket_in_chromium(
    falkor: FalkorStore, readme_demo: Demo
) -> None:
    """A subscription typed into the page runs over graphql-transport-ws with the page's
    token: an ingest made meanwhile arrives as an event in the result pane. Before, the
    fetcher had no WebSocket URL and the gateway answered 400 ('Subscriptions run over
    WebSocket'); the console shows no error (a /favicon.ico 404 was one)."""
    from tests.test_subscriptions import _until_active

    if not GraphiQLPage(readme_demo.assets).complete():
        system_tools.missing("registry", "the npm registry (GraphiQL's assets)")
    async for gateway in serve(falkor, graphiql_assets_dir=readme_demo.assets):
        org = new_org()
        await gateway.store.bootstrap(org)
        token = await gateway.token(org)
        ARTIFACTS.mkdir(exist_ok=True)
        screenshot = ARTIFACTS / "graphiql-subscription.png"
        screenshot.unlink(missing_ok=True)
        browsing = asyncio.create_task(
            asyncio.to_thread(_subscribe_in_browser, gateway.url, token, screenshot)
        )
        await _until_active({gateway.url: 1})
        await load(gateway.store.org(org), [subject("service:live-one", "live-one")])
        result, console = await browsing
    answer = json.loads(result)
    assert answer["data"]["recordsIngested"]["__typename"] == "RecordsIngested", answer
    assert answer["data"]["recordsIngested"]["count"] >= 1
    assert "errors" not in answer
    assert console == []
    assert screenshot.stat().st_size > 10_000
