"""The order of resolution, in one place.

``screen`` runs per segment on the union of every detector's candidates: the guards (rules
that hold for every detector), then each recoverer in turn (the shipped clinical allowlist
first, then what a project learned). ``settle`` runs once per document: the overlap policy,
the policy filter, then each decider on the spans still undecided (a learned resolver sees
merged spans with their co-proposers as evidence: what a reviewer saw and decided).

Overlaps are resolved before the policy so that "Dr. John Smith" is first recognised as a
DOCTOR (longest span wins) and only then dropped by a policy that keeps providers; filtering
first would let the gazetteer's PERSON "John Smith" through.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.core.domain import Document, Span, SpanStatus
from engine.core.policies import Policy
from engine.resolution.overlaps import DEFAULT_OVERLAP, resolve_overlaps


class Recoverer(Protocol):
    """Recovers candidates that are not PHI here (clinical vocabulary, a learned decision)."""

    def recover(self, doc: Document, spans: list[Span]) -> tuple[list[Span], list[Span]]:
        """Split candidates into (kept, dropped)."""
        ...


@dataclass(frozen=True)
class Resolver:
    policy: Policy
    overlap: str = DEFAULT_OVERLAP
    recoverers: Sequence[Recoverer] = ()
    deciders: Sequence[Recoverer] = ()

    def screen(self, doc: Document, proposed: list[Span]) -> tuple[list[Span], list[Span]]:
        """(kept, dropped) candidates: guards first, then every recoverer in order."""
        from engine.resolution.guards import guard  # compiles the rules: not on import

        kept, _guarded = guard(doc, proposed)
        dropped: list[Span] = []
        for recoverer in self.recoverers:
            if not kept:
                break
            kept, lost = recoverer.recover(doc, kept)
            dropped.extend(lost)
        return kept, dropped

    def settle(self, doc: Document, candidates: list[Span]) -> list[Span]:
        """The overlap policy, the policy filter, the deciders (decided spans stay as they
        are: only CANDIDATE spans are filtered)."""
        resolved = resolve_overlaps(candidates, self.overlap)
        spans = [s for s in resolved
                 if s.status is not SpanStatus.CANDIDATE or self.policy.is_phi(s, doc.text)]
        for decider in self.deciders:
            open_spans = [s for s in spans if s.status is SpanStatus.CANDIDATE]
            if not open_spans:
                break
            _kept, dropped = decider.recover(doc, open_spans)
            gone = {id(s) for s in dropped}
            spans = [s for s in spans if id(s) not in gone]
        return spans
