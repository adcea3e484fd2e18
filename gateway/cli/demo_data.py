"""`fabric demo-data`: write a deterministic synthetic organisation in the projection format."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_parser(sub: Any) -> None:
    demo = sub.add_parser("demo-data", help="write a deterministic demo organisation")
    demo.add_argument("--records", type=int, default=10_000)
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--out", help="output file (default: stdout)")
    demo.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from graph.records import FORMAT_NAME, FORMAT_VERSION
    from sources.demo import generate

    out = sys.stdout if args.out in (None, "-") else open(args.out, "w")  # noqa: SIM115
    try:
        header = {"type": "header", "format": FORMAT_NAME, "version": FORMAT_VERSION}
        out.write(json.dumps(header) + "\n")
        for record in generate(args.records, seed=args.seed):
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    return 0
