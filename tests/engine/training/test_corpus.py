"""The synthetic corpus: reproducible, exact gold spans, casing variants, telegraphic styles."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.paths import shared_data_dir
from engine.training.corpus import CASINGS, DocGen, generate, main, recase
from engine.training.ehr import TELE_STYLES
from engine.training.phi import keep_len

BODIES = {
    split: [
        (
            "The patient is a 76-year-old female seen by Dr. Kumar on July 31, 2008. "
            "She has hypertension and takes metoprolol 25 mg BID. "
        ),
        "This is a 22-year-old male with chest pain since March 2019. Troponin negative. ",
        "Patient denies fever or chills. Lungs clear. Follow up in 2 weeks. ",
    ]
    for split in ("train", "dev", "test")
}
N = 60
_ABG = re.compile(r"\b7\.\d\d/\d{2,3}/\d{2,3}(?:/\d{1,2})?")
_HEMO = re.compile(r"\bCO/CI/SVR \d+\.\d/\d\.\d\d/\d+", re.IGNORECASE)


@pytest.fixture(scope="module")
def built() -> list[tuple[dict[str, object], object]]:
    gen = DocGen(7, "train", BODIES["train"])
    return [gen.build(i) for i in range(N)]


def test_same_seed_same_documents() -> None:
    a = list(generate(7, "dev", 25, BODIES))
    b = list(generate(7, "dev", 25, BODIES))
    assert a == b
    assert a != list(generate(8, "dev", 25, BODIES))


def test_gold_spans_are_the_inserted_values(built) -> None:
    for rec, b in built:
        text, casing = str(rec["text"]), rec["meta"]["casing"]
        spans = rec["spans"]
        assert len(spans) == len(b.values)  # a flow sheet may hold no PHI at all
        for s, value in zip(spans, b.values, strict=True):
            got = text[s["start"] : s["end"]]
            # Whole-document casing only changes the case of letters, never a length.
            assert keep_len(got, str.lower) == keep_len(value, str.lower), (got, value)
            if casing == "as_is":
                assert got == value
            assert got == got.strip() and any(c.isalnum() for c in got)


def test_casing_keeps_length_and_offsets() -> None:
    text = "Straße İstanbul\nNEURO: Pt Anna K. aware\nplan: cont"
    for casing in CASINGS:
        out = recase(text, casing, random.Random(1))
        assert len(out) == len(text)
        assert keep_len(out, str.lower) == keep_len(text, str.lower)
    assert recase(text, "upper", random.Random(1)).startswith("STRAßE İSTANBUL")
    assert keep_len("ß", str.upper) == "ß" and keep_len("İ", str.lower) == "İ"


def test_every_style_and_casing_appears() -> None:
    docs = list(generate(3, "train", 150, BODIES))
    styles = {d["meta"]["style"] for d in docs}
    casings = {d["meta"]["casing"] for d in docs}
    assert set(TELE_STYLES) <= styles
    assert {"referral", "discharge", "progress"} & styles
    assert casings == set(CASINGS)
    tele = sum(d["meta"]["style"] in TELE_STYLES for d in docs) / len(docs)
    cased = sum(d["meta"]["casing"] != "as_is" for d in docs) / len(docs)
    assert 0.25 < tele < 0.55 and 0.18 < cased < 0.42


def test_hard_negatives_never_inside_gold(built) -> None:
    n_neg = 0
    for rec, b in built:
        text = str(rec["text"])
        ranges = list(b.negatives)
        ranges += [m.span() for m in _ABG.finditer(text)] + [m.span() for m in _HEMO.finditer(text)]
        n_neg += len(ranges)
        for s in rec["spans"]:
            for ns, ne in ranges:
                assert ne <= s["start"] or ns >= s["end"], (
                    text[ns:ne],
                    text[s["start"] : s["end"]],
                )
    assert n_neg > 2 * N  # negatives come in volume


def test_telegraphic_phi_forms_are_labelled() -> None:
    docs = list(generate(5, "train", 300, BODIES))
    covered = [(d["text"][s["start"] : s["end"]], s["label"]) for d in docs for s in d["spans"]]
    labels = {lab for _, lab in covered}
    assert {"PATIENT", "DOCTOR", "PERSON", "HOSPITAL", "LOCATION", "DATE", "AGE", "ID"} <= labels
    assert any(re.fullmatch(r"[A-Za-z]\. [A-Za-z'-]+", v) for v, lab in covered if lab == "DOCTOR")
    assert any(re.fullmatch(r"[A-Za-z]+ [A-Za-z]\.", v) for v, _ in covered)
    assert any(v.islower() for v, lab in covered if lab == "PERSON")
    assert any(
        re.fullmatch(r"[A-Za-z]{1,2}[-/]?\d{5,7}|[A-Za-z]{2}-\d{3}-\d{3}", v)
        for v, lab in covered
        if lab == "ID"
    )
    # Generic unit names are never HOSPITAL spans.
    assert not any(v in ("MICU", "SICU", "CCU", "ED", "PACU") for v, lab in covered)


def test_cli_writes_three_splits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.training import corpus

    monkeypatch.setattr(corpus, "load_bodies", lambda path=None: BODIES)
    main([str(tmp_path), "13", "12"])
    assert {p.name for p in tmp_path.iterdir()} == {"train.jsonl", "dev.jsonl", "test.jsonl"}
    first = (tmp_path / "train.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(first) == 12 and '"style"' in first[0] and '"casing"' in first[0]


def test_shared_data_dir_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLEARNOTE_SHARED_DATA", str(tmp_path))
    assert shared_data_dir() == tmp_path
    monkeypatch.delenv("CLEARNOTE_SHARED_DATA")
    assert shared_data_dir().parts[-2:] == ("shared", "data")
