"""The `DateTime` scalar, told plainly when a value is not one.

strawberry's own parses with dateutil and appends the parser's exception text to its error:
`asOf: "yesterday"` answered `invalid literal for int() with base 10: b'yest'`, Python's
words about a step inside dateutil. The values accepted are the same (dateutil's ISO 8601
reader); only the refusal changes: one sentence saying what is expected, with the value as
sent (cut short), and the stable code BAD_USER_INPUT, the same in a literal and in a
variable (graphql-core keeps a GraphQLError the scalar raises as it is, and prefixes
"Variable '$x' has invalid value" to one from a variable).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from graphql import GraphQLError, StringValueNode, ValueNode, print_ast
from strawberry.schema.types.base_scalars import DateTimeDefinition
from strawberry.types.scalar import ScalarDefinition

EXPECTED = (
    "DateTime must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z "
    "(or a date such as 2026-11-01)"
)
SHOWN = 40  # characters of a refused value repeated in the message
_STRAWBERRYS = DateTimeDefinition.parse_value  # dateutil's ISO 8601 reader, wrapped


def _read(text: str) -> datetime | None:
    """The instant strawberry reads in `text`, or None where it refuses it."""
    assert _STRAWBERRYS is not None
    try:
        value = _STRAWBERRYS(text)
    except (GraphQLError, OverflowError):
        return None
    return value if isinstance(value, datetime) else None


def _refusal(shown: str, node: ValueNode | None = None) -> GraphQLError:
    if len(shown) > SHOWN:
        shown = shown[: SHOWN - 1] + "…"
    return GraphQLError(
        f"{EXPECTED}, not {shown}", node, extensions={"code": "BAD_USER_INPUT"}
    )


def parse_datetime(value: Any) -> datetime:
    """A variable's value (JSON): a string dateutil reads as ISO 8601."""
    read = _read(value) if isinstance(value, str) else None
    if read is not None:
        return read
    raise _refusal(json.dumps(value, ensure_ascii=False, default=str))


def parse_datetime_literal(node: ValueNode, _variables: Any = None) -> datetime:
    """A literal in the document: a string, read as a variable's string is; any other
    literal (`asOf: 5`) is refused with its location."""
    read = _read(node.value) if isinstance(node, StringValueNode) else None
    if read is not None:
        return read
    raise _refusal(print_ast(node), node)


DATETIME = ScalarDefinition(
    name=DateTimeDefinition.name,
    description=DateTimeDefinition.description,
    specified_by_url=DateTimeDefinition.specified_by_url,
    serialize=DateTimeDefinition.serialize,
    parse_value=parse_datetime,
    parse_literal=parse_datetime_literal,
    origin=datetime,
)
SCALAR_OVERRIDES: dict[object, ScalarDefinition] = {datetime: DATETIME}
