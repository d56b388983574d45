from __future__ import annotations

import numpy as np
import pytest

from engine.detectors.ner.decode import TokenEntity, decode_bio, stitch, to_char_span
from engine.detectors.ner.features import SHAPE_INITIAL, SHAPE_TITLE, SHAPE_UPPER, TAGS, word_shape

LABELS = tuple(t[2:] for t in TAGS if t.startswith("B-"))


def onehot(tags: list[str]) -> np.ndarray:
    p = np.full((len(tags), len(TAGS)), 0.01, dtype=np.float32)
    for i, t in enumerate(tags):
        p[i, TAGS.index(t)] = 0.9
    return p / p.sum(-1, keepdims=True)


def test_bio_decoding_basic() -> None:
    ents = decode_bio(onehot(["O", "B-PATIENT", "I-PATIENT", "O", "B-DATE"]), TAGS, LABELS)
    assert [(e.first, e.last, e.label) for e in ents] == [(1, 2, "PATIENT"), (4, 4, "DATE")]
    assert all(0.8 < e.confidence <= 1 for e in ents)


def test_bio_b_splits_adjacent_entities_and_stray_i_opens_one() -> None:
    ents = decode_bio(onehot(["B-DOCTOR", "B-DOCTOR", "I-DOCTOR", "I-DATE", "I-ID"]), TAGS, LABELS)
    assert [(e.first, e.last, e.label) for e in ents] == [
        (0, 0, "DOCTOR"),
        (1, 2, "DOCTOR"),
        (3, 3, "DATE"),
        (4, 4, "ID"),
    ]


def test_bio_label_sums_b_and_i() -> None:
    # O has 0.4, but B-AGE + I-AGE = 0.6: the token is AGE.
    p = np.zeros((1, len(TAGS)), dtype=np.float32)
    p[0, 0], p[0, TAGS.index("B-AGE")], p[0, TAGS.index("I-AGE")] = 0.4, 0.3, 0.3
    (ent,) = decode_bio(p, TAGS, LABELS)
    assert ent.label == "AGE" and ent.confidence == pytest.approx(0.6)


def test_empty_probs() -> None:
    assert decode_bio(np.zeros((0, len(TAGS)), dtype=np.float32), TAGS, LABELS) == []


def test_stitch_prefers_most_central_window() -> None:
    windows = [(0, 6), (4, 10)]
    a = np.tile(np.array([[1.0, 0.0]], dtype=np.float32), (6, 1))
    b = np.tile(np.array([[0.0, 1.0]], dtype=np.float32), (6, 1))
    out = stitch(10, windows, [a, b])
    # token 4: centrality 1 in window a (edge-ish), 0 in b -> a; token 5: 0 in a, 1 in b -> b
    assert out[:5, 0].tolist() == [1, 1, 1, 1, 1]
    assert out[5:, 1].tolist() == [1, 1, 1, 1, 1]


def test_stitch_rejects_gaps() -> None:
    with pytest.raises(ValueError):
        stitch(5, [(0, 2), (3, 5)], [np.zeros((2, 2)), np.zeros((2, 2))])


def test_char_span_widens_to_whole_words() -> None:
    text = "Seen by Johnson today"
    offsets = [(0, 4), (5, 7), (8, 12), (12, 15), (16, 21)]
    assert to_char_span(text, offsets, TokenEntity(2, 2, "DOCTOR", 0.9)) == (8, 15)


def test_word_shapes() -> None:
    assert word_shape("Smith") == SHAPE_TITLE
    assert word_shape("SMITH") == SHAPE_UPPER
    assert word_shape("J") == SHAPE_INITIAL
    assert word_shape("北京") != word_shape("beijing")


@pytest.mark.parametrize(("text", "expected"), [
    (" / ", None), ("@", None), ("Smith,", "Smith"), ("-Anna K.", "Anna K."),
    ("(555) 010-0199.", "(555) 010-0199")])
def test_char_spans_are_trimmed_and_punctuation_pieces_dropped(text: str,
                                                                expected: str | None) -> None:
    offsets = [(0, len(text))]
    start, end = to_char_span(text, offsets, TokenEntity(0, 0, "PERSON", 0.9))
    assert (text[start:end] if end > start else None) == expected


def test_entity_first_keeps_a_name_whose_mass_is_split_between_labels() -> None:
    # O 0.4, PATIENT 0.35, PERSON 0.25: argmax calls it O; as PHI-or-not it is PHI (0.6),
    # and the likeliest label is PATIENT.
    p = np.zeros((2, len(TAGS)), dtype=np.float32)
    p[0, 0], p[0, TAGS.index("B-PATIENT")], p[0, TAGS.index("B-PERSON")] = 0.4, 0.35, 0.25
    p[1, 0], p[1, TAGS.index("B-DATE")] = 0.6, 0.4  # O holds the majority: stays O
    assert decode_bio(p, TAGS, LABELS) == []
    (ent,) = decode_bio(p, TAGS, LABELS, entity_first=True)
    assert (ent.first, ent.last, ent.label) == (0, 0, "PATIENT")
    assert ent.confidence == pytest.approx(0.35)


def test_o_threshold_calls_a_token_phi_until_o_is_that_sure() -> None:
    # P(O) 0.6 then 0.92: O wins both at the default 1/2; with o_threshold 0.9 the first is
    # PHI (O is not 90% sure) and the second stays O.
    p = np.zeros((3, len(TAGS)), dtype=np.float32)
    p[0, 0], p[0, TAGS.index("B-DATE")] = 0.6, 0.4
    p[1, 0], p[1, TAGS.index("B-PERSON")] = 0.92, 0.08
    p[2, 0] = 1.0
    assert decode_bio(p, TAGS, LABELS, entity_first=True) == []
    (ent,) = decode_bio(p, TAGS, LABELS, entity_first=True, o_threshold=0.9)
    assert (ent.first, ent.last, ent.label) == (0, 0, "DATE")
    assert ent.confidence == pytest.approx(0.4)
