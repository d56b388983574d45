"""A document whose text decoding was uncertain is marked "needs review" in the project,
and the mark survives closing and reopening (schema v3)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from engine.ingest import load_document
from engine.project import Project
from tests.engine.store.fakes import FAKE_SERVICES

SERVICES = replace(FAKE_SERVICES, loader=load_document)
# Synthetic PHI only: Cyrillic in cp1251, which ClearNote can only guess at.
RUSSIAN = "Пациентка Иванова Мария Петровна, 1961 года рождения, осмотрена терапевтом. " * 4


def test_uncertain_decoding_is_stored_and_reported(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "guess.txt").write_bytes(RUSSIAN.encode("cp1251"))
    (src / "plain.txt").write_text("Patient: Ona Brisk, seen today.", encoding="utf-8")
    path = tmp_path / "p.clearnote"
    with Project.create(path, services=SERVICES) as project:
        report = project.import_paths([src])
        assert len(report.imported) == 2 and len(report.needs_review) == 1
        assert "needs review 1" in report.summary()
        flagged = report.needs_review[0]
    with Project.open(path, services=SERVICES) as again:
        marks = {d.id: d.needs_review for d in again.documents()}
        assert marks[flagged] is True and sum(marks.values()) == 1
        assert again.load_document(flagged).needs_review
