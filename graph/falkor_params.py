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

from engine.ports import UnrepresentableValue

# A quoted key can only follow `{` or `,` outside a string: inside one, a quote is escaped.
_QUOTED_KEY = re.compile(r'(?<=[{,])"([A-Za-z_][A-Za-z0-9_]*)":')
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Whether the text may hold an integer outside the int64 range: one has 20 digits or more, or
# 19 starting with a 9 beyond the bound of its sign (a string's digits may look so too, and
# get the exact walk). Checked with a translation and substring search, not a digit regex: a
# write batch is half a megabyte of text full of 19-digit nanosecond times, and the regex cost
# three times the encoding itself. The 19 digits from a 9 are compared with the bound: every
# row's digest (graph.rows) is a signed 64-bit integer, one in 40 of them 19 digits from a 9,
# and the walk they set off on nearly every batch cost most of a record batch's encoding
# (36 to 56 ms of the 57 to 69 ms for 5,000 rows).
_DIGITS = str.maketrans("0123456789", "##########")
_NINETEEN_FROM_NINE = re.compile(r"9(?<![0-9]9)[0-9]{18}")  # starts with a literal: fast scan
_INT64_MAX = 2**63 - 1


def _may_be_wide(text: str) -> bool:
    if "#" * 20 in text.translate(_DIGITS):
        return True
    for found in _NINETEEN_FROM_NINE.finditer(text):  # exactly 19 digits: no run of 20 above
        at = found.start()
        bound = _INT64_MAX + 1 if at and text[at - 1] == "-" else _INT64_MAX
        if int(found.group()) > bound:
            return True
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")  # unpaired: no UTF-8 encoding exists
_INT64 = range(-(2**63), 2**63)


def _has_wide_int(value: Any) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return value not in _INT64
    if isinstance(value, dict):
        return any(_has_wide_int(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_wide_int(v) for v in value)
    return False


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_nul(v) for v in value)
    return False


def literal(value: Any) -> str:
    """The Cypher literal of `value`; raises UnrepresentableValue for what the store would
    misread (the checks cost a scan of the text; the walks run only on a suspicious one)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if _may_be_wide(text) and _has_wide_int(value):
        raise UnrepresentableValue("an integer parameter is beyond the signed 64-bit range")
    if not text.isascii() and _SURROGATE.search(text):
        raise UnrepresentableValue("a string parameter holds an unpaired surrogate")
    if "\\u" in text:
        if "\\u0000" in text and _has_nul(value):
            raise UnrepresentableValue("a string parameter contains a NUL character")
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
