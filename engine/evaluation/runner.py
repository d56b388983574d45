"""``evaluate``: score predictions against gold annotations, with bootstrap CIs."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from functools import reduce
from operator import add

from engine.core.errors import InputError, UsageError
from engine.core.labels import Label, map_label
from engine.evaluation.bootstrap import Metric, bootstrap_ci, f1_metric, ratio
from engine.evaluation.io import GoldDocument, Prediction
from engine.evaluation.levenshtein import DEFAULT_THRESHOLD, Scope, document_lsis, tagged_text
from engine.evaluation.metrics import (
    COUNT_FIELDS,
    DocCounts,
    DocumentResult,
    LabelCounts,
    count_document,
)
from engine.evaluation.report import EvaluationConfig, EvaluationReport

# Headline metrics that get bootstrap CIs, as functions of summed counts.
HEADLINE_METRICS: dict[str, Metric] = {
    "token_precision": ratio("tp_tokens", "pred_tokens"),
    "token_recall": ratio("tp_tokens", "gold_tokens"),
    "token_f1": f1_metric("tp_tokens", "pred_tokens", "gold_tokens"),
    "token_recall_strict": ratio("tp_tokens_strict", "gold_tokens"),
    "span_recall_exact": ratio("exact_gold", "gold_spans"),
    "span_recall_overlap": ratio("overlap_gold", "gold_spans"),
    "span_recall_full": ratio("full_gold", "gold_spans"),
    "leak_rate": ratio("leaked", "has_phi"),
    "lr": ratio("protected", "entities"),
}


def evaluate(gold: Sequence[GoldDocument], predictions: Mapping[str, Prediction], *,
             ignore_labels: Collection[str] = (),
             phi_labels: Collection[Label | str] | None = None,
             bootstrap: int = 1000, seed: int = 0, threshold: float = DEFAULT_THRESHOLD,
             levenshtein_scope: Scope = "sentence") -> EvaluationReport:
    """Score ``predictions`` against ``gold``; a gold id without a prediction predicts nothing.

    ``ignore_labels`` (ClearNote or raw schema labels) are taken out of both sides: their gold
    spans become don't-care text and predictions carrying them are dropped. ``phi_labels``
    (a policy's PHI labels) filters gold only: what was predicted was removed, whatever its
    label.
    """
    if bootstrap < 0:
        raise UsageError("bootstrap rounds must be >= 0")
    if levenshtein_scope not in ("sentence", "document"):
        raise UsageError(f"unknown Levenshtein scope {levenshtein_scope!r}")
    ignore = _check_ignore(ignore_labels)
    phi = _check_phi(phi_labels)

    def kept(label: Label, raw: str) -> bool:
        return (label.value not in ignore and raw not in ignore
                and (phi is None or label in phi))

    results: list[DocumentResult] = []
    for doc in gold:
        pred = predictions.get(doc.id)
        pred_all = [] if pred is None else [(p.start, p.end, p.label) for p in pred.spans]
        for s, e, _ in pred_all:
            if e > len(doc.text):
                raise InputError(None, f"prediction for document {doc.id!r}: span [{s}, {e}) "
                                       f"outside text of length {len(doc.text)}")
        gold_ranges = [(g.start, g.end, g.label, g.raw_label) for g in doc.spans
                       if kept(g.label, g.raw_label)]
        dont_care = [(g.start, g.end) for g in doc.spans if not kept(g.label, g.raw_label)]
        preds = [p for p in pred_all if p[2].value not in ignore]
        if pred is None:
            anonymised = doc.text  # nothing was de-identified
        elif pred.text is not None:
            anonymised = pred.text
        else:
            anonymised = tagged_text(doc.text, pred_all)
        lsis = document_lsis(doc.text, anonymised, [(s, e, lab) for s, e, lab, _ in gold_ranges],
                             scope=levenshtein_scope)
        results.append(count_document(doc.id, doc.text, gold_ranges, dont_care, preds, lsis,
                                      threshold=threshold, missing=pred is None))

    totals = reduce(add, (r.counts for r in results), DocCounts())
    arrays = {name: [getattr(r.counts, name) for r in results] for name in COUNT_FIELDS}
    cis = bootstrap_ci(arrays, HEADLINE_METRICS, rounds=bootstrap, seed=seed)
    gold_ids = {doc.id for doc in gold}
    config = EvaluationConfig(
        ignore_labels=tuple(sorted(ignore)),
        phi_labels=None if phi is None else tuple(sorted(lab.value for lab in phi)),
        bootstrap=bootstrap, seed=seed, threshold=threshold, levenshtein_scope=levenshtein_scope,
    )
    return EvaluationReport(
        config=config,
        documents=len(results),
        totals=totals,
        per_label=_sum_labels(r.per_label for r in results),
        per_raw_label=_sum_labels(r.per_raw_label for r in results),
        ci=tuple(cis.items()),
        missing_ids=tuple(r.id for r in results if r.counts.missing_prediction),
        leaked_ids=tuple(r.id for r in results if r.counts.leaked),
        extra_prediction_ids=tuple(sorted(set(predictions) - gold_ids)),
    )


def _check_ignore(labels: Collection[str]) -> frozenset[str]:
    """Accept ClearNote or raw schema labels; a typo must not silently ignore nothing."""
    out: set[str] = set()
    for raw in labels:
        name = raw.strip()
        try:
            map_label(name)
        except ValueError:
            try:
                map_label(name.upper())
            except ValueError as exc:
                raise UsageError(f"unknown label to ignore: {raw!r}") from exc
            name = name.upper()
        out.add(name)
    return frozenset(out)


def _check_phi(labels: Collection[Label | str] | None) -> frozenset[Label] | None:
    if labels is None:
        return None
    try:
        return frozenset(Label(lab) for lab in labels)
    except ValueError as exc:
        raise UsageError(f"unknown PHI label in {sorted(map(str, labels))}") from exc


def _sum_labels(tables: Iterable[tuple[tuple[str, LabelCounts], ...]],
                ) -> tuple[tuple[str, LabelCounts], ...]:
    sums: dict[str, LabelCounts] = {}
    for table in tables:
        for key, counts in table:
            sums[key] = sums[key] + counts if key in sums else counts
    return tuple(sorted(sums.items()))
