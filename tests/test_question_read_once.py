"""The question is read once: after engine/reading, no module looks at its text again
(issue 32). Resolving, answering and the investigation get what they need from the
Interpretation (runs beside references, where unread words stand, the question around its
time phrase, why a time phrase was not read); they may carry the question as asked to where
it is bound or shown (a receipt's signature, the reuse key, the result, the reading itself),
never slice, search, split or format it.

Checked on the source: every use of a value named `question` (a variable, parameter or
`.question` attribute) in those layers must hand it on whole, to a callee that takes it as
`question` (whose body is checked the same way) or to one of `SINKS`; and none of them
imports or calls the reading's text readers (`READERS`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AFTER_READING = ("resolving", "answering", "investigation", "questions")
# Where the question as asked goes whole: read (interpret, handle_candidates, and the
# session's follow-up reader, engine/reading/followups.py: `followed` reads a fragment with
# the previous question, `is_fragment` tells one, `Previous` keeps the question whole for
# it), bound (a receipt's signature, the reuse key), or given back (the result's frame).
SINKS = frozenset({"interpret", "handle_candidates", "issue", "verify", "reuse_key"}) | {
    "followed", "is_fragment", "Previous"
}  # fmt: skip
# The modules of those sinks that bind to the question (its folded text is an identity there:
# a receipt is for one question, a reused result answers the same one): they never read it.
BINDING = frozenset({"engine/resolving/receipts.py", "engine/investigation/reuse.py"})
# The reading's functions over the question's text: called after reading, they re-read it.
READERS = frozenset(
    {
        "tokens_of", "free_tokens", "quoted", "blank_quotes", "read_time",
        "parse_time_expression", "first_and_rest", "handle_windows", "by_handles",
        "after_actor_words", "fallback",
    }
)  # fmt: skip


def _modules() -> Iterator[Path]:
    for layer in AFTER_READING:
        for path in sorted((ROOT / "engine" / layer).glob("*.py")):
            if path.relative_to(ROOT).as_posix() not in BINDING:
                yield path


def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _takers() -> dict[str, list[list[str]]]:
    """Per function or dataclass name in those layers, its parameters (fields) in order."""
    found: dict[str, list[list[str]]] = {}
    for path in _modules():
        for node in ast.walk(_parse(path)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
                params = [a for a in args if a not in ("self", "cls")]
                found.setdefault(node.name, []).append(
                    params + [a.arg for a in node.args.kwonlyargs]
                )
            elif isinstance(node, ast.ClassDef):
                fields = [
                    s.target.id
                    for s in node.body
                    if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
                ]
                found.setdefault(node.name, []).append(fields)
    return found


def _is_question(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "question") or (
        isinstance(node, ast.Attribute) and node.attr == "question"
    )


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _handed_on(call: ast.Call, node: ast.AST, takers: dict[str, list[list[str]]]) -> bool:
    """Whether `call` takes `node` whole as a question: as `question=`, by a sink, or at the
    position of a parameter named `question` (`partial(f, ...)` as a call of f)."""
    if any(k.value is node and k.arg == "question" for k in call.keywords):
        return True
    name, args = _callee(call), list(call.args)
    if name == "partial" and args:
        inner = args.pop(0)
        name = inner.attr if isinstance(inner, ast.Attribute) else getattr(inner, "id", "")
    if name in SINKS:
        return True
    if node not in args:
        return False
    at = args.index(node)
    return any(len(p) > at and p[at] == "question" for p in takers.get(name, []))


def _misuses(tree: ast.Module, where: str, takers: dict[str, list[list[str]]]) -> Iterator[str]:
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            yield from (f"{where}:{node.lineno} imports {a.name}" for a in node.names
                        if a.name in READERS)  # fmt: skip
        if isinstance(node, ast.Attribute) and node.attr in READERS:
            yield f"{where}:{node.lineno} calls {node.attr}"
        if not _is_question(node) or isinstance(getattr(node, "ctx", None), ast.Store):
            continue
        use, parent = node, parents.get(node)
        if isinstance(parent, ast.Call) and parent.func is node:
            continue  # a method named question (engine.resolving.questiontime.TooWide)
        # Choosing between two questions whole ("x if question is None else question").
        while isinstance(parent, ast.IfExp) and use is not parent.test:
            use, parent = parent, parents.get(parent)
        if isinstance(parent, ast.Compare) and all(
            isinstance(c, ast.Constant) and c.value is None for c in parent.comparators
        ):
            continue
        if isinstance(parent, ast.keyword):
            parent = parents.get(parent)
        if isinstance(parent, ast.Call) and _handed_on(parent, use, takers):
            continue
        if isinstance(parent, ast.Assign | ast.AnnAssign) and all(
            _is_question(t) for t in getattr(parent, "targets", [getattr(parent, "target", None)])
        ):
            continue
        yield f"{where}:{node.lineno} reads the question ({ast.unparse(parent or node)[:80]})"


def test_nothing_after_reading_reads_the_question() -> None:
    takers = _takers()
    found = [
        m
        for path in _modules()
        for m in _misuses(_parse(path), path.relative_to(ROOT).as_posix(), takers)
    ]
    assert found == []


def test_the_check_finds_a_reread() -> None:
    """The check itself fails on a module re-reading the question (what firstnames and
    unmatchedwords did before the runs were read into the Interpretation)."""
    source = (
        "import re\n"
        "from engine.reading import references as r\n"
        "def joined(question: str, run: str) -> bool:\n"
        "    tokens = r.tokens_of(question)\n"
        "    return question.lstrip().startswith(run) or bool(re.search(run, question))\n"
    )
    takers = {"joined": [["question", "run"]]}
    found = list(_misuses(ast.parse(source), "probe.py", takers))
    assert any("calls tokens_of" in m for m in found), found
    assert sum("reads the question" in m for m in found) == 3, found
