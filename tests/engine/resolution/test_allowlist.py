from __future__ import annotations

import re

import pytest

from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.resolution.allowlist import ClinicalAllowlist

ALLOW = ClinicalAllowlist.default()


def _spans(doc: Document, *words: str, label: Label = Label.PERSON) -> list[Span]:
    out = []
    for word in words:
        for m in re.finditer(re.escape(word), doc.text):
            out.append(Span(m.start(), m.end(), label, source=Source.DICTIONARY))
    return out


@pytest.mark.parametrize(("text", "word"), [
    ("Completed 9 minutes of the Bruce protocol.", "Bruce"),
    ("Known Parkinson's disease on levodopa.", "Parkinson"),
    ("Glasgow Coma Scale 15 on arrival.", "Glasgow"),
    ("Apgar 9 and 9.", "Apgar"),
    ("Babinski negative bilaterally.", "Babinski"),
    ("History of Crohn's with ileal disease.", "Crohn's"),
    ("Non-Hodgkin lymphoma in remission.", "Hodgkin"),
    ("TP53 variant c.215C>G was found.", "c.215C>G"),
    ("Germline g.7578395G>C detected.", "g.7578395G>C"),
    ("Protein change p.Arg72Pro noted.", "p.Arg72Pro"),
    ("SNP rs1042522 genotyped.", "rs1042522"),
    ("Started Lasix 40 mg daily.", "Lasix"),
    ("Tinel's sign positive at the wrist.", "Tinel"),
])
def test_clinical_terms_are_dropped(text: str, word: str) -> None:
    doc = Document.from_text(text)
    label = Label.ID if word[:2] in ("c.", "g.", "p.", "rs") else Label.PERSON
    kept, dropped = ALLOW.recover(doc, _spans(doc, word, label=label))
    assert not kept and len(dropped) == 1


@pytest.mark.parametrize(("text", "word"), [
    ("Seen by Dr. Parkinson in clinic.", "Parkinson"),
    ("Mr. Foley was discharged home.", "Foley"),
    ("Margaret Bruce lives alone.", "Margaret Bruce"),
    ("Dr. Smith's test results are pending.", "Smith"),
])
def test_people_are_kept(text: str, word: str) -> None:
    doc = Document.from_text(text)
    kept, dropped = ALLOW.recover(doc, _spans(doc, word))
    assert len(kept) == 1 and not dropped


def test_dates_are_never_recovered() -> None:
    doc = Document.from_text("Bruce protocol 2021")
    span = Span(15, 19, Label.DATE)
    assert ALLOW.recover(doc, [span]) == ([span], [])


def test_custom_terms() -> None:
    allow = ClinicalAllowlist.from_terms(["Smithson maneuver"])
    doc = Document.from_text("The Smithson maneuver was done.")
    kept, dropped = allow.recover(doc, _spans(doc, "Smithson"))
    assert not kept and dropped
