"""The Detector protocol every detector implements."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span


@dataclass(frozen=True)
class DetectorSpec:
    id: str  # e.g. "regex.phone"
    version: int
    source: Source
    description: str = ""

    @property
    def qualified(self) -> str:
        return f"{self.id}@{self.version}"


@runtime_checkable
class Detector(Protocol):
    spec: DetectorSpec

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        """Propose candidate spans. Raise (never return nothing) on failure."""
        ...
