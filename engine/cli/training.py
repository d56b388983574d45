"""`clearnote train ...`: the commands live with the training code (engine.training.cli),
which runs in its own interpreter; this module only adds them to the parser."""

from __future__ import annotations

from engine.training.cli import register

__all__ = ["register"]
