"""Token, span, leak and per-label metrics against hand-computed examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.errors import InputError, UsageError
from engine.core.labels import Label
from engine.evaluation import GoldDocument, Prediction, evaluate, load_gold
from engine.evaluation.tokens import tokenize
from tests.engine.evaluation.evaluation_helpers import find, gold_doc, pred

TEXT = "John Smith saw Dr Lee on 12/03/2020 at 555-1234."
# Tokens: John Smith saw Dr Lee on 12 / 03 / 2020 at 555 - 1234 .  (16)
GOLD = gold_doc("d1", TEXT, [("John Smith", "PATIENT"), ("Lee", "DOCTOR"),
                             ("12/03/2020", "DATE"), ("555-1234", "PHONE")])
# Gold tokens: John Smith | Lee | 12 / 03 / 2020 | 555 - 1234  -> 2 + 1 + 5 + 3 = 11
PRED = pred("d1", TEXT, [("John", Label.PATIENT), ("Smith", Label.DOCTOR),
                         ("Dr Lee", Label.DOCTOR), ("12/03/2020", Label.DATE),
                         ("saw", Label.PERSON)])
# Predicted tokens: John Smith saw Dr Lee 12 / 03 / 2020 -> 10


def run(gold: list[GoldDocument], preds: dict[str, Prediction], **kw: object) -> dict:
    kw.setdefault("bootstrap", 0)
    return evaluate(gold, preds, **kw).to_dict()  # type: ignore[arg-type]


def test_tokenizer_words_and_single_punctuation() -> None:
    text = "Dr. O'Neil, 12/03"
    assert [text[s:e] for s, e in tokenize(text)] == \
        ["Dr", ".", "O", "'", "Neil", ",", "12", "/", "03"]


def test_token_metrics_generous_and_strict() -> None:
    d = run([GOLD], {"d1": PRED})
    gen, strict = d["token"]["generous"], d["token"]["strict"]
    # Generous: gold tokens touched by any prediction: John Smith Lee + 5 date tokens = 8.
    # Phone (3 tokens) missed. Predicted tokens 10, of which "saw" and "Dr" are not gold.
    assert (gen["tp"], gen["fp"], gen["fn"]) == (8, 2, 3)
    assert gen["precision"] == pytest.approx(8 / 10)
    assert gen["recall"] == pytest.approx(8 / 11)
    # F1 = 2PR/(P+R) = 2*(8/10)(8/11) / (8/10 + 8/11) = (128/110) / (168/110) = 16/21
    assert gen["f1"] == pytest.approx(16 / 21)
    # Strict: "Smith" is gold PATIENT but predicted DOCTOR -> 8 - 1 = 7 matching tokens.
    assert (strict["tp"], strict["fp"], strict["fn"]) == (7, 3, 4)
    assert strict["recall"] == pytest.approx(7 / 11)
    assert strict["precision"] == pytest.approx(7 / 10)


def test_span_metrics() -> None:
    s = run([GOLD], {"d1": PRED})["span"]
    assert (s["gold_spans"], s["pred_spans"]) == (4, 5)
    # Exact: only the date has identical offsets -> 1/4 recall; 1/5 predictions exact.
    assert s["exact"]["recall"] == pytest.approx(1 / 4)
    assert s["exact"]["recall_label_matched"] == pytest.approx(1 / 4)
    assert s["exact"]["precision"] == pytest.approx(1 / 5)
    # Overlap: John Smith (John), Lee (Dr Lee), date -> 3/4; phone missed.
    # Label-matched: John=PATIENT, Dr Lee=DOCTOR, date=DATE -> still 3/4.
    assert s["overlap"]["recall"] == pytest.approx(3 / 4)
    assert s["overlap"]["recall_label_matched"] == pytest.approx(3 / 4)
    # Predictions touching gold: John, Smith, Dr Lee, date = 4/5 ("saw" is not gold).
    # With labels: Smith(DOCTOR) lies on a PATIENT span -> 3/5.
    assert s["overlap"]["precision"] == pytest.approx(4 / 5)
    assert s["overlap"]["precision_label_matched"] == pytest.approx(3 / 5)
    # Full coverage: "John"+"Smith" cover "John Smith" (the space is exempt), Dr Lee
    # covers Lee, date exact -> 3/4. Label-matched: only "John" is PATIENT -> 2/4.
    assert s["full_coverage"]["recall"] == pytest.approx(3 / 4)
    assert s["full_coverage"]["recall_label_matched"] == pytest.approx(2 / 4)


def test_leak_rate_and_per_label() -> None:
    d = run([GOLD, gold_doc("d2", "Seen by Ann.", [("Ann", "PATIENT")])],
            {"d1": PRED, "d2": pred("d2", "Seen by Ann.", [("Ann", Label.PATIENT)])})
    # d1 leaks the phone number, d2 is fully covered -> 1 of 2 documents.
    assert d["leak"] == {"rate": 0.5, "leaked_documents": 1, "documents_with_phi": 2,
                         "leaked_ids": ["d1"]}
    pl = d["per_label"]
    # PATIENT tokens: John, Smith (d1) + Ann (d2) = 3, all touched; strict: Smith wrong -> 2/3
    assert pl["PATIENT"]["gold_tokens"] == 3
    assert pl["PATIENT"]["token_recall"] == pytest.approx(1.0)
    assert pl["PATIENT"]["token_recall_strict"] == pytest.approx(2 / 3)
    # PATIENT spans: "John Smith" overlap not exact, "Ann" exact -> exact 1/2, overlap 2/2
    assert pl["PATIENT"]["span_recall_exact"] == pytest.approx(1 / 2)
    assert pl["PATIENT"]["span_recall_overlap"] == pytest.approx(1.0)
    assert pl["PHONE"]["token_recall"] == 0.0
    # DOCTOR predicted tokens: Smith, Dr, Lee = 3; only Lee is a DOCTOR gold token -> 1/3
    assert pl["DOCTOR"]["pred_tokens"] == 3
    assert pl["DOCTOR"]["token_precision_strict"] == pytest.approx(1 / 3)
    # PERSON was only predicted ("saw"): no gold, precision 0/1.
    assert pl["PERSON"]["gold_spans"] == 0
    assert pl["PERSON"]["token_recall"] is None
    assert pl["PERSON"]["token_precision_strict"] == 0.0


def test_raw_labels_are_kept_and_mapped(tmp_path: Path) -> None:
    text = "MRN 1234567 for Jo Bloggs, CEO of Acme."
    spans = [{"start": s, "end": e, "label": lab} for (s, e), lab in
             ((find(text, "1234567"), "MEDICALRECORD"), (find(text, "Jo Bloggs"), "PERSON"),
              (find(text, "CEO"), "TITLE"))]
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps({"id": "x", "text": text, "spans": spans}) + "\n")
    [g] = load_gold(path)
    # TITLE (Presidio) maps to None: not PHI, dropped; i2b2 MEDICALRECORD -> ID.
    assert [(s.label, s.raw_label) for s in g.spans] == \
        [(Label.ID, "MEDICALRECORD"), (Label.PERSON, "PERSON")]
    d = run([g], {"x": pred("x", text, [("1234567", Label.ID), ("CEO", Label.OTHER)])})
    assert set(d["per_label"]) == {"ID", "PERSON", "OTHER"}  # OTHER: predicted only
    assert set(d["per_raw_label"]) == {"MEDICALRECORD", "PERSON"}
    assert d["per_raw_label"]["MEDICALRECORD"]["token_recall_strict"] == 1.0
    assert d["per_raw_label"]["PERSON"]["token_recall"] == 0.0
    # The dropped TITLE span is not PHI, so predicting "CEO" is a false positive.
    assert d["token"]["generous"]["fp"] == 1


def test_no_gold_spans_and_no_predictions() -> None:
    text = "Nothing to see here."
    empty_gold = GoldDocument("e", text, ())
    d = run([empty_gold], {"e": pred("e", text, [("Nothing", Label.PERSON)])})
    # No gold: recall, leak rate undefined (None, not 0); precision 0 of 1 predicted token.
    assert d["token"]["generous"]["recall"] is None
    assert d["token"]["generous"]["precision"] == 0.0
    assert d["leak"]["rate"] is None
    assert d["span"]["exact"]["recall"] is None
    d = run([GOLD], {"d1": Prediction("d1", ())})
    # Nothing predicted: precision undefined, recall 0, the document leaks.
    assert d["token"]["generous"]["precision"] is None
    assert d["token"]["generous"]["recall"] == 0.0
    assert d["token"]["generous"]["f1"] is None
    assert d["leak"]["rate"] == 1.0


def test_missing_and_extra_prediction_ids() -> None:
    g2 = gold_doc("d2", "Seen by Ann.", [("Ann", "PATIENT")])
    d = run([GOLD, g2], {"d1": PRED, "zz": Prediction("zz", ())})
    assert d["documents"]["missing_prediction"] == 1
    assert d["documents"]["missing_ids"] == ["d2"]
    assert d["documents"]["extra_prediction_ids"] == ["zz"]
    # d2's only gold token is a false negative: 8 / (11 + 1)
    assert d["token"]["generous"]["recall"] == pytest.approx(8 / 12)
    assert d["leak"]["leaked_ids"] == ["d1", "d2"]


def test_ignore_labels_drop_both_sides() -> None:
    d = run([GOLD], {"d1": PRED}, ignore_labels=["DATE", "person"])
    # Gold without DATE: 11 - 5 = 6 tokens (John Smith Lee 555 - 1234); found 3.
    # Predictions without DATE and PERSON: John, Smith, Dr Lee -> 4 tokens, 3 on gold.
    gen = d["token"]["generous"]
    assert (gen["tp"], gen["fp"], gen["fn"]) == (3, 1, 3)
    assert "DATE" not in d["per_label"]
    assert d["config"]["ignore_labels"] == ["DATE", "PERSON"]


def test_ignored_gold_text_is_dont_care_for_precision() -> None:
    # Ignoring a raw gold label: a prediction on that text is neither TP nor FP.
    text = "Jo works at Acme."
    g = gold_doc("x", text, [("Jo", "PERSON"), ("Acme", "ORGANIZATION")])
    d = run([g], {"x": pred("x", text, [("Jo", Label.PERSON), ("Acme", Label.HOSPITAL)])},
            ignore_labels=["ORGANIZATION"])
    assert d["token"]["generous"]["precision"] == 1.0
    assert d["span"]["pred_spans"] == 1


def test_phi_labels_filter_gold_only() -> None:
    # Policy without DOCTOR: "Lee" is don't-care; the prediction "Dr Lee" is not an FP.
    d = run([GOLD], {"d1": PRED},
            phi_labels=[Label.PATIENT, Label.DATE, Label.PHONE, Label.PERSON])
    gen = d["token"]["generous"]
    # Gold tokens 11 - 1 = 10, found 7. Predicted: John Smith saw 12/03/2020 -> 8, plus
    # "Dr" (touches no don't-care text: FP) -> 9; "Lee" excluded. FP = saw, Dr.
    assert (gen["tp"], gen["fp"], gen["fn"]) == (7, 2, 3)


def test_unknown_ignore_label_is_a_usage_error() -> None:
    with pytest.raises(UsageError):
        evaluate([GOLD], {"d1": PRED}, ignore_labels=["DATES"], bootstrap=0)


def test_prediction_outside_text_is_an_input_error() -> None:
    bad = Prediction("d1", (pred("d1", TEXT + " extra", [("extra", Label.ID)]).spans))
    with pytest.raises(InputError, match="d1"):
        evaluate([GOLD], {"d1": bad}, bootstrap=0)


def test_phi_labels_accept_strings_and_reject_unknown() -> None:
    a = run([GOLD], {"d1": PRED}, phi_labels=["PATIENT"])
    b = run([GOLD], {"d1": PRED}, phi_labels=[Label.PATIENT])
    assert a == b
    # Only "John Smith" is PHI: 2 gold tokens, both touched.
    assert a["token"]["generous"]["recall"] == 1.0
    with pytest.raises(UsageError):
        evaluate([GOLD], {"d1": PRED}, phi_labels=["PATIENTS"], bootstrap=0)
