"""GraphiQL in a real browser: Debian's chromium, driven by selenium, against the live gateway.

The page and its assets come from the gateway itself (no CDN): the test opens /graphql, sets
the bearer token in the page's token field, types a query, runs it, reads the data in the
result pane and saves a screenshot under test-artifacts/.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import pytest

from gateway.graphiql import GraphiQLPage
from tests.conftest import new_org
from tests.gateway_fixture import Gateway
from tests.helpers import load, subject

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# Without the background-networking flags chromium keeps dialling Google on a closed network.
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--window-size=1400,900",
)
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
QUERY = "{ subjects(first: 10, orderBy: KEY) { totalCount edges { node { key name } } } }"


def _require_tools() -> None:
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists()]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: .ci/run installs them "
                    "(apt-get install chromium chromium-driver)")
    if not GraphiQLPage(None).complete():
        pytest.fail("GraphiQL's local assets are missing: .ci/run fetches them "
                    "(python3 -m gateway.cli graphiql-assets)")


def _drive(url: str, token: str, screenshot: Path) -> tuple[str, str]:
    """What a user does in the browser; returns the text of the result pane, then of the
    docs explorer."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    profile = tempfile.mkdtemp(prefix="fabric-chromium-")
    options = Options()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        driver.get(url)
        wait = WebDriverWait(driver, 60)
        field = wait.until(ec.element_to_be_clickable((By.ID, "fabric-token")))
        field.send_keys(token, Keys.ENTER)
        editor = wait.until(ec.element_to_be_clickable(
            (By.CSS_SELECTOR, ".graphiql-query-editor .CodeMirror")))
        editor.click()
        typing = driver.switch_to.active_element
        typing.send_keys(Keys.CONTROL, "a")
        typing.send_keys(Keys.DELETE)
        typing.send_keys(QUERY)
        driver.find_element(By.CSS_SELECTOR, ".graphiql-execute-button").click()
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
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


async def test_graphiql_runs_a_query_in_chromium(gateway: Gateway) -> None:
    _require_tools()
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
