"""`fabric import git PATH`: the command line of the git projection source (graph/git/)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import IO, Any

from gateway.cli.common import add_graph_options, fail, settings_from, with_store

# A repository's name is written into keys (`repository:<name>`, `module:<name>/<path>`,
# `commit:git:<name>:<sha>:...`): a "/" in it reads as a module's path ("a/b" is then
# repository "a"'s module "b"), a ":" as a key's separator. Names get an organisation id's
# characters (engine.ports.ORG_PATTERN), at the length a record's source allows.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
NAME_RULE = 'letters, digits, "_", "." and "-", beginning with a letter or digit'


def add_parser(sub: Any) -> None:
    importing = sub.add_parser("import", help="project an external source into the graph")
    kinds = importing.add_subparsers(dest="source_kind", required=True)
    parser = kinds.add_parser("git", help="a local git repository's history (bare or not)")
    parser.add_argument("path", help="the repository (its work tree or its git directory)")
    parser.add_argument("--org", default="demo")
    parser.add_argument("--since", help="only commits after this date (any date git accepts)")
    parser.add_argument("--branch", help="the branch or ref to read (default: HEAD)")
    parser.add_argument(
        "--depth", type=int, default=1, help="directory depth that makes a module (default 1)"
    )
    parser.add_argument("--name", help="the repository's name (default: its directory name)")
    add_graph_options(parser)
    parser.set_defaults(func=run)


class PhaseBar:
    """A one-line progress bar per phase (reading commits, writing records) on a terminal;
    silent when stderr is not one, so scripts and logs get only the JSON summary."""

    def __init__(self, stream: IO[str] = sys.stderr) -> None:
        self.stream = stream
        self.enabled = stream.isatty()
        self.phase = ""

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if phase != self.phase and self.phase:
            self.stream.write("\n")
        self.phase = phase
        share = min(done / total, 1.0) if total else 1.0
        bar = "#" * int(share * 30)
        self.stream.write(f"\r{phase:<8}[{bar:<30}] {share:4.0%} {done}/{total}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.phase:
            self.stream.write("\n")


def run(args: argparse.Namespace) -> int:
    from engine.ports import check_org
    from graph.git.importer import GitError, GitImport, checked_name, import_git, repository_name
    from graph.git.log import git_dir

    try:
        check_org(args.org)
        git_dir(Path(args.path))  # a clear error before any store is opened
        name = checked_name(args.name or repository_name(Path(args.path)))
        if not NAME.fullmatch(name):
            return fail(f"the repository's name {name!r} must be {NAME_RULE}: give another "
                        "with --name")
    except (ValueError, GitError) as exc:
        return fail(str(exc))
    spec = GitImport(Path(args.path), args.branch, args.since, args.depth, args.name)

    async def work(store: Any) -> int:
        await store.bootstrap(args.org)
        bar = PhaseBar()
        try:
            report = await import_git(await store.serving(args.org), spec, bar)
        except GitError as exc:
            return fail(str(exc))
        finally:
            bar.close()
        for warning in report.warnings:
            print(f"fabric: warning: {warning}", file=sys.stderr)
        summary = {"org": args.org, **vars(report)}
        summary["seconds"] = round(report.seconds, 3)
        summary.pop("warnings")
        print(json.dumps(summary))
        return 1 if report.invalid else 0

    return with_store(settings_from(args), work)
