"""`clearnote` command line: the parser, one module per command group. Exit codes are in
``engine.cli.common``."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from engine import __version__
from engine.cli import cire, demo, detect, evaluate, models, project, spark, training
from engine.cli.common import EXIT_CANCELLED, EXIT_FAILURE, EXIT_USAGE
from engine.core.errors import (
    CancelledError,
    ClearNoteError,
    PassphraseRequiredError,
    UsageError,
    WrongPassphraseError,
)

log = logging.getLogger("clearnote")

# In the order `clearnote --help` lists them.
COMMAND_GROUPS = (detect, evaluate, demo, project, cire, models, training, spark)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clearnote", description="De-identify clinical documents, entirely offline.")
    parser.add_argument("--version", action="version", version=f"clearnote {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="more log output")
    register(parser.add_subparsers(dest="command", metavar="COMMAND"))
    return parser


def register(subparsers: Any) -> None:
    """Every command group's subcommands."""
    for group in COMMAND_GROUPS:
        group.register(subparsers)


def main(argv: Sequence[str] | None = None) -> int:
    # Every file and folder this command creates is owner-only (also those written by
    # libraries: PDF writers, SQLite); restored for callers that run main() in-process.
    previous = os.umask(0o077)
    try:
        return _main(argv)
    finally:
        os.umask(previous)


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    previous = signal.getsignal(signal.SIGINT)  # commands install their Ctrl-C handler
    try:
        return func(args)
    except (UsageError, WrongPassphraseError, PassphraseRequiredError) as exc:
        print(f"clearnote: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (KeyboardInterrupt, CancelledError):
        print("clearnote: cancelled; run the same command again to finish", file=sys.stderr)
        return EXIT_CANCELLED
    except ClearNoteError as exc:
        print(f"clearnote: {exc}", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        signal.signal(signal.SIGINT, previous)
