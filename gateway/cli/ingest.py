"""`fabric ingest FILE`: load an NDJSON projection file (or stdin) into an organisation."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gateway.cli.common import (
    EXIT_INVALID_LINES,
    ProgressBar,
    add_graph_options,
    fail,
    settings_from,
    with_store,
)

if TYPE_CHECKING:
    from graph.projection import IngestReport


def add_parser(sub: Any) -> None:
    ingest = sub.add_parser("ingest", help="load an NDJSON projection file (or - for stdin)")
    ingest.add_argument("file")
    ingest.add_argument("--org", default="demo")
    ingest.add_argument("--source", default="default")
    ingest.add_argument("--batch-size", type=int, default=5_000)
    ingest.add_argument(
        "--complete",
        action="store_true",
        help="the input is a complete snapshot of the source: afterwards "
        "delete what the source wrote before and the input omits",
    )
    ingest.add_argument(
        "--no-resume",
        action="store_true",
        help="ignore the source's checkpoint and load from the first line",
    )
    target = ingest.add_mutually_exclusive_group()
    target.add_argument(
        "--new-epoch",
        action="store_true",
        help="build a new projection epoch from this input while the serving one keeps "
        "answering (prints its id; `fabric epochs flip` serves it)",
    )
    target.add_argument(
        "--epoch",
        type=int,
        help="load into this open build (resumes a killed `--new-epoch` load)",
    )
    way = ingest.add_mutually_exclusive_group()
    way.add_argument(
        "--bulk",
        action="store_true",
        help="read the whole input, then write it at once into a new epoch (or the open "
        "build --epoch, loaded again from its first line); the default of --new-epoch on "
        "FalkorDB",
    )
    way.add_argument(
        "--no-bulk",
        action="store_true",
        help="--new-epoch loads record by record, as into the serving epoch",
    )
    add_graph_options(ingest)
    ingest.set_defaults(func=run)


async def target_graph(store: Any, args: argparse.Namespace) -> Any:
    """The serving epoch, a new build (`--new-epoch`) or the open build `--epoch`."""
    from engine.ports import EpochConflict

    if args.new_epoch:
        return store.org(args.org, (await store.epochs(args.org).begin_build()).id)
    if args.epoch is not None:
        building = await store.epochs(args.org).building()
        if building is None or building.id != args.epoch:
            raise EpochConflict(f"epoch {args.epoch} is not the open build")
        return store.org(args.org, args.epoch)
    return await store.serving(args.org)


def count_lines(path: Path) -> int:
    count = 0
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            count += chunk.count(b"\n")
    return count


@contextmanager
def open_input(name: str) -> Iterator[tuple[Iterable[bytes], int | None]]:
    """The input's lines and, for a regular file, how many there are (for the bar)."""
    if name == "-":
        yield sys.stdin.buffer, None
        return
    path = Path(name)
    with path.open("rb") as fh:
        yield fh, count_lines(path) if path.is_file() else None


def in_bulk(store: Any, args: argparse.Namespace) -> bool:
    """Whether this load goes in bulk: asked for, or a new epoch's on a store that can."""
    if args.no_bulk:
        return False
    return bool(args.bulk or (args.new_epoch and hasattr(store, "bulk_loader")))


def projector(store: Any, graph: Any, args: argparse.Namespace, bar: ProgressBar) -> Any:
    from graph.bulk_load import BulkRun
    from graph.projection import Projector

    options = {"source": args.source, "batch_size": args.batch_size, "complete": args.complete}
    if in_bulk(store, args):
        loader = store.bulk_loader(args.org, graph.epoch)
        stream = functools.partial(store.bulk_stream, args.org, graph.epoch)
        return BulkRun(graph, loader, stream, args.org, on_progress=bar, **options)
    return Projector(graph, resume=not args.no_resume, on_progress=bar, **options)


def run(args: argparse.Namespace) -> int:
    from engine.ports import check_org

    try:
        check_org(args.org)
    except ValueError as exc:
        return fail(str(exc))
    if args.file != "-" and not Path(args.file).exists():
        return fail(f"no such file: {args.file}")

    async def work(store: Any) -> int:
        from engine.ports import EpochConflict

        if args.bulk and not hasattr(store, "bulk_loader"):
            return fail("--bulk needs FalkorDB: on Neo4j, --new-epoch loads in batches")
        args.new_epoch = args.new_epoch or (args.bulk and args.epoch is None)
        await store.bootstrap(args.org)
        try:
            graph = await target_graph(store, args)
        except EpochConflict as exc:
            return fail(str(exc))
        if args.new_epoch:  # the id first: a killed load is resumed with --epoch ID
            print(json.dumps({"org": args.org, "epoch": graph.epoch, "state": "building"}))
        with open_input(args.file) as (lines, total):
            bar = ProgressBar(total)
            try:
                report = await projector(store, graph, args, bar).run(lines)
            finally:
                bar.close()
        return _summary(args.org, graph.epoch, report)

    return with_store(settings_from(args), work)


def _summary(org: str, epoch: int, report: IngestReport) -> int:
    """The first invalid lines on stderr, one JSON line of counts on stdout; the exit status
    (a load with invalid lines is not a clean one, even if every valid line went in)."""
    for bad in report.invalid[:50]:
        print(f"line {bad.line}: {bad.reason}", file=sys.stderr)
    if report.invalid_count > 50:
        print(f"... and {report.invalid_count - 50} more invalid lines", file=sys.stderr)
    summary = {
        "org": org,
        "epoch": epoch,
        "source": report.source,
        "lines": report.lines,
        "accepted": report.accepted,
        "unchanged": report.unchanged,
        "invalid": report.invalid_count,
        "resumed_from_line": report.resumed_from,
        "deleted": report.deleted,
        "seconds": round(report.seconds, 3),
    }
    if report.complete_skipped:
        summary["complete"] = "skipped: invalid lines are no proof of a complete snapshot"
    print(json.dumps(summary))
    return EXIT_INVALID_LINES if report.invalid_count else 0
