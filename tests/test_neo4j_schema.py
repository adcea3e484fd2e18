"""Neo4j's schema against the statements that rely on it, derived from both texts.

Every statement the Neo4j adapter can send (tests/cypher_statements.py) is read for
* node MERGE targets: each needs a uniqueness constraint on its label whose properties the
  MERGE pattern all sets (Neo4j then locks the constraint's entry, so two gateways merging
  the same node at once create one; without it both may create theirs);
* organisation-scoped MATCH clauses: each must start from a node it can seek by index, one
  whose label has an index (or uniqueness constraint) whose every property the pattern's map
  pins (a composite index serves only statements with a predicate on each property), or
  from a node an earlier clause bound.
Controls show each check catches what it is for. A server is needed to see the planner
agree (the contract suite with FABRIC_TEST_NEO4J_URI).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable

import pytest

from engine.domain.models import RelationshipType
from graph.cypher import organisations as organisations_cypher
from graph.cypher import records as records_cypher
from graph.cypher import relationships as relationships_cypher
from graph.dialect import FALKORDB
from graph.epochs import scope_of
from graph.falkor import FalkorStore
from graph.neo4j_dialect import NEO4J, org_term
from tests.cypher_statements import Statement, neo4j_statements

NODE = re.compile(r"\((\w*)((?::\w+)*)\s*(\{[^{}]*\})?\)")
REL = re.compile(r"\[(\w*):(\w+)\s*(\{[^{}]*\})?\]")
REL_INDEX = re.compile(r"FOR \(\)-\[\w+:(\w+)\]-\(\) ON \(([^)]*)\)")
NODE_MERGE = re.compile(r"\bMERGE\s+\((\w*):(\w+)\s*\{([^{}]*)\}\)(?!\s*-|\s*<)")
CLAUSE = re.compile(r"\b(OPTIONAL MATCH|MATCH|MERGE|WITH|UNWIND|CALL|RETURN|SET|DELETE)\b")
SCHEMA = re.compile(
    r"FOR \(\w+:(\w+)\) (?:ON \(([^)]*)\)|REQUIRE \(?([^)]*?)\)? IS UNIQUE)", re.IGNORECASE
)
ORG_PARAMS = ("$org", "$system")


def schema(bootstrap: Iterable[str]) -> tuple[dict[str, list[set[str]]], dict[str, list[set[str]]]]:
    """(indexes, unique constraints): label -> property sets, from range-index and
    constraint DDL (full-text and vector indexes serve no property predicate)."""
    indexes: dict[str, list[set[str]]] = {}
    unique: dict[str, list[set[str]]] = {}
    for ddl in bootstrap:
        match = SCHEMA.search(ddl)
        if match is None or "FULLTEXT" in ddl or "VECTOR" in ddl:
            continue
        label, on, required = match.groups()
        props = {p.strip().split(".", 1)[1] for p in (on or required).split(",")}
        indexes.setdefault(label, []).append(props)  # a constraint is backed by an index
        if required is not None:
            unique.setdefault(label, []).append(props)
    return indexes, unique


def map_keys(body: str | None) -> dict[str, str]:
    """{key: value text} of a pattern's property map."""
    if not body:
        return {}
    pairs = (p.split(":", 1) for p in body.strip("{} \n").split(",") if ":" in p)
    return {k.strip(): v.strip() for k, v in pairs}


def unconstrained_merges(statements: list[Statement], bootstrap: Iterable[str]) -> list[str]:
    _, unique = schema(bootstrap)
    out = []
    for s in statements:
        for var, label, body in NODE_MERGE.findall(s.text):
            keys = set(map_keys("{" + body + "}"))
            if not any(props <= keys for props in unique.get(label, [])):
                out.append(f"{s.name}: MERGE ({var}:{label} {{{', '.join(sorted(keys))}}})")
    return out


REL_MERGE = re.compile(r"\bMERGE\s+\(\w*\)-\[(\w*):(\w+)\s*\{([^{}]*)\}\]->\(\w*\)")
REL_UNIQUE = re.compile(r"FOR \(\)-\[\w+:(\w+)\]-\(\) REQUIRE \(([^)]*)\) IS UNIQUE")


def unconstrained_relationship_merges(
    statements: list[Statement], bootstrap: Iterable[str]
) -> list[str]:
    """Relationship MERGEs by properties without a uniqueness constraint on them all."""
    unique: dict[str, list[set[str]]] = {}
    for ddl in bootstrap:
        for rel_type, props in REL_UNIQUE.findall(ddl):
            unique.setdefault(rel_type, []).append(
                {p.strip().split(".", 1)[1] for p in props.split(",")}
            )
    out = []
    for s in statements:
        for var, rel_type, body in REL_MERGE.findall(s.text):
            keys = set(map_keys("{" + body + "}"))
            if not any(props <= keys for props in unique.get(rel_type, [])):
                out.append(f"{s.name}: MERGE ()-[{var}:{rel_type} {{{', '.join(sorted(keys))}}}]->()")
    return out


