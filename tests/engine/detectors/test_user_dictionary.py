from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document, Source
from engine.core.errors import InputError
from engine.core.labels import Label
from engine.detectors.dictionary import UserDictionaryDetector, load_user_dictionary


def test_all_occurrences_case_insensitive_whole_words() -> None:
    det = UserDictionaryDetector([("Lakeside Clinic", Label.HOSPITAL), ("LKC", Label.HOSPITAL),
                                  ("Nurse Okafor", Label.DOCTOR)])
    doc = Document.from_text("Referred from lakeside  clinic (LKC). LKCs no. "
                             "Lakeside Clinic again; nurse okafor called.")
    spans = det.detect(doc, RunContext())
    got = [(doc.slice(s), s.label) for s in spans]
    assert got == [("lakeside  clinic", Label.HOSPITAL), ("LKC", Label.HOSPITAL),
                   ("Lakeside Clinic", Label.HOSPITAL), ("nurse okafor", Label.DOCTOR)]
    assert all(s.source is Source.DICTIONARY and s.detector == "dictionary.user@1"
               for s in spans)


def test_longest_entry_wins() -> None:
    det = UserDictionaryDetector([("St. Jude", Label.HOSPITAL),
                                  ("St. Jude Hospital", Label.HOSPITAL)])
    doc = Document.from_text("At St. Jude Hospital today.")
    assert [doc.slice(s) for s in det.detect(doc, RunContext())] == ["St. Jude Hospital"]


def test_empty_dictionary_finds_nothing() -> None:
    assert UserDictionaryDetector([]).detect(Document.from_text("x"), RunContext()) == []


def test_load_csv_and_tsv(tmp_path: Path) -> None:
    csv_file = tmp_path / "staff.csv"
    csv_file.write_text("term,label\nLakeside Clinic,HOSPITAL\n# comment\n"
                        "Dr Okafor,doctor\nRiverside Org,ORGANIZATION\n", encoding="utf-8")
    assert load_user_dictionary(csv_file) == [("Lakeside Clinic", Label.HOSPITAL),
                                              ("Dr Okafor", Label.DOCTOR),
                                              ("Riverside Org", Label.HOSPITAL)]
    tsv_file = tmp_path / "sites.tsv"
    tsv_file.write_text("North Wing, Room 4\tLOCATION\n", encoding="utf-8")
    assert load_user_dictionary(tsv_file) == [("North Wing, Room 4", Label.LOCATION)]


def test_load_errors_name_line_not_term(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("Secret Surname,NOT_A_LABEL\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_user_dictionary(bad)
    assert "line 1" in str(info.value) and "Secret" not in str(info.value)
    with pytest.raises(InputError):
        load_user_dictionary(tmp_path / "missing.csv")
