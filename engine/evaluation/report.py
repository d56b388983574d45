"""The evaluation report: a readable table and a stable JSON shape.

``EvaluationReport.to_dict()`` keys (all scores are fractions in [0, 1]; ``null`` when the
denominator is zero; ALID is kept in [0, 1] where the paper multiplies by 100):

- ``version``: 1
- ``config``: ``ignore_labels``, ``phi_labels`` (null = every gold label), ``bootstrap``,
  ``seed``, ``confidence`` (0.95), ``lsi_threshold``, ``levenshtein_scope``
- ``documents``: ``gold``, ``with_phi``, ``missing_prediction``, ``extra_prediction``,
  ``missing_ids``, ``extra_prediction_ids``
- ``headline``: for each of ``token_precision``, ``token_recall``, ``token_f1`` (generous),
  ``token_recall_strict``, ``span_recall_exact``, ``span_recall_overlap``,
  ``span_recall_full``, ``leak_rate``, ``lr``: ``{"value", "ci95": [low, high] | null}``
- ``token``: ``gold_tokens``, ``pred_tokens``, and ``generous`` / ``strict``, each with
  ``precision``, ``recall``, ``f1``, ``tp``, ``fp``, ``fn``
- ``span``: ``gold_spans``, ``pred_spans``; ``exact`` and ``overlap`` with ``recall``,
  ``recall_label_matched``, ``precision``, ``precision_label_matched``; ``full_coverage``
  with ``recall``, ``recall_label_matched``
- ``leak``: ``rate``, ``leaked_documents``, ``documents_with_phi``, ``leaked_ids``
- ``levenshtein``: ``threshold``, ``scope``, ``entities``, ``mean_lsi``, ``alid``, ``lr``,
  ``lrdi``, ``lrqi``, ``direct_entities``, ``quasi_entities``, ``documents_with_direct``
- ``per_label`` (ClearNote labels) and ``per_raw_label`` (gold-schema labels): label ->
  ``gold_spans``, ``gold_tokens``, ``token_recall``, ``token_recall_strict``,
  ``span_recall_exact``, ``span_recall_overlap``, ``span_recall_full``,
  ``span_recall_exact_label_matched``, ``span_recall_overlap_label_matched``,
  ``span_recall_full_label_matched``, ``entities``, ``mean_lsi``, ``lr``; ``per_label`` also
  has ``pred_tokens`` and ``token_precision_strict``.

Only ids, labels, counts and scores appear: never document text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.evaluation.metrics import DocCounts, LabelCounts, f1, safe_div

CONFIDENCE = 0.95

_HEADLINE_NAMES: dict[str, str] = {
    "token_precision": "Token precision (generous)",
    "token_recall": "Token recall (generous)",
    "token_f1": "Token F1 (generous)",
    "token_recall_strict": "Token recall (strict)",
    "span_recall_exact": "Span recall (exact)",
    "span_recall_overlap": "Span recall (overlap)",
    "span_recall_full": "Span recall (full coverage)",
    "leak_rate": "Document leak rate",
    "lr": "Levenshtein recall LR",
}


@dataclass(frozen=True, slots=True)
class EvaluationConfig:
    ignore_labels: tuple[str, ...]
    phi_labels: tuple[str, ...] | None
    bootstrap: int
    seed: int
    threshold: float
    levenshtein_scope: str


@dataclass(frozen=True, slots=True)
class EvaluationReport:
    config: EvaluationConfig
    documents: int
    totals: DocCounts
    per_label: tuple[tuple[str, LabelCounts], ...]
    per_raw_label: tuple[tuple[str, LabelCounts], ...]
    ci: tuple[tuple[str, tuple[float, float] | None], ...]
    missing_ids: tuple[str, ...]
    leaked_ids: tuple[str, ...]
    extra_prediction_ids: tuple[str, ...]

    # ---- point estimates
    def headline(self) -> dict[str, float | None]:
        t = self.totals
        precision = safe_div(t.tp_tokens, t.pred_tokens)
        recall = safe_div(t.tp_tokens, t.gold_tokens)
        return {
            "token_precision": precision,
            "token_recall": recall,
            "token_f1": f1(precision, recall),
            "token_recall_strict": safe_div(t.tp_tokens_strict, t.gold_tokens),
            "span_recall_exact": safe_div(t.exact_gold, t.gold_spans),
            "span_recall_overlap": safe_div(t.overlap_gold, t.gold_spans),
            "span_recall_full": safe_div(t.full_gold, t.gold_spans),
            "leak_rate": safe_div(t.leaked, t.has_phi),
            "lr": safe_div(t.protected, t.entities),
        }

    def to_dict(self) -> dict[str, Any]:
        t = self.totals
        cis = dict(self.ci)
        return {
            "version": 1,
            "config": {
                "ignore_labels": list(self.config.ignore_labels),
                "phi_labels": None if self.config.phi_labels is None
                else list(self.config.phi_labels),
                "bootstrap": self.config.bootstrap, "seed": self.config.seed,
                "confidence": CONFIDENCE, "lsi_threshold": self.config.threshold,
                "levenshtein_scope": self.config.levenshtein_scope,
            },
            "documents": {
                "gold": self.documents, "with_phi": t.has_phi,
                "missing_prediction": len(self.missing_ids),
                "extra_prediction": len(self.extra_prediction_ids),
                "missing_ids": list(self.missing_ids),
                "extra_prediction_ids": list(self.extra_prediction_ids),
            },
            "headline": {
                name: {"value": value,
                       "ci95": list(ci) if (ci := cis.get(name)) is not None else None}
                for name, value in self.headline().items()
            },
            "token": {
                "gold_tokens": t.gold_tokens, "pred_tokens": t.pred_tokens,
                "generous": _prf(t.tp_tokens, t.pred_tokens, t.gold_tokens),
                "strict": _prf(t.tp_tokens_strict, t.pred_tokens, t.gold_tokens),
            },
            "span": {
                "gold_spans": t.gold_spans, "pred_spans": t.pred_spans,
                "exact": {
                    "recall": safe_div(t.exact_gold, t.gold_spans),
                    "recall_label_matched": safe_div(t.exact_gold_lab, t.gold_spans),
                    "precision": safe_div(t.exact_pred, t.pred_spans),
                    "precision_label_matched": safe_div(t.exact_pred_lab, t.pred_spans),
                },
                "overlap": {
                    "recall": safe_div(t.overlap_gold, t.gold_spans),
                    "recall_label_matched": safe_div(t.overlap_gold_lab, t.gold_spans),
                    "precision": safe_div(t.overlap_pred, t.pred_spans),
                    "precision_label_matched": safe_div(t.overlap_pred_lab, t.pred_spans),
                },
                "full_coverage": {
                    "recall": safe_div(t.full_gold, t.gold_spans),
                    "recall_label_matched": safe_div(t.full_gold_lab, t.gold_spans),
                },
            },
            "leak": {
                "rate": safe_div(t.leaked, t.has_phi), "leaked_documents": t.leaked,
                "documents_with_phi": t.has_phi, "leaked_ids": list(self.leaked_ids),
            },
            "levenshtein": self.levenshtein(),
            "per_label": {k: _label_row(c, with_precision=True) for k, c in self.per_label},
            "per_raw_label": {k: _label_row(c, with_precision=False)
                              for k, c in self.per_raw_label},
        }

    def levenshtein(self) -> dict[str, Any]:
        t = self.totals
        mean = _mean_lsi(self.per_label)
        return {
            "threshold": self.config.threshold, "scope": self.config.levenshtein_scope,
            "entities": t.entities, "mean_lsi": mean,
            "alid": None if mean is None else 1.0 - mean,
            "lr": safe_div(t.protected, t.entities),
            "lrdi": safe_div(t.lrdi_pass, t.has_direct),
            "lrqi": safe_div(t.quasi_protected, t.quasi),
            "direct_entities": t.direct, "quasi_entities": t.quasi,
            "documents_with_direct": t.has_direct,
        }

    # ---- text
    def to_text(self) -> str:
        t = self.totals
        cis = dict(self.ci)
        lines = [
            f"ClearNote evaluation: {self.documents} documents, {t.has_phi} with PHI, "
            f"{len(self.missing_ids)} without prediction, "
            f"{len(self.extra_prediction_ids)} predictions without gold",
            f"gold spans {t.gold_spans}, predicted spans {t.pred_spans}; gold tokens "
            f"{t.gold_tokens}, predicted tokens {t.pred_tokens}",
        ]
        if self.config.ignore_labels:
            lines.append("ignored labels: " + ", ".join(self.config.ignore_labels))
        if self.config.phi_labels is not None:
            lines.append("PHI labels: " + ", ".join(self.config.phi_labels))
        lines.append("")
        ci_head = f"{int(CONFIDENCE * 100)}% CI ({self.config.bootstrap} bootstrap rounds)"
        rows = [["Metric", "Value", ci_head]]
        for name, value in self.headline().items():
            ci = cis.get(name)
            rows.append([_HEADLINE_NAMES[name], _f(value),
                         "-" if ci is None else f"[{ci[0]:.3f}, {ci[1]:.3f}]"])
        lines += _table(rows, right={1})

        lines.append("")
        d = self.to_dict()
        rows = [["Token", "Precision", "Recall", "F1", "TP", "FP", "FN"]]
        for kind in ("generous", "strict"):
            m = d["token"][kind]
            rows.append([kind, _f(m["precision"]), _f(m["recall"]), _f(m["f1"]),
                         str(m["tp"]), str(m["fp"]), str(m["fn"])])
        lines += _table(rows, right=set(range(1, 7)))

        lines.append("")
        rows = [["Span", "Recall", "Recall (label)", "Precision", "Precision (label)"]]
        for kind, title in (("exact", "exact"), ("overlap", "overlap"),
                            ("full_coverage", "full coverage")):
            m = d["span"][kind]
            rows.append([title, _f(m["recall"]), _f(m["recall_label_matched"]),
                         _f(m.get("precision")), _f(m.get("precision_label_matched"))])
        lines += _table(rows, right={1, 2, 3, 4})

        lev = d["levenshtein"]
        lines += [
            "",
            f"Levenshtein (Pissarra et al., threshold {lev['threshold']:.2f}, "
            f"{lev['scope']} scope, {lev['entities']} entities): ALID {_f(lev['alid'])}  "
            f"LR {_f(lev['lr'])}  LRDI {_f(lev['lrdi'])} ({lev['documents_with_direct']} docs)  "
            f"LRQI {_f(lev['lrqi'])}",
            f"Document leak rate {_f(d['leak']['rate'])}: {t.leaked} of {t.has_phi} documents "
            "with PHI keep at least one gold token",
        ]
        for title, table in (("Per label", d["per_label"]),
                             ("Per gold label", d["per_raw_label"])):
            if not table:
                continue
            lines.append("")
            rows = [[title, "Spans", "Tokens", "Tok R", "Tok R strict", "Span R exact",
                     "Span R overlap", "Span R full", "LR"]]
            for key, m in table.items():
                rows.append([key, str(m["gold_spans"]), str(m["gold_tokens"]),
                             _f(m["token_recall"]), _f(m["token_recall_strict"]),
                             _f(m["span_recall_exact"]), _f(m["span_recall_overlap"]),
                             _f(m["span_recall_full"]), _f(m["lr"])])
            lines += _table(rows, right=set(range(1, 9)))
        return "\n".join(lines) + "\n"


def _prf(tp: int, pred: int, gold: int) -> dict[str, Any]:
    precision, recall = safe_div(tp, pred), safe_div(tp, gold)
    return {"precision": precision, "recall": recall, "f1": f1(precision, recall),
            "tp": tp, "fp": pred - tp, "fn": gold - tp}


def _label_row(c: LabelCounts, *, with_precision: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "gold_spans": c.gold_spans, "gold_tokens": c.gold_tokens,
        "token_recall": safe_div(c.tokens_found, c.gold_tokens),
        "token_recall_strict": safe_div(c.tokens_found_strict, c.gold_tokens),
        "span_recall_exact": safe_div(c.spans_exact, c.gold_spans),
        "span_recall_overlap": safe_div(c.spans_overlap, c.gold_spans),
        "span_recall_full": safe_div(c.spans_full, c.gold_spans),
        "span_recall_exact_label_matched": safe_div(c.spans_exact_lab, c.gold_spans),
        "span_recall_overlap_label_matched": safe_div(c.spans_overlap_lab, c.gold_spans),
        "span_recall_full_label_matched": safe_div(c.spans_full_lab, c.gold_spans),
        "entities": c.entities, "mean_lsi": safe_div(c.lsi_sum, c.entities),
        "lr": safe_div(c.protected, c.entities),
    }
    if with_precision:
        row["pred_tokens"] = c.pred_tokens
        row["token_precision_strict"] = safe_div(c.pred_tokens_correct, c.pred_tokens)
    return row


def _mean_lsi(per_label: tuple[tuple[str, LabelCounts], ...]) -> float | None:
    total = sum(c.lsi_sum for _, c in per_label)
    n = sum(c.entities for _, c in per_label)
    return total / n if n else None


def _f(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _table(rows: list[list[str]], *, right: set[int]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for n, row in enumerate(rows):
        cells = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(row, widths, strict=True))]
        out.append("  ".join(cells).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return out