def _clauses(text: str) -> list[str]:
    starts = [m.start() for m in CLAUSE.finditer(text)] + [len(text)]
    return [text[a:b] for a, b in itertools.pairwise(starts)]


def rel_indexes(bootstrap: Iterable[str]) -> dict[str, list[set[str]]]:
    out: dict[str, list[set[str]]] = {}
    for ddl in bootstrap:
        for rel_type, on in REL_INDEX.findall(ddl):
            out.setdefault(rel_type, []).append({p.strip().split(".", 1)[1] for p in on.split(",")})
    return out


def unseekable_matches(statements: list[Statement], bootstrap: Iterable[str]) -> list[str]:
    indexes, _ = schema(bootstrap)
    by_type = rel_indexes(bootstrap)
    out = []
    for s in statements:
        if s.text.lstrip().startswith(("CREATE", "DROP")):
            continue
        bound: set[str] = set()
        for clause in _clauses(s.text):
            nodes = NODE.findall(clause)
            if clause.startswith(("MATCH", "OPTIONAL MATCH")) and any(
                p in clause for p in ORG_PARAMS
            ):
                # A vector search filtered inside its index starts from the index.
                anchored = re.search(r"\n\s+SEARCH \w+ IN \(", clause) is not None
                for var, labels, body in nodes:
                    keys = set(map_keys(body))
                    pinned = any(v in ORG_PARAMS for v in map_keys(body).values())
                    seekable = pinned and any(
                        props <= keys for label in labels.split(":")[1:]
                        for props in indexes.get(label, [])
                    )  # fmt: skip
                    anchored |= seekable or (bool(var) and var in bound)
                for _, rel_type, body in REL.findall(clause):  # a relationship index seek
                    keys = set(map_keys(body))
                    anchored |= any(props <= keys for props in by_type.get(rel_type, []))
                if not anchored:
                    out.append(f"{s.name}: {clause.strip().splitlines()[0]}")
            bound |= {var for var, _, _ in nodes if var}
            bound |= set(re.findall(r"\bAS (\w+)", clause))
    return out


@pytest.fixture(scope="module")
def statements() -> list[Statement]:
    return neo4j_statements()


def test_every_node_a_statement_merges_has_a_uniqueness_constraint(
    statements: list[Statement],
) -> None:
    merged = {label for s in statements for _, label, _ in NODE_MERGE.findall(s.text)}
    # The statements merge every node label the gateway creates, singletons included.
    assert {"Subject", "Secret", "EmbeddingMeta", "ProjectionEpoch", "ApiKey"} <= merged
    assert not unconstrained_merges(statements, NEO4J.bootstrap)


def test_the_merge_check_catches_a_merge_without_a_constraint() -> None:
    control = [
        Statement("control:no-constraint", "MERGE (m:Unconstrained {org_id: $org})"),
        Statement("control:too-few-keys", "MERGE (s:Subject {org_id: $org})"),
        Statement("control:relationship", "MATCH (a), (b) MERGE (a)-[:X]->(b)"),
    ]
    assert [c.split(":")[1] for c in unconstrained_merges(control, NEO4J.bootstrap)] == [
        "no-constraint",
        "too-few-keys",
    ]


def test_every_relationship_a_statement_merges_has_a_uniqueness_constraint(
    statements: list[Statement],
) -> None:
    """Relationship property uniqueness constraints (Neo4j 5.7): without one, two gateways
    merging the same edge at once may each create theirs."""
    merged = {t for s in statements for _, t, _ in REL_MERGE.findall(s.text)}
    assert merged == {*(t.value for t in RelationshipType), "MENTIONS"}
    # An episode's MENTIONS has no identity but its two ends, which no property constraint
    # can express; every relationship with an id of its own is constrained.
    unconstrained = unconstrained_relationship_merges(statements, NEO4J.bootstrap)
    assert all(":MENTIONS {org_id}" in u for u in unconstrained), unconstrained
    control = [Statement("control", "MATCH (a), (b) MERGE (a)-[r:OWNS {org_id: $org, x: 1}]->(b)")]
    assert unconstrained_relationship_merges(control, NEO4J.bootstrap) == [
        "control: MERGE ()-[r:OWNS {org_id, x}]->()"
    ]


