"""Who is one person in imported git histories (docs/git-import.md, "Identities"): a shared
address or an identical full name joins identities, within the organisation and across
repositories; a one-word name never joins anyone; keys and aliases survive re-imports, and
either address still resolves the person."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from engine.domain.models import SubjectKind
from engine.ports import OrgGraph
from engine.resolving.resolution import Resolved, Resolver
from engine.resolving.ring import ReferenceRing
from graph.falkor import FalkorStore
from graph.git.importer import GitImport, import_git
from tests import gitrepo
from tests.conftest import new_org

KIM_WORK = ("Kim Lee", "kim@work.example")
KIM_HOME = ("kim lee", "kim@home.example")  # the same full name once normalised
ALEX_ONE = ("Alex", "alex@one.example")  # a first name alone
ALEX_TWO = ("Alex", "alex@two.example")
ROBIN = ("Robin Day", "robin@work.example")


@pytest.fixture
async def graph(falkor: FalkorStore) -> AsyncIterator[OrgGraph]:
    org = new_org()
    await falkor.bootstrap(org)
    yield falkor.org(org)
    await falkor.drop_org(org)


async def people(graph: OrgGraph) -> dict[str, set[str]]:
    """Every person subject: key -> its name and aliases, lower-cased."""
    found = {}
    for text in ("kim lee", "alex", "robin day", "kim@work.example", "kim@home.example"):
        subjects, _ = await graph.subjects_by_handle(text, [SubjectKind.PERSON], limit=20)
        for s in subjects:
            found[s.key] = {s.name.lower(), *(a.lower() for a in s.aliases)}
    return found


async def test_full_names_join_first_names_never_do(graph: OrgGraph, tmp_path: Path) -> None:
    repo = gitrepo.Repo(tmp_path / "app")
    for n, who in enumerate([KIM_HOME, ALEX_ONE, KIM_WORK, ALEX_TWO, ROBIN]):
        repo.lines("core/a.py", 2, f"c{n}")
        repo.commit(who, 10 - n, f"change {n}")
    report = await import_git(graph, GitImport(repo.path))
    assert report.people == 4  # Kim Lee (two addresses), two Alexes, Robin Day
    found = await people(graph)
    # The newest commit's address is the key; the other address is an alias.
    assert set(found) == {
        "person:kim@work.example",
        "person:alex@one.example",
        "person:alex@two.example",
        "person:robin@work.example",
    }
    assert {"kim@home.example", "kim@work.example"} <= found["person:kim@work.example"]
    commits = await graph.source_records_of(["person:kim@work.example"])
    assert sum(1 for r in commits["person:kim@work.example"] if r.metric == "commits") == 2


async def test_a_person_is_joined_across_repositories_and_kept_on_reimport(
    graph: OrgGraph, tmp_path: Path
) -> None:
    first = gitrepo.Repo(tmp_path / "first")
    first.lines("core/a.py", 2, "a")
    first.commit(KIM_HOME, 5, "first")
    await import_git(graph, GitImport(first.path))
    second = gitrepo.Repo(tmp_path / "second")
    second.lines("lib/b.py", 2, "b")
    second.commit(KIM_WORK, 4, "second")
    await import_git(graph, GitImport(second.path))
    # The second repository's Kim Lee is the one already stored, under the stored key.
    key = "person:kim@home.example"
    assert set(await people(graph)) == {key}
    found = await graph.source_records_of([key])
    assert {r.actor for r in found[key] if r.metric == "commits"} == {
        "repository:first",
        "repository:second",
    }
    # A later commit from the newer address, and a re-import of both: the key stays, and no
    # alias is lost.
    first.lines("core/a.py", 2, "c")
    first.commit(KIM_WORK, 1, "third")
    await import_git(graph, GitImport(first.path))
    await import_git(graph, GitImport(second.path))
    again = await people(graph)
    assert set(again) == {key}
    assert {"kim@home.example", "kim@work.example", "kim lee"} <= again[key]
    resolver = Resolver(graph, ReferenceRing(), graph.org_id)
    for reference in ("kim@home.example", "kim@work.example", "Kim Lee"):
        resolution = await resolver.resolve("me", reference, use_recent=False)
        assert isinstance(resolution, Resolved), reference
        assert resolution.subject.key == key


# Author lines as foreign tools wrote them (the bytes after `author`), and the oddities the
# import's summary counts for each: every one is a person, and its commit is kept.
ODD_AUTHORS = [
    (b" <>", ["no_address", "no_name"]),
    (b"= <=>", ["not_an_address"]),
    (b"digitalxero <none@none>", ["not_an_address"]),
    (b"J\xf6rg Gr\xfcn <j\xf6rg@example.org>", ["not_utf8"]),
    (b"\xff <\xfe>", ["not_an_address", "not_utf8"]),
]
DANA = ("Dana Cruz", "12345+dcruz@users.noreply.github.com")
NICK = ("Nick Proper", "nick@new.example")


async def test_any_author_string_is_a_person_and_its_commit_is_kept(
    graph: OrgGraph, tmp_path: Path
) -> None:
    """One odd commit never fails an import: before, `=` and the address of bytes that are
    no UTF-8 made the key `person:`, every record naming it was rejected and the run ended
    with exit status 1 (invalid records)."""
    repo = gitrepo.Repo(tmp_path / "odd")
    repo.write(".mailmap", "Nick Proper <nick@new.example> Nick Oldname <nick@old.example>\n")
    repo.lines("core/a.py", 1, "start")
    repo.commit(ROBIN, 30, "start")
    for n, (author, _) in enumerate(ODD_AUTHORS):
        repo.lines("core/a.py", 2, f"odd{n}")
        repo.raw_commit(author, 20 - n, f"odd {n}")
    repo.lines("core/a.py", 1, "dana")
    repo.commit(DANA, 10, "from a private address")
    repo.lines("core/a.py", 1, "nick")
    repo.commit(("Nick Oldname", "nick@old.example"), 5, "before the mailmap's name")
    report = await import_git(graph, GitImport(repo.path))
    assert report.invalid == 0, report.warnings
    odd: dict[str, int] = {}
    for _, kinds in ODD_AUTHORS:
        for kind in kinds:
            odd[kind] = odd.get(kind, 0) + 1
    assert report.odd_authors == dict(sorted(odd.items()))
    assert report.commits == 8 == int(repo.git("rev-list", "--count", "HEAD"))
    # Five odd authors (the two empty-ish ones are two people), Robin, Dana, Nick.
    assert report.people == 8
    found = await graph.source_records_of(["repository:odd"])
    commits = sum(int(r.value or 0) for r in found["repository:odd"] if r.metric == "commits")
    assert commits == 8
    resolver = Resolver(graph, ReferenceRing(), graph.org_id)
    for reference, key in [
        ("dcruz", "person:12345+dcruz@users.noreply.github.com"),
        ("Nick Oldname", "person:nick@new.example"),
        ("nick@old.example", "person:nick@new.example"),
        ("digitalxero", "person:none@none"),
    ]:
        resolution = await resolver.resolve("me", reference, use_recent=False)
        assert isinstance(resolution, Resolved), reference
        assert resolution.subject.key == key, reference


JO_HOME = ("Jo Park", "jo@home.example")
JO_LOGIN = ("jopark", "jo@login.example")  # a login-like spelling, and another address


async def test_a_merge_s_author_string_joins_no_one_and_names_no_one(
    graph: OrgGraph, tmp_path: Path
) -> None:
    """A merge authored as "Jo Park <jo@login.example>" joined jopark's two commits from that
    address to Jo Park's own (click's merge 6ce5591 joined denuoweb to Jaron Rosenau: 45
    commits where git shortlog -e counts 41 and 4), and the merge, being the newest commit,
    named the person "Jo Park" though none of their counted commits is spelt so. Now only
    counted commits join and name: two people, each named as git shortlog names them."""
    repo = gitrepo.Repo(tmp_path / "merged")
    repo.lines("core/a.py", 2, "home")
    repo.commit(JO_HOME, 10, "from home")
    repo.git("checkout", "-q", "-b", "side")
    for n in range(2):
        repo.lines("core/b.py", 2, f"login{n}")
        repo.commit(JO_LOGIN, 8 - n, f"from the login {n}")
    repo.git("checkout", "-q", "main")
    gitrepo.merge(repo, "side", ("Jo Park", "jo@login.example"), 5)
    # Someone who only merged joins by their merges' name: no commit of theirs moves
    # (werkzeug's ich@danielneuhaeuser.de, 11 merges as Daniel Neuhäuser).
    repo.git("checkout", "-q", "-b", "later")
    repo.lines("core/c.py", 1, "later")
    repo.commit(JO_HOME, 4, "later from home")
    repo.git("checkout", "-q", "main")
    gitrepo.merge(repo, "later", ("Jo Park", "jo@merges.example"), 3)
    report = await import_git(graph, GitImport(repo.path))
    assert report.people == 2
    found = await people_of(graph, "jo park", "jopark")
    assert found == {"person:jo@home.example": "Jo Park", "person:jo@login.example": "jopark"}


async def test_a_person_is_named_by_the_spelling_of_most_of_their_commits(
    graph: OrgGraph, tmp_path: Path
) -> None:
    """The newest spelling named a joined person ("☿ Kenneth Reitz", 5 of requests' 2,214
    commits of his): now the spelling of most of their commits, the newest of equals."""
    repo = gitrepo.Repo(tmp_path / "spelt")
    for n, who in enumerate([KIM_WORK, KIM_WORK, ("☿ Kim Lee", "kim@work.example")]):
        repo.lines("core/a.py", 2, f"c{n}")
        repo.commit(who, 10 - n, f"change {n}")
    await import_git(graph, GitImport(repo.path))
    assert await people_of(graph, "kim lee") == {"person:kim@work.example": "Kim Lee"}


async def people_of(graph: OrgGraph, *handles: str) -> dict[str, str]:
    """The people the handles name: key -> name."""
    found = {}
    for text in handles:
        subjects, _ = await graph.subjects_by_handle(text, [SubjectKind.PERSON], limit=20)
        found.update({s.key: s.name for s in subjects})
    return found
