"""Levenshtein-based privacy metrics of Pissarra et al. (papers/003), method-agnostic.

For each gold entity ``se`` (length ``e``) of the original note ON, a window of length ``e``
slides over the anonymised note AN one character at a time; the Levenshtein Similarity Index
is the best ratio ``LRa(se, w) = 1 - LD(se, w) / max(|se|, |w|)`` over those windows.

- ALID   = 1 - mean(LSI) over all entities (the paper multiplies by 100; we keep [0, 1]).
- LR@t   = fraction of entities with LSI < t (t = 0.85): entities considered de-identified.
- LRDI@t = per document, 1 if *every* direct identifier has LSI < t else 0 (all or nothing),
  averaged over documents that contain direct identifiers.
- LRQI@t = LR restricted to quasi-identifiers.

Scope ("sentence", the paper's default): the ON sentence holding the entity is matched to the
most similar AN sentence and the window slides only there, so "Tim" does not match "time" in
an unrelated sentence. The AN region grows by neighbouring segments when the entity's ON
context spans several segments (an address over three lines) or is longer than the matched
AN sentence (a replacement can add a boundary, e.g. a surrogate containing "St. ").
"document" slides over the whole of AN. Comparison is case-insensitive: "SMITH" left in the
output is still a leak of "Smith".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from engine.core.labels import Label

Scope = Literal["sentence", "document"]

DEFAULT_THRESHOLD = 0.85

# Conservative split (as the paper's NAME/CONTACT/ID/EMAIL): anything that alone can
# identify a person is direct; WEB includes URLs and IPs, which we also treat as direct.
DIRECT_IDENTIFIERS: frozenset[Label] = frozenset(
    {Label.PATIENT, Label.DOCTOR, Label.PERSON, Label.ID, Label.PHONE, Label.WEB}
)
QUASI_IDENTIFIERS: frozenset[Label] = frozenset(
    {Label.AGE, Label.DATE, Label.LOCATION, Label.HOSPITAL, Label.OTHER}
)

_SENTENCE_END = re.compile(r"[.!?]+(?=\s)|\n")


def is_direct(label: Label) -> bool:
    return label in DIRECT_IDENTIFIERS


def levenshtein_ratio(a: str, b: str) -> float:
    """LRa of the paper: ``1 - LD(a, b) / max(|a|, |b|)`` (1.0 for two empty strings)."""
    return float(Levenshtein.normalized_similarity(a, b))


def sliding_lsi(entity: str, region: str) -> float:
    """Maximum LRa between ``entity`` and every ``len(entity)`` window of ``region``."""
    e = len(entity)
    if e == 0:
        return 0.0
    if len(region) <= e:  # one window: the whole region
        return levenshtein_ratio(entity, region)
    windows = [region[j:j + e] for j in range(len(region) - e + 1)]
    best = process.extractOne(entity, windows, scorer=Levenshtein.normalized_similarity)
    return float(best[1]) if best is not None else 0.0


def sentences(text: str) -> list[tuple[int, int]]:
    """Contiguous ``[start, end)`` segments covering ``text``, cut after ., !, ? or newline."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.end() > start:
            bounds.append((start, m.end()))
            start = m.end()
    if start < len(text) or not bounds:
        bounds.append((start, len(text)))
    return bounds


@dataclass(frozen=True, slots=True)
class EntityScore:
    label: Label
    lsi: float


def document_lsis(original: str, anonymised: str, entities: Sequence[tuple[int, int, Label]],
                  *, scope: Scope = "sentence") -> list[EntityScore]:
    """LSI of every gold entity ``(start, end, label)`` of ``original`` against ``anonymised``."""
    if not entities:
        return []
    an_low = anonymised.lower()
    if scope == "document":
        return [EntityScore(label, sliding_lsi(original[s:e].lower(), an_low))
                for s, e, label in entities]
    on_sents = sentences(original)
    an_sents = sentences(anonymised)
    an_texts = [an_low[a:b] for a, b in an_sents]
    starts = [a for a, _ in on_sents]
    regions: dict[tuple[int, int], str] = {}  # ON sentence range -> AN search region
    scores: list[EntityScore] = []
    for s, e, label in entities:
        first = _index_of(starts, s)
        last = _index_of(starts, e - 1)
        key = (first, last)
        region = regions.get(key)
        if region is None:
            on_ctx = original[on_sents[first][0]:on_sents[last][1]].lower()
            best = process.extractOne(on_ctx, an_texts, scorer=Levenshtein.normalized_similarity)
            i = best[2] if best is not None else 0
            lo, hi = _grow(an_sents, i, spread=last - first, need=len(on_ctx))
            region = an_low[an_sents[lo][0]:an_sents[hi][1]]
            regions[key] = region
        scores.append(EntityScore(label, sliding_lsi(original[s:e].lower(), region)))
    return scores


def _grow(segs: list[tuple[int, int]], i: int, *, spread: int, need: int) -> tuple[int, int]:
    """Widen segment ``i`` by ``spread`` neighbours a side, then until ``need`` characters."""
    lo, hi = max(i - spread, 0), min(i + spread, len(segs) - 1)
    while segs[hi][1] - segs[lo][0] < need and (lo > 0 or hi < len(segs) - 1):
        lo, hi = max(lo - 1, 0), min(hi + 1, len(segs) - 1)
    return lo, hi


def _index_of(starts: list[int], pos: int) -> int:
    """Index of the segment containing ``pos`` (segments are contiguous from 0)."""
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= pos:
            lo = mid
        else:
            hi = mid - 1
    return lo


def tagged_text(text: str, spans: Sequence[tuple[int, int, Label]]) -> str:
    """Anonymised text built by replacing each (merged) predicted span with ``[LABEL]``."""
    out: list[str] = []
    pos = 0
    for s, e, label in sorted(spans, key=lambda t: (t[0], -t[1])):
        if e <= pos:
            continue  # nested in the previous replacement
        if s < pos:  # overlaps the previous replacement: extend it silently
            pos = e
            continue
        out.append(text[pos:s])
        out.append(f"[{label.value}]")
        pos = e
    out.append(text[pos:])
    return "".join(out)
