"""Every Cypher statement the Neo4j adapter can send, found by introspection, not by a list.

Three sources, so a statement added later is checked without touching this file:
* the modules of `graph.cypher` (a new one too): every module-level string (and dict of
  strings) and every public function (but those of the private module of shared pieces),
  called with representative arguments for its parameter types: every relationship type, the
  Neo4j dialect, and for several parameters (or a `FilterShape`'s flags) an all-pairs
  covering of their values, so every value of each, and every pair of values of two, is
  composed into some statement;
* the Neo4j dialects (one per server version the adapter tells apart, graph.neo4j_dialect.
  NEO4J_DIALECTS): every field holding DDL or a procedure call (fields that hold no Cypher
  are named in `NOT_CYPHER`, with the reason, and a new field must be classified);
* plain string literals that start with a Cypher clause in the graph modules the Neo4j adapter
  imports (directly or not), such as its own `drop_org` statement.

A fragment (an expression such as `admitted("s")` or a projection list) is checked inside the
statements that use it, or, if none does, inside a small host statement binding its variables.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import inspect
import pkgutil
import re
import string
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.domain.evidence import EvidenceRule
from engine.domain.models import Direction, RelationshipType
from engine.ports import SubjectOrder
from graph import cypher, evidence
from graph.cypher import relationships as relationships_cypher
from graph.dialect import Dialect
from graph.neo4j_dialect import NEO4J, NEO4J_DIALECTS

# Our Cypher writes its keywords in capitals; a sentence in a message does not match.
# A statement for Neo4j 2026.01 and after may name its Cypher version first (CYPHER 25).
CLAUSE = re.compile(
    r"^\s*(CYPHER\s+\d+\s+)?"
    r"(OPTIONAL\s+MATCH|MATCH|MERGE|CREATE|CALL|UNWIND|DROP|WITH|RETURN|SHOW)\b"
)
FRAGMENT_HOST = "MATCH (s), (o), ()-[r]->()\nRETURN {} AS value"
DIMENSION = 384  # a representative vector width (the embedder's, never a client's)

# Dialect fields that hold no Cypher statement, and why.
NOT_CYPHER = {
    "name": "the backend's name",
    "vector_label": "a label name (empty on Neo4j), checked inside merge_subject_vectors",
    "already_exists": "substrings of the server's refusal messages",
    "no_such_index": "substrings of the server's refusal messages",
    "fuzzy": "full-text (Lucene) query syntax, sent as a parameter value",
    "fuzzy_terms": "a number",
    "any_of": "full-text (Lucene) operator, part of a parameter value",
    "all_of": "full-text (Lucene) operator, part of a parameter value",
    "vector_value": "a fragment, checked inside cypher.search.merge_subject_vectors",
    "similarity": "a fragment, checked inside cypher.search.vector_search",
    "subject_set": "a fragment, checked inside cypher.subjects.merge_subjects",
    "batched": "a statement's tail, checked inside cypher.organisations.delete_org and "
    "cypher.deletion.delete_unseen_*",
    "batch_version": "a statement's head (CYPHER 25 or nothing), checked likewise",
    "shared_indexes": "a flag",
    "exact_similarity": "a fragment, checked inside cypher.search.exact_vector_search",
    "exact_limit": "a number",
    "vector_filters": "property names, checked inside the vector index DDL",
    "create_records": "a statement of graph.cypher.activity, checked there as a module constant",
}


@dataclass(frozen=True)
class Statement:
    name: str  # where it comes from, with the arguments that composed it
    text: str


def is_statement(text: str) -> bool:
    return bool(CLAUSE.match(text))


# --- graph.cypher ----------------------------------------------------------------------------


def _edge_group_lists() -> list[list[relationships_cypher.EdgeGroup]]:
    """Group shapes covering every pair of (types: none, one, several; direction; brief),
    three to a statement, so the UNION ALL of groups is checked too. (The linter's time grows
    faster than a statement's length: all eighteen shapes in one statement cost 30 s.)"""
    type_sets: list[tuple[RelationshipType, ...]] = [
        (),
        (RelationshipType.OWNS,),
        (RelationshipType.DEPENDS_ON, RelationshipType.MEMBER_OF),
    ]
    directions = [d.value for d in Direction]
    shapes = [
        (type_sets[t], directions[d], bool(b))
        for t, d, b in all_pairs([len(type_sets), len(directions), 2])
    ]
    return [shapes[i : i + 3] for i in range(0, len(shapes), 3)]


def _level_trees() -> list[list[relationships_cypher.LevelShape]]:
    """Trees of neighbour levels: every type set and direction at the top and under a parent,
    brief and not, and a third level under a second (an arm walking two ancestors)."""
    type_sets: list[tuple[RelationshipType, ...]] = [
        (),
        (RelationshipType.OWNS,),
        (RelationshipType.DEPENDS_ON, RelationshipType.MEMBER_OF),
    ]
    directions = [d.value for d in Direction]
    trees: list[list[relationships_cypher.LevelShape]] = []
    for t, d, b in all_pairs([len(type_sets), len(directions), 2]):
        under = (type_sets[(t + 1) % 3], directions[(d + 1) % 3], not b)
        trees.append([(type_sets[t], directions[d], bool(b), -1), (*under, 0)])
    trees[0].append((type_sets[1], directions[0], True, 1))
    return trees


def representatives(name: str, hint: Any) -> list[Any]:
    """Every value worth composing a statement with, for one parameter."""
    if hint is bool:
        return [False, True]
    if hint is Dialect:
        return list(NEO4J_DIALECTS)  # the texts they share are checked once
    if hint is RelationshipType:
        return list(RelationshipType)
    if hint == tuple[RelationshipType, ...]:
        return [(), tuple(RelationshipType)[:1], tuple(RelationshipType)]
    if hint == list[relationships_cypher.EdgeGroup]:
        return _edge_group_lists()
    if hint == list[relationships_cypher.LevelShape]:
        return _level_trees()
    if hint is int:
        return [DIMENSION]
    if hint is str and name == "order":
        return [o.value for o in SubjectOrder]
    if hint is str and name == "var":
        return ["s"]
    raise LookupError(
        f"no representative value for parameter `{name}: {hint}`: "
        "add one to tests/cypher_statements.py:representatives"
    )


def _pair(p: int, x: int, q: int, y: int) -> tuple[int, int, int, int]:
    return (p, x, q, y) if p < q else (q, y, p, x)


def _greedy_row(sizes: list[int], seed: tuple[int, int, int, int], todo: set[Any]) -> list[int]:
    """A row holding the seed pair, every other factor set to the value that covers the most
    pairs still uncovered."""
    i, a, j, b = seed
    row = {i: a, j: b}
    for k in range(len(sizes)):
        if k not in row:
            gain = [sum(_pair(k, v, m, w) in todo for m, w in row.items()) for v in range(sizes[k])]
            row[k] = gain.index(max(gain))
    return [row[k] for k in range(len(sizes))]


def all_pairs(sizes: list[int]) -> list[tuple[int, ...]]:
    """Rows of value indexes in which every pair of values of two different factors occurs
    at least once (a greedy strength-2 covering array; deterministic). The composed statements
    are concatenations of per-factor pieces, so a piece that is wrong alone or next to another
    shows up here, at a fraction of the full product's size (10 rows instead of 768 for
    `find_subjects`)."""
    if len(sizes) < 2:
        return [(v,) for v in range(sizes[0])] if sizes else [()]
    n = len(sizes)
    todo = {
        (i, a, j, b)
        for i in range(n)
        for j in range(i + 1, n)
        for a in range(sizes[i])
        for b in range(sizes[j])
    }
    rows: list[tuple[int, ...]] = []
    while todo:
        # Of the rows seeded by each uncovered pair, keep the one that covers the most.
        best: tuple[int, ...] = ()
        best_covered: set[Any] = set()
        for seed in sorted(todo):
            row = _greedy_row(sizes, seed, todo)
            covered = {_pair(p, row[p], q, row[q]) for p in range(n) for q in range(p + 1, n)}
            if len(covered & todo) > len(best_covered):
                best, best_covered = tuple(row), covered & todo
        rows.append(best)
        todo -= best_covered
    return rows


def _factors(name: str, hint: Any) -> list[tuple[str, list[Any]]]:
    """A tuple of flags (such as `FilterShape`) is one factor per flag; anything else is one."""
    if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):
        return [(f"{name}.{f}", [False, True]) for f in hint._fields]
    return [(name, representatives(name, hint))]


