"""The dashboard's organisation page as a workload (bench/dashboard.py --workload organisation).

A page load sends the page's exact documents (gateway/dashboard/operations.graphql) with the
variables the page computes (gateway/dashboard/web/dashboard.js): DashboardClock, then
OrgRepositories and OrgServices together, then OrgRecent for the services active in the last
two weeks; each a persisted query over GET, by hash once the gateway has its text.

Two cases, each with its expected outcome, alternating in rounds for the same time:
* cold: no tag sent; expected 200 with the same answers as the first load (the data does not
  change during the run), no errors.
* revalidated: the first load's ETags sent back as If-None-Match, as the page does when it
  returns to the organisation; expected 304 for every request (nothing was written).
A load that differs counts as a wrong answer. The revalidated case is the cold case's
baseline: the same page, which the gateway answers without running a query.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from gateway.dashboard import ORGANISATION_PAGE, documents
from gateway.documents import sha256_hex

DAY = timedelta(days=1)
WINDOW_DAYS = 90  # the page's default window


def _midnight(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


class PageLoad:
    """One client's loads of the page: the known hashes and the tags of its answers."""

    def __init__(self, client: httpx.AsyncClient, url: str, token: str) -> None:
        self.client, self.url = client, url
        self.headers = {"Authorization": f"Bearer {token}"}
        self.sent_text: set[str] = set()
        self.tags: dict[str, str] = {}
        self.statuses: list[int] = []
        self.day = _midnight(datetime.now(UTC))  # the clock's answer, kept for a 304
        self.recent: list[str] = []  # OrgRecent's services, kept likewise

    async def send(self, name: str, variables: dict[str, Any], revalidate: bool) -> Any:
        text = documents()[name]
        digest = sha256_hex(text)
        params = {"operationName": name, "variables": json.dumps(variables),
                  "extensions": json.dumps({"persistedQuery": {"version": 1,
                                                               "sha256Hash": digest}})}
        if digest not in self.sent_text:
            params["query"] = text
        key = name + json.dumps(variables, sort_keys=True)
        headers = dict(self.headers)
        if revalidate and key in self.tags:
            headers["If-None-Match"] = self.tags[key]
        response = await self.client.get(self.url, params=params, headers=headers)
        self.statuses.append(response.status_code)
        if response.status_code == 304:
            return None
        response.raise_for_status()
        self.sent_text.add(digest)
        if "etag" in response.headers:
            self.tags[key] = response.headers["etag"]
        return response.json()

    async def load(self, today: datetime, revalidate: bool = False) -> dict[str, Any]:
        """The page's requests, in its order; the answers by operation (None: 304)."""
        end = _midnight(today) + DAY
        clock = await self.send("DashboardClock", {"window": {
            "from": _iso(end - 399 * DAY), "to": _iso(end)}}, revalidate)
        answers: dict[str, Any] = {"DashboardClock": clock}
        day = _latest_day(clock) if clock else self.day
        self.day = day
        as_of = day + DAY
        window = {"from": _iso(as_of - WINDOW_DAYS * DAY), "to": _iso(as_of)}
        variables = {"asOf": _iso(as_of), "window": window, "bucket": "WEEK"}
        repos, services = await asyncio.gather(
            self.send("OrgRepositories", variables, revalidate),
            self.send("OrgServices", variables, revalidate))
        answers |= {"OrgRepositories": repos, "OrgServices": services}
        if services is not None:
            self.recent = _recent_ids(services)
        recent_window = {"from": _iso(as_of - 14 * DAY), "to": _iso(as_of)}
        answers["OrgRecent"] = await self.send(
            "OrgRecent", {"ids": self.recent, "window": recent_window}, revalidate)
        assert set(answers) == set(ORGANISATION_PAGE)
        return answers


def _latest_day(clock: dict[str, Any]) -> datetime:
    starts = [p["start"] for e in clock["data"]["subjects"]["edges"]
              for name, series in e["node"].items() if name != "key"
              for p in series["points"] if p["value"] > 0]
    return _midnight(datetime.fromisoformat(max(starts))) if starts else _midnight(
        datetime.now(UTC))


def _recent_ids(services: dict[str, Any]) -> list[str]:
    """The page's choice: services by deploys, then incidents, then name; those with either
    in the last two buckets; the first 25."""
    nodes = [e["node"] for e in services["data"]["subjects"]["edges"]]
    nodes.sort(key=lambda s: (-s["deploys"]["total"], -s["incidents"]["total"], s["name"]))
    def active(s: dict[str, Any]) -> bool:
        return any(p["value"] for k in ("deploys", "incidents") for p in s[k]["points"][-2:])
    return [s["id"] for s in nodes if active(s)][:25]


async def measure(base: str, token: str, seconds: float, concurrency: int) -> dict[str, Any]:
    url = base + "/graphql"
    today = datetime.now(UTC)
    async with httpx.AsyncClient(timeout=60) as client:
        first = PageLoad(client, url, token)
        reference = await first.load(today)
        if any("errors" in a for a in reference.values()):
            raise SystemExit(f"the page's documents failed: {reference}")
        rounds = max(2, round(seconds / 2.5))
        cold: list[float] = []
        warm: list[float] = []
        wrong = 0

        async def worker(revalidate: bool, until: float, times: list[float]) -> int:
            page = PageLoad(client, url, token)
            page.sent_text, page.tags = set(first.sent_text), dict(first.tags)
            page.day, page.recent = first.day, first.recent
            errors = 0
            while time.perf_counter() < until:
                started = time.perf_counter()
                page.statuses.clear()
                answers = await page.load(today, revalidate)
                times.append(time.perf_counter() - started)
                if revalidate:
                    errors += page.statuses != [304] * len(ORGANISATION_PAGE)
                else:
                    errors += answers != reference
            return errors

        for _ in range(rounds):
            for revalidate, times in ((False, cold), (True, warm)):
                until = time.perf_counter() + seconds / rounds / 2
                found = await asyncio.gather(
                    *(worker(revalidate, until, times) for _ in range(concurrency)))
                wrong += sum(found)
    return {
        "workload": "organisation",
        "documents": list(ORGANISATION_PAGE),
        "requests_per_page": len(ORGANISATION_PAGE),
        "repositories": reference["OrgRepositories"]["data"]["subjects"]["totalCount"],
        "services": reference["OrgServices"]["data"]["subjects"]["totalCount"],
        "wrong_answers": wrong,
        "cold_pages_per_s": round(len(cold) / (seconds / 2), 2),
        "revalidated_pages_per_s": round(len(warm) / (seconds / 2), 2),
        "cold_p50_ms": round(statistics.median(cold) * 1000, 1),
        "revalidated_p50_ms": round(statistics.median(warm) * 1000, 1),
        "concurrency": concurrency,
    }
