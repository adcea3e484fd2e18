"""Encoding of statement parameters for FalkorDB's `CYPHER name=value` header.

FalkorDB takes parameters as Cypher literals in front of the statement. The client's own
encoder walks every value in Python, which dominated ingest time; JSON produced by the C
encoder is the same literal text except for two things, handled here: map keys are bare
identifiers in Cypher (every map key we send is one of our own identifiers), and FalkorDB
does not understand `\\u00XX` escapes, which JSON uses for rare control characters; any value
whose JSON contains one goes through the client's encoder instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

from falkordb.helpers import stringify_param_value

# A quoted key can only follow `{` or `,` outside a string: inside one, a quote is escaped.
_QUOTED_KEY = re.compile(r'(?<=[{,])"([A-Za-z_][A-Za-z0-9_]*)":')
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def literal(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if "\\u" in text:
        return str(stringify_param_value(value))
    if "{" not in text:
        return text  # no map anywhere: nothing to unquote
    return _QUOTED_KEY.sub(r"\1:", text)


def header(params: dict[str, Any]) -> str:
    if not params:
        return ""
    parts = []
    for name, value in params.items():
        if not _NAME.match(name):
            raise ValueError(f"invalid parameter name {name!r}")
        parts.append(f"{name}={literal(value)}")
    return "CYPHER " + " ".join(parts) + " "
