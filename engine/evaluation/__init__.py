"""Evaluation toolkit: token / span / Levenshtein metrics, bootstrap CIs, reports.

Public API::

    from engine.evaluation import load_gold, load_predictions, evaluate
    report = evaluate(load_gold("gold.jsonl"), load_predictions("pred.jsonl"))
    print(report.to_text()); json.dumps(report.to_dict())

See metrics.py for the metric definitions and report.py for the JSON keys.
"""

from __future__ import annotations

from engine.evaluation.io import (
    GoldDocument,
    GoldSpan,
    PredictedSpan,
    Prediction,
    load_gold,
    load_predictions,
    parse_prediction,
)
from engine.evaluation.levenshtein import DIRECT_IDENTIFIERS, QUASI_IDENTIFIERS
from engine.evaluation.report import EvaluationConfig, EvaluationReport
from engine.evaluation.runner import evaluate

__all__ = [
    "DIRECT_IDENTIFIERS",
    "EvaluationConfig",
    "EvaluationReport",
    "GoldDocument",
    "GoldSpan",
    "PredictedSpan",
    "Prediction",
    "QUASI_IDENTIFIERS",
    "evaluate",
    "load_gold",
    "load_predictions",
    "parse_prediction",
]
