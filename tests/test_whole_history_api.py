"""The question a whole-history clarification offers, asked again through GraphQL with the
receipts it gave, as a client does (issue 32): a person's part offers the repository's
receipt alone, and that receipt made the repository the only subject, the person "left
out" (click: 334 commits, everyone's, where denuoweb made 36). On attrs, imported into the
session's FalkorDB and asked through the gateway over HTTP, at a fixed `asOf`; the truth is
`git log --no-merges --full-history` (author time)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from graph.git.importer import GitImport, import_git
from tests import shared_history
from tests.conftest import new_org

pytestmark = shared_history.present("attrs")

AS_OF = datetime(2026, 9, 1, 12, tzinfo=UTC)
ASK = """mutation($q: String!, $asOf: DateTime, $receipts: [String!]) {
  investigate(input: {question: $q, asOf: $asOf, priorSubjectReceipts: $receipts}) {
    result { outcome directJudgment limitations clarificationPrompt
             candidates { receipt subject { key } } } } }"""


@pytest.fixture(scope="module")
async def attrs(gateway: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A new organisation holding attrs, and a token for it; the clone (git's truth)."""
    clone = shared_history.shared_clone("attrs", tmp_path_factory)
    org = new_org()
    await gateway.store.bootstrap(org)
    await import_git(gateway.store.org(org), GitImport(clone, name="attrs"))
    return await gateway.token(org), clone


async def asked(gateway: Any, token: str, question: str, receipts: list[str]) -> Any:
    variables = {"q": question, "asOf": AS_OF.isoformat(), "receipts": receipts}
    response = await gateway.query(token, ASK, variables)
    body = response.json()
    assert response.status_code == 200 and "errors" not in body, body
    return body["data"]["investigate"]["result"]


async def test_the_question_offered_asked_with_its_receipts_counts_the_persons_part(
    gateway: Any, attrs: tuple[str, Path]
) -> None:
    token, clone = attrs
    question = "How many commits has Hynek Schlawack made to attrs?"
    first = await asked(gateway, token, question, [])
    assert first["outcome"] == "CLARIFICATION_REQUIRED", first["directJudgment"]
    offered = "How many commits has Hynek Schlawack made to attrs in the last 400 days?"
    assert f'"{offered}"' in first["clarificationPrompt"]
    receipts = [c["receipt"] for c in first["candidates"] if c["receipt"]]
    assert receipts
    result = await asked(gateway, token, offered, receipts)
    assert result["outcome"] == "ANSWERED", result["limitations"]
    start = AS_OF - timedelta(days=400)
    count = shared_history.commits(clone, start, AS_OF, author="Hynek Schlawack")
    assert count < shared_history.commits(clone, start, AS_OF)  # not everyone's
    assert result["directJudgment"].startswith(f"{count} commit(s) to attrs by Hynek Schlawack ")
    assert not any("left out" in n for n in result["limitations"]), result["limitations"]
