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
    disk_problem,
    shown,
)

if TYPE_CHECKING:  # the groups ``_group`` imports on demand, named for the layering test
    from engine.cli import (  # noqa: F401
        adapt,
        cire,
        deid,
        demo,
        detect,
        evaluate,
        models,
        project,
        report,
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
# Modules that add actions under a group's command (its ``register`` returns the actions'
# subparsers): `clearnote project adapt|import-list|profile|profile-export` (issue 25),
# `clearnote project report` (issue 27).
ACTION_GROUPS: dict[str, tuple[str, ...]] = {"project": ("adapt", "report")}


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
        _register_group(COMMANDS[command], subparsers)
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
        _register_group(name, subparsers)


def _register_group(name: str, subparsers: Any) -> None:
    actions = _group(name).register(subparsers)
    for extra in ACTION_GROUPS.get(name, ()):
        _group(extra).register(actions)


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
        print(f"clearnote: {_message(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except (KeyboardInterrupt, CancelledError):
        print("clearnote: cancelled; run the same command again to finish", file=sys.stderr)
        return EXIT_CANCELLED
    except ClearNoteError as exc:
        print(f"clearnote: {_message(exc)}", file=sys.stderr)
        return EXIT_FAILURE
    except Exception as exc:
        # A full disk met outside a unit of work (creating a project, a schema step):
        # the same clear message as inside one, never a driver's traceback.
        project = getattr(args, "project", None)
        problem = disk_problem(exc, project) if project is not None else None
        if problem is None:
            raise
        print(f"clearnote: {_message(problem)}", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        signal.signal(signal.SIGINT, previous)


def _message(exc: BaseException) -> str:
    """An error for the terminal: names from files (ids, labels, file names) may carry
    escape codes; only the message's own line breaks are kept."""
    return shown(exc, 4000, keep="\n")