def _calls(func: Callable[..., Any]) -> Iterator[tuple[str, Any]]:
    """(description, result) for each row of an all-pairs covering of its arguments."""
    hints = typing.get_type_hints(func)
    params = list(inspect.signature(func).parameters)
    factors = [f for p in params for f in _factors(p, hints[p])]
    for row in all_pairs([len(values) for _, values in factors]):
        chosen = {name: values[i] for (name, values), i in zip(factors, row, strict=True)}
        args = []
        for p in params:
            if p in chosen:
                args.append(chosen[p])
            else:  # rebuild the flags tuple from its factors
                hint = hints[p]
                args.append(hint(**{f: chosen[f"{p}.{f}"] for f in hint._fields}))
        shown = ", ".join(f"{p}={_short(v)}" for p, v in zip(params, args, strict=True))
        yield f"{func.__module__}.{func.__name__}({shown})", func(*args)


def _short(value: Any) -> str:
    if isinstance(value, Dialect):
        return value.name
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        on = [f for f in value._fields if getattr(value, f)]
        return f"{type(value).__name__}({','.join(on)})"
    if isinstance(value, list):
        return f"[{len(value)} groups]"  # edge groups, or the levels of a tree
    return repr(value)


def _module_level_names(module: Any) -> list[str]:
    """Names assigned at module level in the module's own source (not imported ones)."""
    tree = ast.parse(Path(module.__file__).read_text())
    names: list[str] = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def cypher_modules() -> list[ModuleType]:
    """Every module of the `graph.cypher` package, found on disk (a new one is collected)."""
    return [
        importlib.import_module(f"{cypher.__name__}.{m.name}")
        for m in pkgutil.iter_modules(cypher.__path__)
    ]


