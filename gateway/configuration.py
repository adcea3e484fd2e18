"""The configuration reference (docs/configuration.md), generated from the settings model.

`fabric config-reference --out docs/configuration.md` rewrites the file; a test fails when the
committed file differs from what the code would write, so the reference cannot drift.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from gateway.settings import Settings

DOC_PATH = Path("docs") / "configuration.md"

_HEADER = """# Configuration reference

<!-- Generated from gateway/settings.py by `fabric config-reference --out docs/configuration.md`;
do not edit by hand (tests/test_configuration.py fails when this file differs from the code). -->

Every setting is an environment variable with the prefix `FABRIC_`, read once at start.
`fabric serve --host/--port/--graph-uri/--data-dir` override the matching variables. Secret
settings are never printed or logged. List values are JSON (`FABRIC_CORS_ORIGINS='["https://a.example"]'`);
booleans accept `true`/`false`/`1`/`0`.

| variable | type | default | description |
| --- | --- | --- | --- |
"""


def env_name(field: str) -> str:
    prefix = str(Settings.model_config.get("env_prefix", ""))
    return (prefix + field).upper()


def env_names() -> list[str]:
    """Every environment variable the settings model reads."""
    return [env_name(name) for name in Settings.model_fields]


def _type_name(annotation: Any) -> str:
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return " \\| ".join(f"`{v}`" for v in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        parts = [_type_name(a) for a in typing.get_args(annotation) if a is not type(None)]
        return " \\| ".join(parts) + ", optional"
    if origin is list:
        (item,) = typing.get_args(annotation)
        return f"list of {_type_name(item)}"
    if annotation is SecretStr:
        return "secret"
    names = {str: "string", int: "integer", float: "number", bool: "boolean", Path: "path"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def _default(field: FieldInfo) -> str:
    if field.default_factory is not None:
        value: Any = field.default_factory()  # type: ignore[call-arg]
    elif field.default is PydanticUndefined:
        return "required"
    else:
        value = field.default
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, list):
        return "`[]`" if not value else f"`{value}`"
    return f"`{value}`"


def _bounds(field: FieldInfo) -> str:
    words = []
    for item in field.metadata:
        for attr, sign in (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<")):
            bound = getattr(item, attr, None)
            if bound is not None:
                words.append(f"{sign} {bound}")
    return f" ({', '.join(words)})" if words else ""


def reference() -> str:
    """The whole markdown reference, one table row per setting, in the model's order."""
    rows = []
    for name, field in Settings.model_fields.items():
        description = (field.description or "").replace("|", "\\|").replace("\n", " ")
        rows.append(
            f"| `{env_name(name)}` | {_type_name(field.annotation)}{_bounds(field)} "
            f"| {_default(field)} | {description} |"
        )
    return _HEADER + "\n".join(rows) + "\n"
