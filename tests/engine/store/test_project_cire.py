"""CIRE through the project: flags computed on the export-ready text and stored, no PHI."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from engine.core.labels import Label
from engine.pipeline import PipelineConfig
from engine.project import Project


def test_retention_flags_a_replaced_drug_and_stores_flags(tmp_path: Path) -> None:
    letter = tmp_path / "letter.txt"
    text = ("Patient: Harold Finch, seen on 03/14/2021.\n"
            "He takes metformin 500 mg twice daily for type 2 diabetes.\n")
    letter.write_text(text, encoding="utf-8")
    with Project.create(tmp_path / "p.clearnote", pipeline=PipelineConfig(ner=False)) as project:
        project.import_paths([letter])
        doc_id = project.detect().detected[0]
        clean = project.retention(doc_id)
        assert not [f for f in clean.flags if f.severity.value == "high"]
        # A reviewer wrongly marks the drug as a name: the guard must flag it.
        start = text.index("metformin")
        project.add_manual_span(doc_id, start, start + len("metformin"), Label.PERSON)
        damaged = project.retention(doc_id)
        assert damaged.retention_score < 1.0
        high = [f for f in damaged.flags if f.severity.value == "high"]
        assert high and high[0].start is not None and high[0].start <= start
        assert project.cire_flag_counts()[doc_id]["high"] == len(high)
    with sqlite3.connect(tmp_path / "p.clearnote") as db:
        stored = " ".join(str(v) for row in db.execute("SELECT * FROM cire_flags")
                          for v in row)
    assert "metformin" not in stored and "Finch" not in stored