def builds_statements(module: ModuleType) -> bool:
    """Whether a module's public functions build statements: those of a private module
    (`graph.cypher._fragments`) compose pieces, as private helpers do elsewhere."""
    return not module.__name__.rsplit(".", 1)[-1].startswith("_")


def cypher_module_statements() -> list[Statement]:
    found: list[Statement] = []
    for module in cypher_modules():
        where = module.__name__.removeprefix("graph.")
        for name in _module_level_names(module):
            value = getattr(module, name)
            if isinstance(value, str):
                found.append(Statement(f"{where}.{name}", value))
            elif isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
                found += [Statement(f"{where}.{name}[{k!r}]", v) for k, v in value.items()]
        for name, func in inspect.getmembers(module, inspect.isfunction):
            if name.startswith("_") or func.__module__ != module.__name__:
                continue  # private helpers compose partial statements; the public ones use them
            if not builds_statements(module):
                continue
            for call, result in _calls(func):
                if isinstance(result, dict):  # one statement per label, say
                    found += [Statement(f"{call}[{k!r}]", v) for k, v in result.items()]
                else:
                    found.append(Statement(call, result))
    return found


# --- the Neo4j dialect -----------------------------------------------------------------------


def _formatted(text: str) -> str:
    """A procedure-call template with each `{name}` placeholder filled with `name`."""
    fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
    return text.format(**{f: f for f in fields})


def _field_texts(dialect: Dialect, field: str) -> list[tuple[str, str]]:
    value = getattr(dialect, field)
    label = f"dialect.{dialect.name.upper()}.{field}"
    if isinstance(value, str):
        return [(label, _formatted(value))]
    if isinstance(value, tuple):
        return [(f"{label}[{i}]", v) for i, v in enumerate(value)]
    if callable(value):
        out: list[tuple[str, str]] = []
        for call, result in _calls(value):
            items = result if isinstance(result, tuple) else (result,)
            out += [(f"{label}{call[call.index('(') :]}[{i}]", v) for i, v in enumerate(items)]
        return out
    raise TypeError(f"{label}: a {type(value).__name__}; classify it in NOT_CYPHER or here")


