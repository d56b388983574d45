"""The deterministic clinical guard: no model, just rules over the replacements.

A replacement is flagged when its input range overlaps clinical content in the original:
a lexicon term, a number with a unit, a dose, a lab value, an age or a year the policy keeps.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.cire.lexicon import HIGH_CATEGORIES, Hit, Lexicon, find_ages, find_clinical, find_years
from engine.cire.report import FlagReason, Severity
from engine.core.domain import Document, Replacement
from engine.core.labels import Label
from engine.core.policies import Policy

_KIND_REASON = {"term": FlagReason.LEXICON_TERM, "measurement": FlagReason.MEASUREMENT,
                "dose": FlagReason.DOSE, "lab_value": FlagReason.LAB_VALUE}


@dataclass(frozen=True, slots=True)
class GuardFinding:
    replacement: Replacement
    reason: FlagReason
    severity: Severity
    detail: str


def policy_keeps_age(policy: Policy, age: int) -> bool:
    if Label.AGE not in policy.phi_labels:
        return True
    return policy.age_over is not None and age <= policy.age_over


class ClinicalGuard:
    def __init__(self, *, policy: Policy, lexicon: Lexicon | None = None) -> None:
        self.policy = policy
        self.lexicon = lexicon

    def clinical_hits(self, text: str) -> list[Hit]:
        hits = find_clinical(text, self.lexicon)
        hits += [Hit(s, e, "age", "age") for s, e, age in find_ages(text)
                 if policy_keeps_age(self.policy, age)]
        if self.policy.keep_years:
            hits += [Hit(s, e, "year", "year") for s, e, _ in find_years(text)]
        return hits

    def check(self, doc: Document, output: str, replacements: Iterable[Replacement], *,
              check: Callable[[], None] | None = None) -> list[GuardFinding]:
        """``check`` (a cancel poll) runs before the scan and every few thousand
        replacements."""
        if check is not None:
            check()
        overlapping = _HitIndex(self.clinical_hits(doc.text))
        findings: list[GuardFinding] = []
        for n, rep in enumerate(replacements):
            if check is not None and not n & 0xFFF:
                check()
            before = doc.text[rep.start:rep.end]
            after = output[rep.output_start:rep.output_end]
            if " ".join(before.split()).casefold() == " ".join(after.split()).casefold():
                continue  # nothing changed
            seen: set[tuple[FlagReason, str]] = set()
            for hit in overlapping(rep.start, rep.end):
                finding = self._judge_hit(hit, before, after, rep)
                if finding and (finding.reason, finding.detail) not in seen:
                    seen.add((finding.reason, finding.detail))
                    findings.append(finding)
        return findings

    def _judge_hit(self, hit: Hit, before: str, after: str,
                   rep: Replacement) -> GuardFinding | None:
        if hit.kind == "age":
            return GuardFinding(rep, FlagReason.AGE, Severity.HIGH, "age kept by policy")
        if hit.kind == "year":
            years = {y for _, _, y in find_years(before)}
            if years and all(y in after for y in years):
                return None  # the surrogate kept the year, as the policy asks
            return GuardFinding(rep, FlagReason.YEAR, Severity.LOW, "year kept by policy")
        if hit.kind == "term":
            severity = Severity.HIGH if hit.category in HIGH_CATEGORIES else Severity.LOW
            return GuardFinding(rep, FlagReason.LEXICON_TERM, severity, hit.category)
        return GuardFinding(rep, _KIND_REASON[hit.kind], Severity.HIGH, hit.category)


class _HitIndex:
    """The hits overlapping a range, in their original order, found by bisection: every
    replacement against every hit was quadratic in the document's length."""

    def __init__(self, hits: list[Hit]) -> None:
        self._order = sorted(range(len(hits)), key=lambda i: hits[i].start)
        self._hits = hits
        self._starts = [hits[i].start for i in self._order]
        self._longest = max((h.end - h.start for h in hits), default=0)

    def __call__(self, start: int, end: int) -> list[Hit]:
        # A hit starting at or before ``start - longest`` ends by ``start``: none earlier.
        lo = bisect_left(self._starts, start - self._longest + 1)
        hi = bisect_left(self._starts, end)
        found = sorted(i for i in self._order[lo:hi] if self._hits[i].end > start)
        return [self._hits[i] for i in found]