def test_every_organisation_match_can_seek_on_an_index(statements: list[Statement]) -> None:
    scoped = [s for s in statements if any(p in s.text for p in ORG_PARAMS)]
    assert len(scoped) > 50  # the check read the statements
    assert not unseekable_matches(statements, NEO4J.bootstrap)


def test_the_seek_check_catches_what_no_index_serves() -> None:
    control = [
        # No label: no index can serve it (what drop_org once sent).
        Statement("c1", "MATCH (n {org_id: $org}) DETACH DELETE n"),
        # A composite index needs a predicate on each of its properties.
        Statement("c2", "MATCH (n:Investigation {org_id: $org}) RETURN n"),
        # Scoped by WHERE only, from nowhere indexed.
        Statement("c3", "MATCH (e:Episode)-[:MENTIONS]->(s) WHERE e.org_id = $org RETURN s"),
        # A relationship type without an index on the property.
        Statement("c5", "MATCH ()-[r:MENTIONS {id: $id}]->() WHERE r.org_id = $org RETURN r"),
    ]
    without_org_indexes = [ddl for ddl in NEO4J.bootstrap if "_org_id " not in ddl]
    assert len(unseekable_matches(control, without_org_indexes)) == 4
    # With the single-property org_id indexes only the label-less and the unanchored stay.
    found = [c.split(":")[0] for c in unseekable_matches(control, NEO4J.bootstrap)]
    assert found == ["c1", "c3", "c5"]
    # An expansion from a node bound by an earlier clause is anchored by that clause.
    chained = Statement("c4", records_cypher.EPISODES)
    assert not unseekable_matches([chained], NEO4J.bootstrap)


def test_every_organisation_label_has_its_own_org_id_index() -> None:
    indexes, _ = schema(NEO4J.bootstrap)
    for label in organisations_cypher.ORG_LABELS:
        assert {"org_id"} in indexes[label], label
    # drop_org and counts cover every label an organisation's statements write.
    written = {
        label
        for s in neo4j_statements()
        for _, label, body in NODE_MERGE.findall(s.text)
        if "$org" in body and "$system" not in body
    }
    assert written <= set(organisations_cypher.ORG_LABELS)


def test_relationships_retracted_by_id_are_sought_in_an_index_per_type() -> None:
    statement = relationships_cypher.delete_relationships(NEO4J)
    typed = re.findall(r"\[r:(\w+) \{id: id\}\]", statement)
    assert sorted(typed) == sorted(t.value for t in RelationshipType)
    for rel_type in typed:
        assert any(f"FOR ()-[r:{rel_type}]-() ON (r.id)" in ddl for ddl in NEO4J.bootstrap)
    # The other dialect keeps its walk over one organisation's graph.
    assert "[r]" in relationships_cypher.delete_relationships(FALKORDB)


ORG_IDS = [
    "acme", "Acme", "ACME", "acme-prod", "acme.prod", "acme_prod", "acmex1prod", "acme-x",
    "acmex", "a", "0", "0-", "x", "X", "x0", "xx", "t-0123abcd", "a" * 64, "Z9._-", "Acme-x.y_z",
    scope_of("acme", 3), scope_of("acme", 12), scope_of("acme", 1), "acme1",
    scope_of("Acme", 3),
]  # fmt: skip


async def test_the_organisation_term_is_one_full_text_token_per_organisation(
    falkor: FalkorStore,
) -> None:
    """The organisation's full-text term is computed in Cypher (graph.neo4j_dialect.org_term); its
    functions are plain openCypher, so FalkorDB evaluates the very expression Neo4j runs.
    Letters and digits only (the analyser keeps it whole, lower-cased) and one term per
    organisation id, however ids differ in case or punctuation."""
    graph = falkor.client.select_graph("org-term-check")
    statement = f"UNWIND $ids AS org RETURN org, {org_term('org')}"
    result = await graph.query(statement, {"ids": ORG_IDS})  # ro_query needs a graph
    terms = dict(result.result_set)
    assert set(terms) == set(ORG_IDS)
    assert terms["Acme-x.y_z"] == "oxacmex1x0x2yx3z"
    assert terms[scope_of("acme", 3)] == "oacmex43"  # an epoch's scope
    assert all(re.fullmatch(r"o[0-9a-z]+", t) for t in terms.values()), terms
    assert len(set(terms.values())) == len(ORG_IDS)
    # Every Neo4j statement that writes or queries the term uses this expression.
    assert org_term("$org") in NEO4J.fulltext_call and org_term("$org") in NEO4J.subject_set
