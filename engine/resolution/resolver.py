"""The order of resolution, in one place.

``screen`` runs per segment on the union of every detector's candidates: the guards (rules
that hold for every detector), then each recoverer in turn (the shipped clinical allowlist
first, then what a project learned). ``settle`` runs once per document: the overlap policy,
the candidates found apart that are one identifier joined (resolution/joins.py), the policy
filter, the recurrences of the names and places found (resolution/recurrence.py), then each
decider on the spans still undecided (a learned resolver sees merged spans with their
co-proposers as evidence: what a reviewer saw and decided).

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
from engine.resolution.joins import joined
from engine.resolution.overlaps import DEFAULT_OVERLAP, resolve_overlaps


class Recoverer(Protocol):
    """Recovers candidates that are not PHI here (clinical vocabulary, a learned decision)."""

    def recover(self, doc: Document, spans: list[Span]) -> tuple[list[Span], list[Span]]:
        """Split candidates into (kept, dropped)."""
        ...


@dataclass(frozen=True)
class Resolver:
    """``recoverers`` are shipped knowledge (the clinical allowlist); ``learned`` recoverers
    (a project's vocabulary) run after them, and ``deciders`` (a learned resolver) in
    ``settle``. Neither kind that a project learned may drop a protected span
    (engine.resolution.protect: PHI dictionary texts, validated identifiers, dates)."""

    policy: Policy
    overlap: str = DEFAULT_OVERLAP
    recoverers: Sequence[Recoverer] = ()
    deciders: Sequence[Recoverer] = ()
    learned: Sequence[Recoverer] = ()
    protected_terms: frozenset[str] = frozenset()  # the profile's PHI dictionary texts

    def _learned_recover(self, recoverer: Recoverer, doc: Document, spans: list[Span]
                         ) -> tuple[list[Span], list[Span]]:
        """``recoverer.recover`` under the safety rule: protected spans are kept."""
        from engine.resolution.protect import is_protected

        kept, dropped = recoverer.recover(doc, spans)
        saved = [s for s in dropped if is_protected(doc, s, self.protected_terms)]
        if not saved:
            return kept, dropped
        back = {id(s) for s in saved}
        kept_ids = {id(s) for s in kept} | back
        return ([s for s in spans if id(s) in kept_ids],
                [s for s in dropped if id(s) not in back])

    def screen(self, doc: Document, proposed: list[Span]) -> tuple[list[Span], list[Span]]:
        """(kept, dropped) candidates: guards first, then every recoverer in order, then
        the learned ones."""
        from engine.resolution.guards import guard  # compiles the rules: not on import

        kept, _guarded = guard(doc, proposed)
        kept, dropped = self._shipped_recover(doc, kept)
        for recoverer in self.learned:
            if not kept:
                break
            kept, lost = self._learned_recover(recoverer, doc, kept)
            dropped.extend(lost)
        return kept, dropped

    def _shipped_recover(self, doc: Document, spans: list[Span]) -> tuple[list[Span], list[Span]]:
        """(kept, dropped) by every shipped recoverer in order (the clinical allowlist)."""
        dropped: list[Span] = []
        for recoverer in self.recoverers:
            if not spans:
                break
            spans, lost = recoverer.recover(doc, spans)
            dropped.extend(lost)
        return spans, dropped

    def settle(self, doc: Document, candidates: list[Span]) -> list[Span]:
        """The overlap policy, the policy filter, the deciders (decided spans stay as they
        are: only CANDIDATE spans are filtered)."""
        from engine.resolution.recurrence import recurrences  # word lists: not on import

        resolved = joined(doc.text, resolve_overlaps(candidates, self.overlap))
        spans = [s for s in resolved
                 if s.status is not SpanStatus.CANDIDATE or self.policy.is_phi(s, doc.text)]
        repeats = [s for s in recurrences(doc, spans) if self.policy.is_phi(s, doc.text)]
        # "glenn" found once is no name in "bidirectional glenn"
        spans += self._shipped_recover(doc, repeats)[0]
        for decider in self.deciders:
            open_spans = [s for s in spans if s.status is SpanStatus.CANDIDATE]
            if not open_spans:
                break
            _kept, dropped = self._learned_recover(decider, doc, open_spans)
            gone = {id(s) for s in dropped}
            spans = [s for s in spans if id(s) not in gone]
        return spans
