"""Build documents and spans from (substring, label, subtype) tuples. Synthetic PHI only."""

from __future__ import annotations

from engine.core.domain import Document, Span, SpanStatus
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.surrogates import InMemorySurrogateMap, Surrogator

SECRET = b"test-secret-0123456789abcdef"


def make(text: str, *items: tuple[str, Label] | tuple[str, Label, str | None],
         status: SpanStatus = SpanStatus.CANDIDATE) -> tuple[Document, list[Span]]:
    """Spans for each substring in order of appearance (searching after the previous)."""
    spans: list[Span] = []
    pos = 0
    for item in items:
        sub, label = item[0], item[1]
        subtype = item[2] if len(item) > 2 else None  # type: ignore[misc]
        start = text.index(sub, pos)
        spans.append(Span(start, start + len(sub), label, subtype=subtype, status=status))
        pos = start + len(sub)
    return Document.from_text(text), spans


def surrogator(policy: str = "strict", secret: bytes = SECRET, **kw: object) -> Surrogator:
    kw.setdefault("mapping", InMemorySurrogateMap())
    return Surrogator(secret=secret, policy=get_policy(policy), **kw)  # type: ignore[arg-type]


def one(text: str, label: Label, subtype: str | None = None, *, policy: str = "strict",
        patient: str = "p1", sur: Surrogator | None = None) -> str:
    """The surrogate of a whole-text span."""
    doc, spans = make(text, (text, label, subtype))
    return (sur or surrogator(policy)).surrogate_for(doc, spans[0], patient=patient)
