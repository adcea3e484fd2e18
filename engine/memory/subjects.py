"""Subject reads of the in-memory graph: by key, id, id prefix and exact name; filtered,
ordered, keyset-paginated listings and counts (engine.ports.SubjectQuery)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engine.domain.models import StoredSubject, SubjectKind, to_ns
from engine.domain.text import SEPARATOR, kind_suffixes, normalise
from engine.memory.data import OrgData, SubjectNode, admitted, attribute_pair, brief
from engine.ports import SortKey, SubjectOrder, SubjectPage, SubjectQuery, TimeSpan

NEVER = -1  # the recency of a subject with no source record up to the query time
LATEST = 2**63 - 1  # no query time: every record counts


def by_keys(data: OrgData, keys: Sequence[str], at: TimeSpan | None) -> dict[str, StoredSubject]:
    out: dict[str, StoredSubject] = {}
    for key in dict.fromkeys(keys):
        node = data.subjects.get(key)
        if node is not None and admitted(node.subject.valid_from, node.subject.valid_to, at):
            out[key] = node.subject
    return out


def by_ids(data: OrgData, ids: Sequence[str]) -> dict[str, StoredSubject]:
    wanted = set(ids)
    return {n.subject.id: n.subject for n in data.subjects.values() if n.subject.id in wanted}


def sample(found: list[StoredSubject], limit: int) -> tuple[list[StoredSubject], int]:
    """The first `limit` by key, and how many there are in all (stubs included)."""
    found.sort(key=lambda s: s.key)
    return found[: max(limit, 0)], len(found)


def by_id_prefix(data: OrgData, prefix: str, limit: int) -> tuple[list[StoredSubject], int]:
    lowered = prefix.lower()
    return sample([n.subject for n in data.subjects.values() if n.subject.id.startswith(lowered)],
                  limit)  # fmt: skip


def by_handle(
    data: OrgData, text: str, kinds: Sequence[SubjectKind], limit: int
) -> tuple[list[StoredSubject], int]:
    """Subjects (stubs aside) with a handle equal to `text` folded, read from the search
    text as the Cypher adapters read it; a name written exactly as `text` first."""
    handle, raw = normalise(text), text.strip()
    if not handle:
        return [], 0
    found = []
    for node in data.subjects.values():
        s = node.subject
        if s.stub or (kinds and s.kind not in kinds):
            continue
        parts = node.text.split(SEPARATOR)
        forms = {handle, *(f"{handle} {suffix}" for suffix in kind_suffixes(s.kind.value))}
        if any(p in forms for i, p in enumerate(parts) if i != 1):
            found.append(s)
    found.sort(key=lambda s: (s.name != raw, s.key))
    return found[: max(limit, 0)], len(found)


def matching(data: OrgData, query: SubjectQuery) -> Iterator[SubjectNode]:
    search = normalise(query.search) if query.search else None
    pairs = {attribute_pair(k, v) for k, v in query.attributes}
    for node in data.subjects.values():
        s = node.subject
        if (
            (not query.kinds or s.kind in query.kinds)
            and (query.name_prefix is None or s.name.startswith(query.name_prefix))
            and (search is None or search in node.text.lower())
            and pairs <= node.pairs
            and (query.include_stubs or not s.stub)
            and admitted(s.valid_from, s.valid_to, query.at)
        ):
            yield node


def last_seen(data: OrgData, until: int) -> dict[str, int]:
    """Per subject, its latest source-record time not after `until`: a record's end when it
    ended by then, else its start (a record that starts later does not count)."""
    out: dict[str, int] = {}
    for record, _ in data.records.values():
        start, end = to_ns(record.start), to_ns(record.end)
        assert start is not None
        if start > until:
            continue
        seen = end if end is not None and end <= until else start
        if seen > out.get(record.subject, NEVER):
            out[record.subject] = seen
    return out


def find(data: OrgData, query: SubjectQuery, first: int, after: SortKey | None) -> SubjectPage:
    nodes = list(matching(data, query))
    rows: list[tuple[str | int, str, StoredSubject]]
    if query.order is SubjectOrder.RECENT:
        seen = last_seen(data, query.at.end_ns if query.at else LATEST)
        rows = [(seen.get(n.subject.key, NEVER), n.subject.key, n.subject) for n in nodes]
        rows.sort(key=lambda r: (-int(r[0]), r[1]))
        if after is not None:
            last, key = int(after[0]), after[1]
            rows = [r for r in rows if int(r[0]) < last or (r[0] == last and r[1] > key)]
    else:
        by_name = query.order is SubjectOrder.NAME
        rows = [(n.subject.name if by_name else "", n.subject.key, n.subject) for n in nodes]
        rows.sort(key=lambda r: (str(r[0]), r[1]))
        if after is not None:
            value, key = str(after[0]), after[1]
            rows = [r for r in rows if str(r[0]) > value or (r[0] == value and r[1] > key)]
    page = rows[:first]
    return SubjectPage(
        items=[brief(s) if query.brief else s for _, _, s in page],
        has_next=len(rows) > first,
        positions=[(value, key) for value, key, _ in page],
    )


def count(data: OrgData, query: SubjectQuery) -> int:
    return sum(1 for _ in matching(data, query))
