"""`clearnote ...` subcommands, one module per command group (see ``main``)."""

from __future__ import annotations

from engine.cli.main import build_parser, main, register

__all__ = ["build_parser", "main", "register"]
