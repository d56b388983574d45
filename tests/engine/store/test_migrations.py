from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine.core.domain import CharBox, Document, Page
from engine.core.errors import ProjectError
from engine.project import Project
from engine.store import geometry, migrations
from tests.engine.store.fakes import FAKE_SERVICES


def _schema(path: Path) -> dict[str, set[tuple[str, str, int]]]:
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {t: {(c[1], c[2].upper(), c[3]) for c in conn.execute(f"PRAGMA table_info({t})")}
                for t in tables}


def _v1_project(path: Path) -> None:
    migrations.create_v1(path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO settings VALUES ('secret', ?)", (json.dumps("ab" * 32),))
        conn.execute("INSERT INTO settings VALUES ('project', ?)",
                     (json.dumps({"policy": "hipaa", "mode": "tag"}),))
        conn.execute("INSERT INTO documents VALUES ('d1', '/x/a.txt', 'f00', 'text/plain', 1,"
                     " 'detected', NULL, NULL, 0, 1.0, 1.0)")
        conn.execute("INSERT INTO document_content VALUES ('d1', 'Patient: Ona Brisk', '[]',"
                     " NULL, '[]', '[]')")
        conn.execute("INSERT INTO spans VALUES ('s1', 'd1', NULL, 9, 18, 'PATIENT', NULL,"
                     " 'RULE', 'x@1', '[]', 1.0, 'CANDIDATE', 1.0)")
    conn.close()


def test_migration_from_v1_with_backup(tmp_path: Path) -> None:
    old = tmp_path / "old.clearnote"
    _v1_project(old)
    with Project.open(old, services=FAKE_SERVICES) as project:
        assert project.backup_path is not None and project.backup_path.exists()
        assert migrations.user_version(project.db.engine) == migrations.LATEST
        doc = project.document("d1")
        assert doc.char_count == len("Patient: Ona Brisk")  # backfilled by the migrator
        assert project.settings.policy == "hipaa"
        span = project.spans("d1")[0]
        project.set_span_status(span.id, "REJECTED")  # v2 feature: undo history
        assert project.undo() is not None
    with sqlite3.connect(project.backup_path) as conn:  # the backup is still v1
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    fresh = Project.create(tmp_path / "fresh.clearnote", services=FAKE_SERVICES)
    fresh.close()
    assert _schema(old) == _schema(fresh.path)
    with Project.open(old, services=FAKE_SERVICES) as again:  # no second migration
        assert again.backup_path is None


def test_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.clearnote"
    Project.create(path, services=FAKE_SERVICES).close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version={migrations.LATEST + 1}")
    conn.close()
    with pytest.raises(ProjectError):
        Project.open(path, services=FAKE_SERVICES)


def test_geometry_roundtrip(make_project) -> None:
    text = "Ab\nC"
    boxes = (CharBox(1, 10.0, 20.0, 15.5, 30.25), CharBox(1, 15.5, 20.0, 21.0, 30.25), None,
             CharBox(2, 1.0, 2.0, 3.0, 4.0))
    pages = (Page(1, 0, 3, 612.0, 792.0), Page(2, 3, 4, 612.0, 792.0, ocr=True))
    doc = Document(text=text, pages=pages, boxes=boxes, confidences=((3, 4, 0.5),),
                   media_type="application/pdf")
    assert geometry.decode_boxes(geometry.encode_boxes(boxes)) == boxes
    assert geometry.decode_pages(geometry.encode_pages(pages)) == pages
    project = make_project()
    from engine.store import repositories as repo
    with project.db.write() as s:
        repo.add_document(s, doc, file_sha256="00" * 32, source_path="/x.pdf")
    loaded = project.load_document(doc.id)
    assert loaded.boxes == boxes and loaded.pages == pages
    assert loaded.confidences == doc.confidences
    assert project.document(doc.id).page_count == 2


def test_v3_adds_needs_review(tmp_path: Path) -> None:
    old = tmp_path / "old.clearnote"
    _v1_project(old)
    with Project.open(old, services=FAKE_SERVICES) as project:
        assert project.document("d1").needs_review is False
