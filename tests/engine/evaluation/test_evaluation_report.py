"""Bootstrap CIs, the JSON shape, the text table, speed, and no PHI in any output."""

from __future__ import annotations

import json
import random
import time

import pytest

from engine.core.errors import UsageError
from engine.core.labels import Label
from engine.evaluation import (
    GoldDocument,
    GoldSpan,
    PredictedSpan,
    Prediction,
    evaluate,
)
from engine.evaluation.bootstrap import bootstrap_ci, ratio

NAMES = ["Zorbamir", "Quillfeather", "Vantrosk", "Ebbleworth", "Marigoldine", "Thackeray"]
HEADLINE = {"token_precision", "token_recall", "token_f1", "token_recall_strict",
            "span_recall_exact", "span_recall_overlap", "span_recall_full", "leak_rate", "lr"}


def corpus(n: int, seed: int = 1) -> tuple[list[GoldDocument], dict[str, Prediction]]:
    """Synthetic notes: a name, a date and a phone number; the 'detector' misses some."""
    rng = random.Random(seed)
    gold, preds = [], {}
    filler = "Patient reviewed in clinic, vitals stable, plan discussed. " * 20
    for i in range(n):
        name = rng.choice(NAMES)
        date = f"{rng.randint(1, 28):02d}/{rng.randint(1, 12):02d}/20{rng.randint(10, 24)}"
        phone = f"555-{rng.randint(1000, 9999)}"
        text = f"{name} was seen on {date}. {filler}Call {phone} if worse."
        spans = []
        for value, label in ((name, Label.PATIENT), (date, Label.DATE), (phone, Label.PHONE)):
            s = text.index(value)
            spans.append(GoldSpan(s, s + len(value), label, label.value))
        doc_id = f"doc{i:04d}"
        gold.append(GoldDocument(doc_id, text, tuple(spans)))
        found = tuple(PredictedSpan(g.start, g.end, g.label) for g in spans
                      if rng.random() < 0.85)
        preds[doc_id] = Prediction(doc_id, found)
    return gold, preds


def test_bootstrap_contains_point_estimate_and_is_deterministic() -> None:
    gold, preds = corpus(200)
    a = evaluate(gold, preds, bootstrap=500, seed=7)
    b = evaluate(gold, preds, bootstrap=500, seed=7)
    c = evaluate(gold, preds, bootstrap=500, seed=8)
    assert a.ci == b.ci
    assert a.ci != c.ci
    head = a.to_dict()["headline"]
    assert set(head) == HEADLINE
    for name, m in head.items():
        lo, hi = m["ci95"]
        assert lo <= m["value"] <= hi, name
        assert hi - lo < 0.2, name


def test_bootstrap_by_hand_on_two_documents() -> None:
    # Two documents: recall 1/1 and 0/1. Resamples are {A,A} (1.0), {A,B} (0.5), {B,B} (0.0),
    # so every CI bound is one of those values and the interval spans them.
    counts = {"tp": [1, 0], "gold": [1, 1]}
    [(lo, hi)] = bootstrap_ci(counts, {"r": ratio("tp", "gold")}, rounds=2000, seed=0).values()
    assert (lo, hi) == (0.0, 1.0)
    assert bootstrap_ci(counts, {"r": ratio("tp", "gold")}, rounds=0, seed=0) == {"r": None}


def test_to_dict_is_json_and_keys_are_stable() -> None:
    gold, preds = corpus(20)
    d = evaluate(gold, preds, bootstrap=50).to_dict()
    json.dumps(d, allow_nan=False)
    assert set(d) == {"version", "config", "documents", "headline", "token", "span", "leak",
                      "levenshtein", "per_label", "per_raw_label"}
    assert set(d["levenshtein"]) == {"threshold", "scope", "entities", "mean_lsi", "alid",
                                     "lr", "lrdi", "lrqi", "direct_entities",
                                     "quasi_entities", "documents_with_direct"}
    assert set(d["per_label"]) == {"PATIENT", "DATE", "PHONE"}
    assert d["config"]["bootstrap"] == 50


def test_text_table_is_aligned_and_free_of_phi() -> None:
    gold, preds = corpus(30)
    report = evaluate(gold, preds, bootstrap=100)
    text = report.to_text()
    assert "Token recall (generous)" in text and "95% CI" in text and "LRDI" in text
    assert "PATIENT" in text
    dumped = json.dumps(report.to_dict())
    for doc in gold:
        for span in doc.spans:
            value = doc.text[span.start:span.end]
            assert value not in text and value not in dumped


def test_fast_enough_for_1500_documents() -> None:
    gold, preds = corpus(1500)
    # CPU seconds of this process, not wall time: a loaded CI machine stretches the wall
    # clock, not the work. Re-scoring per bootstrap round would take minutes.
    start = time.process_time()
    report = evaluate(gold, preds, bootstrap=1000, seed=0)
    elapsed = time.process_time() - start
    assert report.documents == 1500
    assert elapsed < 20, elapsed


def test_negative_bootstrap_rejected() -> None:
    with pytest.raises(UsageError):
        evaluate([], {}, bootstrap=-1)


def test_empty_corpus() -> None:
    d = evaluate([], {}, bootstrap=100).to_dict()
    assert d["documents"]["gold"] == 0
    assert d["headline"]["token_recall"] == {"value": None, "ci95": None}


def test_f1_ci_undefined_when_nothing_is_predicted() -> None:
    gold, _ = corpus(10)
    head = evaluate(gold, {}, bootstrap=100).to_dict()["headline"]
    assert head["token_f1"] == {"value": None, "ci95": None}
    assert head["token_recall"] == {"value": 0.0, "ci95": [0.0, 0.0]}
    assert head["leak_rate"]["value"] == 1.0
