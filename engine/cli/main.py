"""`clearnote` command line: the parser, one module per command group. Exit codes are in
``engine.cli.common``.

A command imports only its own group's module (``COMMANDS``): `clearnote detect` never
loads the project store, Spark or the training hooks. ``--help`` and unknown commands
register every group, so the listing is always complete."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from engine import __version__
from engine.cli.common import EXIT_CANCELLED, EXIT_FAILURE, EXIT_USAGE
from engine.core.errors import (
    CancelledError,
    ClearNoteError,
    PassphraseRequiredError,
    UsageError,
    WrongPassphraseError,
)

if TYPE_CHECKING:  # the groups ``_group`` imports on demand, named for the layering test
    from engine.cli import (  # noqa: F401
        cire,
        deid,
        demo,
        detect,
        evaluate,
        models,
        project,
        spark,
        training,
    )

log = logging.getLogger("clearnote")

# Top-level command -> the group module that registers it, in the order `clearnote --help`
# lists them. tests/integration/test_cli.py checks that every group registers exactly these.
COMMANDS: dict[str, str] = {
    "detect": "detect", "deid": "deid", "table-schema": "deid", "evaluate": "evaluate",
    "demo": "demo",
    "project": "project", "batch": "project", "cire": "cire", "models": "models",
    "train-ner": "training", "spark": "spark",
}
COMMAND_GROUPS: tuple[str, ...] = tuple(dict.fromkeys(COMMANDS.values()))


def _group(name: str) -> ModuleType:
    return importlib.import_module(f"engine.cli.{name}")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; given ``argv``, only the group of the command it names is registered."""
    parser = argparse.ArgumentParser(
        prog="clearnote", description="De-identify clinical documents, entirely offline.")
    parser.add_argument("--version", action="version", version=f"clearnote {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="more log output")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    command = _command(argv)
    if command is None:
        register(subparsers)
    else:
        _group(COMMANDS[command]).register(subparsers)
    return parser


def _command(argv: Sequence[str] | None) -> str | None:
    """The command ``argv`` names, when only global flags come before it."""
    for arg in argv or ():
        if arg in ("-v", "--verbose"):
            continue
        return arg if arg in COMMANDS else None
    return None


def register(subparsers: Any) -> None:
    """Every command group's subcommands."""
    for name in COMMAND_GROUPS:
        _group(name).register(subparsers)


def main(argv: Sequence[str] | None = None) -> int:
    # Every file and folder this command creates is owner-only (also those written by
    # libraries: PDF writers, SQLite); restored for callers that run main() in-process.
    previous = os.umask(0o077)
    try:
        return _main(argv)
    finally:
        os.umask(previous)


def _main(argv: Sequence[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
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