def dialect_statements(dialect: Dialect = NEO4J) -> list[Statement]:
    found: list[Statement] = []
    for field in dataclasses.fields(dialect):
        if field.name in NOT_CYPHER:
            continue
        texts = _field_texts(dialect, field.name)
        unclassified = [label for label, text in texts if not is_statement(text)]
        # An empty tuple is "nothing to run" on a backend that needs none (FalkorDB's
        # after_schema); Neo4j's dialect, the one checked by its linter, has every field.
        if unclassified or (not texts and dialect is NEO4J):
            raise TypeError(
                f"Dialect.{field.name} holds no Cypher statement: classify it in "
                "tests/cypher_statements.py:NOT_CYPHER"
            )
        found += [Statement(label, text) for label, text in texts]
    return found


# --- literals in the modules the Neo4j adapter runs ------------------------------------------


def _graph_imports(module_name: str) -> set[str]:
    module = importlib.import_module(module_name)
    tree = ast.parse(Path(module.__file__ or "").read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("graph"):
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}  # a package's modules
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("graph.")}
    return {m for m in out if _is_module(m)}


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a name imported from a module that is no package
        return False


def adapter_modules(root: str = "graph.neo4j_adapter") -> list[str]:
    """The graph modules the Neo4j adapter imports, directly or through others."""
    seen: set[str] = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += sorted(_graph_imports(name) - seen)
    return sorted(seen)


# Covered by introspection (above, and `evidence_statements` below; graph.indexes and
# graph.formatmigrations through the dialect's fields); their literals are partial (f-string
# pieces) or belong to the other backend's dialect.
INTROSPECTED = {
    cypher.__name__, *(m.__name__ for m in cypher_modules()), "graph.dialect",
    "graph.neo4j_dialect", "graph.indexes", "graph.formatmigrations", evidence.__name__,
}


def evidence_statements() -> list[Statement]:
    """A fact's evidence pages and counts: one statement per rule and one joining them all."""
    rules = list(EvidenceRule)
    found = [Statement("evidence.pages(every rule)", evidence.pages(rules)),
             Statement("evidence.counts(every rule)", evidence.counts(rules))]  # fmt: skip
    for rule in rules:
        found.append(Statement(f"evidence.pages([{rule.value}])", evidence.pages([rule])))
    return found


def literal_statements(root: str = "graph.neo4j_adapter") -> list[Statement]:
    found: list[Statement] = []
    for name in adapter_modules(root):
        if name in INTROSPECTED:
            continue
        module = importlib.import_module(name)
        tree = ast.parse(Path(module.__file__ or "").read_text())
        skipped = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}  # docstrings
        for node in ast.walk(tree):
            if isinstance(node, ast.JoinedStr):  # pieces of an f-string are no statement
                skipped |= {id(v) for v in node.values}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in skipped
                and is_statement(node.value)
            ):
                found.append(Statement(f"{name}:{node.lineno}", node.value))
    return found


def neo4j_statements() -> list[Statement]:
    """Every statement, once (the first source that yields a text names it). A fragment is
    checked where a statement uses it; one that none uses is checked in a host statement."""
    found = [
        *cypher_module_statements(), *(s for d in NEO4J_DIALECTS for s in dialect_statements(d)),
        *evidence_statements(), *literal_statements(),
    ]  # fmt: skip
    statements = [s for s in found if is_statement(s.text)]
    for fragment in (s for s in found if not is_statement(s.text)):
        if not any(fragment.text.strip() in s.text for s in statements):
            statements.append(Statement(fragment.name, FRAGMENT_HOST.format(fragment.text.strip())))
    unique: dict[str, Statement] = {}
    for s in statements:
        unique.setdefault(s.text, s)
    return list(unique.values())
