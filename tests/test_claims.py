"""The order in which the readings claim a question's words is stated once
(engine/reading/claims.py) and true to the code: every function of engine/reading that takes
a word (sets `Token.free`) is a row there, and `interpret` calls them in the rows' order. A
new pass, or a pass moved, fails here until the table says it."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.reading.claims import CLAIMS

ROOT = Path(__file__).resolve().parent.parent
READING = ROOT / "engine" / "reading"


def _claimers() -> set[str]:
    """module.function (under engine/reading) of every function assigning `X.free`."""
    found = set()
    for path in sorted(READING.rglob("*.py")):
        module = path.relative_to(READING).with_suffix("").as_posix().replace("/", ".")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for inner in ast.walk(node):
                targets = inner.targets if isinstance(inner, ast.Assign) else []
                if any(isinstance(t, ast.Attribute) and t.attr == "free" for t in targets):
                    found.add(f"{module}.{node.name}")
    return found


def _callees(module: Path, function: str) -> list[str]:
    """module.function of each engine.reading function `function` calls, in source order;
    a call to a step of interpret (a function of the interpreter or of engine/reading/steps)
    is followed into it, so the passes are seen in the order the steps run them."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    here = module.relative_to(READING).with_suffix("").as_posix().replace("/", ".")
    names: dict[str, str] = {}  # local name -> module.function or module
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine.reading"):
            base = (node.module or "").removeprefix("engine.reading").lstrip(".")
            for alias in node.names:
                local = alias.asname or alias.name
                names[local] = f"{base}.{alias.name}" if base else alias.name
    for node in tree.body:  # the module's own functions ("interpreter.helper")
        if isinstance(node, ast.FunctionDef):
            names.setdefault(node.name, f"{here}.{node.name}")
    body = next(
        n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function
    )
    calls = sorted(
        (n for n in ast.walk(body) if isinstance(n, ast.Call)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    out = []
    for call in calls:
        func = call.func
        if isinstance(func, ast.Name) and func.id in names:
            called = names[func.id]
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in names
        ):
            called = f"{names[func.value.id]}.{func.attr}"
        else:
            continue
        owner, _, name = called.rpartition(".")
        if owner == "interpreter" or (owner.startswith("steps.") and owner != "steps.draft"):
            out += _callees(READING / f"{owner.replace('.', '/')}.py", name)
        else:
            out.append(called)
    return out


def test_every_pass_taking_words_is_a_row() -> None:
    rows = {c.reader for c in CLAIMS}
    assert _claimers() == rows


def test_interpret_runs_the_passes_in_the_rows_order() -> None:
    rows = [c.reader for c in CLAIMS]
    called = [c for c in _callees(READING / "interpreter.py", "interpret") if c in rows]
    first = list(dict.fromkeys(called))
    assert first == rows
