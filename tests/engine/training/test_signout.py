"""The sign-out style: the zero-shot error classes of issue 26 on both sides, gold exact."""

from __future__ import annotations

import random
import re

import pytest

from engine.resolution.shorthand import shorthand_words
from engine.training.builder import Builder
from engine.training.corpus import DocGen
from engine.training.ehr import Tele
from engine.training.ehr_notes import signout
from engine.training.signout import PT_WORDS, shorthand_spellings

BODIES = ["Patient denies fever or chills. Lungs clear. Follow up in 2 weeks. "]
_PT_WORD = re.compile(r"(?<![\w.])(?:pt|Pt|PT)\.? (\S+)")


@pytest.fixture(scope="module")
def notes() -> list[tuple[str, Builder]]:
    gen = DocGen(11, "train", BODIES)
    out = []
    for i in range(150):
        gen.gender, gen.pat = "F", gen._person("F")
        b = Builder(random.Random(i))
        signout(Tele(gen), b)
        out.append((b.text, b))
    return out


def _labelled(notes: list[tuple[str, Builder]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for text, b in notes:
        for span in b.spans:
            value = text[int(span["start"]) : int(span["end"])]  # type: ignore[call-overload]
            found.setdefault(str(span["label"]), []).append(value)
    return found


def test_gold_spans_are_exact(notes: list[tuple[str, Builder]]) -> None:
    for text, b in notes:
        for span, value in zip(b.spans, b.values, strict=True):
            assert text[int(span["start"]) : int(span["end"])] == value  # type: ignore[call-overload]


def test_identifier_forms_of_the_missed_classes_are_labelled(
    notes: list[tuple[str, Builder]],
) -> None:
    found = _labelled(notes)
    assert any(re.fullmatch(r"\d{1,2}/\d{1,2}", v) for v in found["DATE"])  # extub 4/1
    assert any(re.fullmatch(r"[A-Z][a-z]+ \d{1,2}[ABW]?", v) for v in found["HOSPITAL"])
    assert any(re.fullmatch(r"[a-z] [a-z]+", v) for v in found["DOCTOR"])  # per d lang
    assert any(re.fullmatch(r"\d{3}/\d{3}/\d{4}", v) for v in found["PHONE"])


def test_word_after_pt_and_shorthand_are_never_labelled(notes: list[tuple[str, Builder]]) -> None:
    after_pt = 0
    for text, b in notes:
        inside = [(int(s["start"]), int(s["end"])) for s in b.spans]  # type: ignore[call-overload]
        for m in _PT_WORD.finditer(text):
            word = m.group(1).rstrip(".,")
            if word in PT_WORDS:
                after_pt += 1
                assert not any(a <= m.start(1) < e for a, e in inside), word
        for a, e in b.negatives:
            assert not any(a < se and sa < e for sa, se in inside)
    assert after_pt > 100


def test_shorthand_comes_from_the_inventory_and_the_shipped_list() -> None:
    spellings, counts = shorthand_spellings()
    keep = shorthand_words()
    assert len(spellings) > 300
    assert all(s.casefold() in keep for s in spellings)
    assert all(c >= 3 for c in counts)
    assert {"prn", "bid"} <= {s.casefold() for s in spellings}
