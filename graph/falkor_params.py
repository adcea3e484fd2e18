"""Encoding of statement parameters for FalkorDB's `CYPHER name=value` header.

FalkorDB takes parameters as Cypher literals in front of the statement. The client's own
encoder walks every value in Python, which dominated ingest time; JSON produced by the C
encoder is the same literal text except for two things, handled here: map keys are bare
identifiers in Cypher (every map key we send is one of our own identifiers), and FalkorDB
does not understand `\\u00XX` escapes, which JSON uses for rare control characters; any value
whose JSON contains one goes through the client's encoder instead.

The JSON is orjson's where it is the text json's encoder makes, or a literal that reads as the
same value: json.dumps took 8 ms of a 14 ms record batch (and 76 ms of a vector batch's 84),
orjson a tenth of that. They differ in (tests/test_boundaries):
* a float's exponent: orjson writes 1e-7 and 0.000015 where json writes 1e-07 and 1.5e-05,
  which FalkorDB reads as the same double (tests/test_falkordb_behaviour);
* NaN and infinity, which orjson writes as null and json refuses (ValueError): a text with a
  null is made by json again, so such a value is refused as before;
* what orjson refuses (an integer beyond 64 bits, an unpaired surrogate, a key that is not a
  string, a float or str subclass such as numpy's or a str enum, a datetime, a dataclass):
  json makes those, and the checks below refuse what FalkorDB would misread, as before;
* a UUID or a plain enum, which orjson writes as its text or value, json refuses.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson
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


_OWN = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
_OWN |= orjson.OPT_PASSTHROUGH_DATETIME  # these raise TypeError: json makes their text


def _json(value: Any) -> str:
    """The JSON of `value` (see the module's docstring for where orjson's is not taken)."""
    try:
        made = orjson.dumps(value, option=_OWN)
    except TypeError:  # orjson.JSONEncodeError
        made = b"null"
    if b"null" in made:  # maybe a NaN or infinity, which json refuses
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return made.decode()


def literal(value: Any) -> str:
    """The Cypher literal of `value`; raises UnrepresentableValue for what the store would
    misread (the checks cost a scan of the text; the walks run only on a suspicious one)."""
    text = _json(value)
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
