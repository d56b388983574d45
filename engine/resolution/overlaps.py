"""Merging and overlap policies over candidate spans.

Losers are never deleted: they come back with status SUPERSEDED so the reviewer and the audit
trail can see who proposed what.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from engine.core.domain import ACTIVE_STATUSES, Span, SpanStatus
from engine.core.labels import Label

# Which label wins when two detectors disagree on the same range: the more specific and the
# more harmful-to-miss first.
LABEL_PRIORITY: dict[Label, int] = {
    Label.ID: 0, Label.WEB: 1, Label.PHONE: 2, Label.DATE: 3, Label.AGE: 4,
    Label.PATIENT: 5, Label.PERSON: 6, Label.DOCTOR: 7, Label.LOCATION: 8,
    Label.HOSPITAL: 9, Label.OTHER: 10,
}


def merge_duplicates(spans: Iterable[Span]) -> list[Span]:
    """Collapse spans with the same range and label, keeping every proposer as evidence."""
    by_key: dict[tuple[int, int, Label], Span] = {}
    for span in spans:
        key = (span.start, span.end, span.label)
        kept = by_key.get(key)
        if kept is None:
            by_key[key] = span
            continue
        best, other = (span, kept) if span.confidence > kept.confidence else (kept, span)
        evidence = tuple(dict.fromkeys(
            d for d in (*best.evidence, *other.detectors) if d and d != best.detector))
        by_key[key] = replace(best, evidence=evidence,
                              subtype=best.subtype or other.subtype)
    return sorted(by_key.values(), key=lambda s: (s.start, s.end))


def _longest_key(span: Span) -> tuple[int, float, int, int]:
    return (-span.length, -span.confidence, LABEL_PRIORITY[span.label], span.start)


def _confidence_key(span: Span) -> tuple[float, int, int, int]:
    return (-span.confidence, -span.length, LABEL_PRIORITY[span.label], span.start)


OverlapPolicy = Callable[[list[Span]], list[Span]]


def _components(spans: list[Span]) -> list[list[Span]]:
    """Groups of spans linked by overlaps (sorted by start): a greedy decision for one span
    depends only on the winners it overlaps, all in its own group, so each group can be
    decided alone. Keeps resolution near-linear on long documents with many spans."""
    groups: list[list[Span]] = []
    group_end = -1
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        if groups and span.start < group_end:
            groups[-1].append(span)
            group_end = max(group_end, span.end)
        else:
            groups.append([span])
            group_end = span.end
    return groups


def _greedy(rank: Callable[[Span], tuple]) -> OverlapPolicy:
    def resolve(spans: list[Span]) -> list[Span]:
        # Only live spans compete; decided ones (REJECTED, SUPERSEDED) pass through.
        live = [s for s in spans if s.status in ACTIVE_STATUSES]
        dead = [s for s in spans if s.status not in ACTIVE_STATUSES]
        winners: list[Span] = []
        losers: list[Span] = []
        for group in _components(live):
            if len(group) == 1:
                winners.append(group[0])
                continue
            kept: list[Span] = []
            # Accepted spans always win: a reviewer's decision outranks any detector.
            for span in sorted(group,
                               key=lambda s: (s.status is not SpanStatus.ACCEPTED, rank(s))):
                if any(span.overlaps(w) for w in kept):
                    losers.append(span.with_status(SpanStatus.SUPERSEDED))
                else:
                    kept.append(span)
            winners += kept
        return sorted([*winners, *losers, *dead], key=lambda s: (s.start, s.end, s.status))
    return resolve


def _union_merge(spans: list[Span]) -> list[Span]:
    """Overlapping live spans merge into one covering span (max recall), best label wins."""
    live = sorted((s for s in spans
                   if s.status in ACTIVE_STATUSES),
                  key=lambda s: (s.start, -s.end))
    dead = [s for s in spans if s.status not in ACTIVE_STATUSES]
    out: list[Span] = []
    group: list[Span] = []
    group_end = -1

    def flush() -> None:
        if not group:
            return
        if len(group) == 1:
            out.append(group[0])
            return
        best = min(group, key=_longest_key)
        start, end = min(s.start for s in group), max(s.end for s in group)
        evidence = tuple(dict.fromkeys(
            d for s in group for d in s.detectors if d and d != best.detector))
        merged = replace(best, start=start, end=end, evidence=evidence)
        out.append(merged)
        out.extend(s.with_status(SpanStatus.SUPERSEDED) for s in group if s is not best)

    for span in live:
        if group and span.start < group_end:
            group.append(span)
            group_end = max(group_end, span.end)
        else:
            flush()
            group, group_end = [span], span.end
    flush()
    return sorted([*out, *dead], key=lambda s: (s.start, s.end, s.status))


OVERLAP_POLICIES: dict[str, OverlapPolicy] = {
    "longest": _greedy(_longest_key),
    "highest-confidence": _greedy(_confidence_key),
    "merge": _union_merge,
}
DEFAULT_OVERLAP = "longest"


def resolve_overlaps(spans: Iterable[Span], policy: str = DEFAULT_OVERLAP) -> list[Span]:
    try:
        resolver = OVERLAP_POLICIES[policy]
    except KeyError:
        raise ValueError(f"unknown overlap policy {policy!r}") from None
    return resolver(merge_duplicates(spans))
