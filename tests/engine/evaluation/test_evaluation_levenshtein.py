"""Levenshtein metrics of Pissarra et al. on examples small enough to compute by hand."""

from __future__ import annotations

import pytest

from engine.core.labels import Label
from engine.evaluation import Prediction, evaluate
from engine.evaluation.levenshtein import (
    document_lsis,
    levenshtein_ratio,
    sentences,
    sliding_lsi,
    tagged_text,
)
from tests.engine.evaluation.evaluation_helpers import gold_doc


def test_levenshtein_ratio() -> None:
    # LRa = 1 - LD / max(len): "smith" -> "smyth" is one substitution: 1 - 1/5
    assert levenshtein_ratio("smith", "smyth") == pytest.approx(0.8)
    # "kitten" -> "sitting": LD 3, max length 7 -> 1 - 3/7
    assert levenshtein_ratio("kitten", "sitting") == pytest.approx(4 / 7)


def test_sliding_window_takes_the_best_window() -> None:
    # Windows of length 3 over "time": "tim" (LD 1 from "Tim": 1 - 1/3) and "ime" (LD 2).
    assert sliding_lsi("Tim", "time") == pytest.approx(2 / 3)
    # Region shorter than the entity: one window, the whole region: "An" vs "Ann" = 1 - 1/3.
    assert sliding_lsi("Ann", "An") == pytest.approx(2 / 3)
    assert sliding_lsi("Ann", "met Ann today") == 1.0


def test_sentences_are_contiguous() -> None:
    text = "Seen today. Dr Lee\nsigned."
    segs = sentences(text)
    assert [text[a:b] for a, b in segs] == ["Seen today.", " Dr Lee\n", "signed."]
    assert segs[0][0] == 0 and segs[-1][1] == len(text)


def test_sentence_scope_ignores_other_sentences() -> None:
    original = "Tim came in. It is time to eat."
    anonymised = "[PATIENT] came in. It is time to eat."
    [doc] = document_lsis(original, anonymised, [(0, 3, Label.PATIENT)], scope="document")
    # Document scope: "tim" inside "time" -> 1.0, a false leak.
    assert doc.lsi == 1.0
    [sent] = document_lsis(original, anonymised, [(0, 3, Label.PATIENT)], scope="sentence")
    # Sentence scope: only "[patient] came in." is searched; its best 3-window is "tie"
    # (in "patient"): one substitution from "tim" -> 1 - 1/3 = 2/3, below the threshold.
    assert sent.lsi == pytest.approx(2 / 3)


def test_case_insensitive_leak() -> None:
    [score] = document_lsis("Seen by Dr Smith today.", "Seen by Dr SMITH today.",
                            [(11, 16, Label.DOCTOR)])
    assert score.lsi == 1.0


def test_multiline_entity_is_found_when_left_in_place() -> None:
    original = "Lives at 12 Main St\nSpringfield\nOntario. Seen today."
    start = original.index("12")
    end = original.index("Ontario") + len("Ontario")
    anonymised = "Lives at 12 Main St\nSpringfield\nOntario. Seen [DATE]."
    [score] = document_lsis(original, anonymised, [(start, end, Label.LOCATION)])
    assert score.lsi == 1.0


def test_alid_lr_lrdi_lrqi_by_hand() -> None:
    t1 = "Dr Smith saw her on 12/03/2020."
    t2 = "Call Anna."
    gold = [gold_doc("a", t1, [("Smith", "DOCTOR"), ("12/03/2020", "DATE")]),
            gold_doc("b", t2, [("Anna", "PATIENT")])]
    preds = {
        # Smith -> Smyth: LSI 1 - 1/5 = 0.8 (< 0.85: protected); the date is untouched: 1.0
        "a": Prediction("a", (), "Dr Smyth saw her on 12/03/2020."),
        # Anna untouched: LSI 1.0
        "b": Prediction("b", (), "Call Anna."),
    }
    lev = evaluate(gold, preds, bootstrap=0).to_dict()["levenshtein"]
    assert lev["entities"] == 3
    # mean LSI = (0.8 + 1.0 + 1.0) / 3 = 2.8/3; ALID = 1 - 2.8/3 = 0.2/3
    assert lev["mean_lsi"] == pytest.approx(2.8 / 3)
    assert lev["alid"] == pytest.approx(0.2 / 3)
    # LR@0.85: only Smith is below the threshold -> 1/3
    assert lev["lr"] == pytest.approx(1 / 3)
    # LRDI: doc a's only direct identifier (Smith) is protected -> 1; doc b's Anna is not
    # -> 0; averaged over the 2 documents with direct identifiers -> 1/2
    assert lev["lrdi"] == pytest.approx(0.5)
    assert lev["documents_with_direct"] == 2
    # LRQI: one quasi-identifier (the date), not protected -> 0/1
    assert lev["lrqi"] == 0.0
    assert (lev["direct_entities"], lev["quasi_entities"]) == (2, 1)


def test_lrdi_is_all_or_nothing_within_a_document() -> None:
    text = "Ann Lee and Bob Ray met."
    g = gold_doc("a", text, [("Ann Lee", "PATIENT"), ("Bob Ray", "PERSON")])
    # One of two names left in place: LR = 1/2 but LRDI = 0 (all or nothing).
    p = Prediction("a", (), "[PATIENT] and Bob Ray met.")
    lev = evaluate([g], {"a": p}, bootstrap=0).to_dict()["levenshtein"]
    assert lev["lr"] == pytest.approx(0.5)
    assert lev["lrdi"] == 0.0


def test_tagged_text_when_prediction_has_no_output_text() -> None:
    text = "John Smith saw Dr Lee."
    spans = [(0, 4, Label.PATIENT), (0, 10, Label.PATIENT), (8, 14, Label.OTHER),
             (18, 21, Label.DOCTOR)]
    # Overlapping and nested predictions merge into one replacement.
    assert tagged_text(text, spans) == "[PATIENT] Dr [DOCTOR]."
    g = gold_doc("a", text, [("John Smith", "PATIENT"), ("Lee", "DOCTOR")])
    p = Prediction("a", ())
    # Missing prediction text and no spans: the original stays, everything leaks (LSI 1).
    lev = evaluate([g], {"a": p}, bootstrap=0).to_dict()["levenshtein"]
    assert lev["lr"] == 0.0 and lev["alid"] == 0.0
