"""Per-document counts for token-, span- and Levenshtein-level scores.

Everything a score needs is reduced to integer counts per document first, so corpus scores
are sums and the bootstrap only resamples count arrays (see bootstrap.py).

Definitions (tokens from tokens.py; gold = kept gold spans; "don't care" = gold spans whose
label is ignored or outside the policy's PHI labels):

- A token is *gold* if any gold span touches it, *predicted* if any predicted span does.
  Generous: a gold token is found if any prediction touches it, whatever its label.
  Strict: a prediction with one of the token's gold labels must touch it.
  Predicted tokens that are don't-care and not gold count neither way.
- Spans: *exact* = same start and end; *overlap* = at least one shared character;
  *full coverage* = every non-whitespace character of the gold span lies in the union of the
  predictions. "_lab" variants only use predictions with the gold span's label. Span
  precision uses predicted spans that touch gold, or touch no don't-care text.
- A document *leaks* if at least one of its gold tokens is not found (generous).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from engine.core.labels import Label
from engine.evaluation.levenshtein import EntityScore, is_direct
from engine.evaluation.tokens import coverage, covers_content, tokenize, touches


@dataclass(frozen=True, slots=True)
class DocCounts:
    """Corpus-additive counts for one document (or, summed, for a corpus)."""

    gold_tokens: int = 0
    pred_tokens: int = 0
    tp_tokens: int = 0  # gold tokens touched by any prediction (generous)
    tp_tokens_strict: int = 0  # gold tokens touched by a prediction of a matching label
    gold_spans: int = 0
    pred_spans: int = 0
    exact_gold: int = 0
    exact_gold_lab: int = 0
    overlap_gold: int = 0
    overlap_gold_lab: int = 0
    full_gold: int = 0
    full_gold_lab: int = 0
    exact_pred: int = 0
    exact_pred_lab: int = 0
    overlap_pred: int = 0
    overlap_pred_lab: int = 0
    has_phi: int = 0  # at least one gold token
    leaked: int = 0  # at least one gold token not found
    entities: int = 0  # Levenshtein: gold entities scored
    protected: int = 0  # entities with LSI < threshold
    direct: int = 0
    direct_protected: int = 0
    quasi: int = 0
    quasi_protected: int = 0
    has_direct: int = 0
    lrdi_pass: int = 0  # has direct identifiers and every one has LSI < threshold
    missing_prediction: int = 0

    def __add__(self, other: DocCounts) -> DocCounts:
        return DocCounts(*(getattr(self, f.name) + getattr(other, f.name)
                           for f in fields(self)))


COUNT_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(DocCounts))


@dataclass(frozen=True, slots=True)
class LabelCounts:
    """Counts for one label (a ClearNote label or a raw gold-schema label)."""

    gold_tokens: int = 0
    tokens_found: int = 0
    tokens_found_strict: int = 0
    pred_tokens: int = 0  # only for ClearNote labels: tokens predicted with this label
    pred_tokens_correct: int = 0  # ... that carry this gold label
    gold_spans: int = 0
    spans_exact: int = 0
    spans_overlap: int = 0
    spans_full: int = 0
    spans_exact_lab: int = 0
    spans_overlap_lab: int = 0
    spans_full_lab: int = 0
    entities: int = 0
    protected: int = 0
    lsi_sum: float = 0.0

    def __add__(self, other: LabelCounts) -> LabelCounts:
        return LabelCounts(*(getattr(self, f.name) + getattr(other, f.name)
                             for f in fields(self)))


@dataclass(frozen=True, slots=True)
class DocumentResult:
    id: str
    counts: DocCounts
    per_label: tuple[tuple[str, LabelCounts], ...]
    per_raw_label: tuple[tuple[str, LabelCounts], ...]
    lsi: tuple[EntityScore, ...]


K = TypeVar("K")

# (start, end, label, raw label)
GoldRange = tuple[int, int, Label, str]
PredRange = tuple[int, int, Label]


def count_document(doc_id: str, text: str, gold: Sequence[GoldRange],
                   dont_care: Sequence[tuple[int, int]], preds: Sequence[PredRange],
                   lsis: Sequence[EntityScore], *, threshold: float,
                   missing: bool = False) -> DocumentResult:
    """Reduce one document's gold, don't-care and predicted ranges to counts."""
    n = len(text)
    gold_any = coverage(n, ((s, e) for s, e, _, _ in gold))
    pred_any = coverage(n, ((s, e) for s, e, _ in preds))
    ignored = coverage(n, dont_care)
    gold_by_label = _by_key(n, ((s, e, lab) for s, e, lab, _ in gold))
    gold_by_raw = _by_key(n, ((s, e, raw) for s, e, _, raw in gold))
    pred_by_label = _by_key(n, preds)
    raw_to_label = {raw: lab for _, _, lab, raw in gold}

    per_label: dict[str, dict[str, float]] = {}
    per_raw: dict[str, dict[str, float]] = {}

    def bump(table: dict[str, dict[str, float]], key: str, name: str, by: float = 1) -> None:
        row = table.setdefault(key, {})
        row[name] = row.get(name, 0) + by

    # --- tokens
    gold_tokens = pred_tokens = tp = tp_strict = 0
    for s, e in tokenize(text):
        is_gold = touches(gold_any, s, e)
        is_pred = touches(pred_any, s, e)
        if not is_gold and not is_pred:
            continue
        plabels = {lab for lab, cov in pred_by_label.items() if touches(cov, s, e)}
        if not is_gold:
            if not touches(ignored, s, e):
                pred_tokens += 1
                for lab in plabels:
                    bump(per_label, lab.value, "pred_tokens")
            continue
        glabels = {lab for lab, cov in gold_by_label.items() if touches(cov, s, e)}
        gold_tokens += 1
        strict = bool(glabels & plabels)
        if is_pred:
            pred_tokens += 1
            tp += 1
            tp_strict += strict
        for lab in glabels:
            bump(per_label, lab.value, "gold_tokens")
            bump(per_label, lab.value, "tokens_found", is_pred)
            bump(per_label, lab.value, "tokens_found_strict", lab in plabels)
        for lab in plabels:
            bump(per_label, lab.value, "pred_tokens")
            bump(per_label, lab.value, "pred_tokens_correct", lab in glabels)
        for raw, cov in gold_by_raw.items():
            if touches(cov, s, e):
                bump(per_raw, raw, "gold_tokens")
                bump(per_raw, raw, "tokens_found", is_pred)
                bump(per_raw, raw, "tokens_found_strict", raw_to_label[raw] in plabels)

    # --- gold spans (recall side)
    pred_ranges = {(s, e) for s, e, _ in preds}
    pred_exact_lab = set(preds)
    empty = bytearray(n)
    sc = dict.fromkeys(("exact", "exact_lab", "overlap", "overlap_lab", "full", "full_lab"), 0)
    for s, e, lab, raw in gold:
        lab_cov = pred_by_label.get(lab, empty)
        hit = {
            "exact": (s, e) in pred_ranges,
            "exact_lab": (s, e, lab) in pred_exact_lab,
            "overlap": touches(pred_any, s, e),
            "overlap_lab": touches(lab_cov, s, e),
            "full": covers_content(pred_any, text, s, e),
            "full_lab": covers_content(lab_cov, text, s, e),
        }
        for table, key in ((per_label, lab.value), (per_raw, raw)):
            bump(table, key, "gold_spans")
            for name, ok in hit.items():
                bump(table, key, f"spans_{name}", ok)
        for name, ok in hit.items():
            sc[name] += ok

    # --- predicted spans (precision side)
    gold_ranges = {(s, e) for s, e, _, _ in gold}
    gold_exact_lab = {(s, e, lab) for s, e, lab, _ in gold}
    pred_spans = exact_pred = exact_pred_lab = overlap_pred = overlap_pred_lab = 0
    for s, e, lab in preds:
        on_gold = touches(gold_any, s, e)
        if not on_gold and touches(ignored, s, e):
            continue  # lands on don't-care text only: neither right nor wrong
        pred_spans += 1
        exact_pred += (s, e) in gold_ranges
        exact_pred_lab += (s, e, lab) in gold_exact_lab
        overlap_pred += on_gold
        overlap_pred_lab += touches(gold_by_label.get(lab, empty), s, e)

    # --- Levenshtein
    lev = dict.fromkeys(("protected", "direct", "direct_protected", "quasi",
                         "quasi_protected"), 0)
    raw_of = [raw for _, _, _, raw in gold]
    for i, score in enumerate(lsis):
        ok = score.lsi < threshold
        lev["protected"] += ok
        kind = "direct" if is_direct(score.label) else "quasi"
        lev[kind] += 1
        lev[f"{kind}_protected"] += ok
        keys = [(per_label, score.label.value)]
        if i < len(raw_of):  # lsis are in gold order
            keys.append((per_raw, raw_of[i]))
        for table, key in keys:
            bump(table, key, "entities")
            bump(table, key, "protected", ok)
            bump(table, key, "lsi_sum", score.lsi)

    counts = DocCounts(
        gold_tokens=gold_tokens, pred_tokens=pred_tokens, tp_tokens=tp,
        tp_tokens_strict=tp_strict, gold_spans=len(gold), pred_spans=pred_spans,
        exact_gold=sc["exact"], exact_gold_lab=sc["exact_lab"], overlap_gold=sc["overlap"],
        overlap_gold_lab=sc["overlap_lab"], full_gold=sc["full"], full_gold_lab=sc["full_lab"],
        exact_pred=exact_pred, exact_pred_lab=exact_pred_lab, overlap_pred=overlap_pred,
        overlap_pred_lab=overlap_pred_lab, has_phi=int(gold_tokens > 0),
        leaked=int(tp < gold_tokens), entities=len(lsis), protected=lev["protected"],
        direct=lev["direct"], direct_protected=lev["direct_protected"], quasi=lev["quasi"],
        quasi_protected=lev["quasi_protected"], has_direct=int(lev["direct"] > 0),
        lrdi_pass=int(lev["direct"] > 0 and lev["direct_protected"] == lev["direct"]),
        missing_prediction=int(missing),
    )
    return DocumentResult(doc_id, counts, _freeze(per_label), _freeze(per_raw), tuple(lsis))


def _by_key(n: int, ranges: Iterable[tuple[int, int, K]]) -> dict[K, bytearray]:
    grouped: dict[K, list[tuple[int, int]]] = {}
    for s, e, key in ranges:
        grouped.setdefault(key, []).append((s, e))
    return {key: coverage(n, rs) for key, rs in grouped.items()}


def _freeze(table: dict[str, dict[str, float]]) -> tuple[tuple[str, LabelCounts], ...]:
    out = []
    for key in sorted(table):
        row: dict[str, Any] = {k: (v if k == "lsi_sum" else int(v))
                               for k, v in table[key].items()}
        out.append((key, LabelCounts(**row)))
    return tuple(out)


def safe_div(num: float, den: float) -> float | None:
    """``num / den``, or None when the denominator is zero (undefined, not zero)."""
    return num / den if den else None


def f1(precision: float | None, recall: float | None) -> float | None:
    if precision is None or recall is None:
        return None
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0
