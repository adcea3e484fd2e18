"""`fabric config-reference`: write the reference of every setting (docs/configuration.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(sub: Any) -> None:
    config = sub.add_parser(
        "config-reference", help="write the configuration reference (markdown) of every setting"
    )
    config.add_argument("--out", help="output file, e.g. docs/configuration.md (default: stdout)")
    config.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gateway.configuration import reference

    text = reference()
    if args.out in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0
