"""Schema versions (PRAGMA user_version) and ordered migrators.

A new project is created from the ORM metadata at ``LATEST``. An older file is first copied
with SQLite's online backup API (``NAME.clearnote.vN.bak``), then each migrator runs in its
own transaction, which also bumps ``user_version``: a crash leaves the file at a consistent
version, and re-opening continues from there.

To change the schema: edit models.py, append a migrator to ``MIGRATORS`` and bump nothing
else (``LATEST`` follows the list); tests compare a migrated v1 file with a fresh one.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Connection, Engine

from engine.core.errors import ProjectError
from engine.core.files import create_private_file
from engine.store import crypto
from engine.store.crypto import ProjectKey
from engine.store.db import key_of
from engine.store.models import Base

log = logging.getLogger(__name__)

APPLICATION_ID = 0x434C4E54  # "CLNT": refuses to open some other SQLite file as a project

# The append-only audit log is enforced by the database itself, in every version.
AUDIT_TRIGGERS = (
    """CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
    """CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END""",
)

# The first released schema, frozen: used only by tests and to document history.
SCHEMA_V1 = """
CREATE TABLE settings ("key" VARCHAR NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE patients (id VARCHAR NOT NULL PRIMARY KEY, name VARCHAR NOT NULL,
    created_at FLOAT NOT NULL);
CREATE TABLE documents (id VARCHAR NOT NULL PRIMARY KEY, source_path TEXT NOT NULL,
    sha256 VARCHAR NOT NULL UNIQUE, media_type VARCHAR NOT NULL, page_count INTEGER NOT NULL,
    status VARCHAR NOT NULL, reason TEXT,
    patient_id VARCHAR REFERENCES patients (id) ON DELETE SET NULL,
    patient_confirmed BOOLEAN NOT NULL, imported_at FLOAT NOT NULL, updated_at FLOAT NOT NULL);
CREATE INDEX ix_documents_patient_id ON documents (patient_id);
CREATE INDEX ix_documents_status ON documents (status);
CREATE TABLE document_content (
    document_id VARCHAR NOT NULL PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
    text TEXT NOT NULL, pages TEXT NOT NULL, boxes BLOB, confidences TEXT NOT NULL,
    warnings TEXT NOT NULL);
CREATE TABLE detection_runs (id INTEGER NOT NULL PRIMARY KEY,
    document_id VARCHAR NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    detectors TEXT NOT NULL, policy VARCHAR NOT NULL, span_count INTEGER NOT NULL,
    allowlisted INTEGER NOT NULL, seconds FLOAT NOT NULL, created_at FLOAT NOT NULL);
CREATE INDEX ix_detection_runs_document_id ON detection_runs (document_id);
CREATE TABLE spans (id VARCHAR NOT NULL PRIMARY KEY,
    document_id VARCHAR NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    run_id INTEGER REFERENCES detection_runs (id) ON DELETE SET NULL,
    start INTEGER NOT NULL, "end" INTEGER NOT NULL, label VARCHAR NOT NULL, subtype VARCHAR,
    source VARCHAR NOT NULL, detector VARCHAR NOT NULL, evidence TEXT NOT NULL,
    confidence FLOAT NOT NULL, status VARCHAR NOT NULL, updated_at FLOAT NOT NULL);
CREATE INDEX ix_spans_document_start ON spans (document_id, start);
CREATE TABLE patient_keys (id INTEGER NOT NULL PRIMARY KEY,
    document_id VARCHAR NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    kind VARCHAR NOT NULL, digest VARCHAR NOT NULL, UNIQUE (document_id, kind, digest));
CREATE INDEX ix_patient_keys_digest ON patient_keys (digest);
CREATE INDEX ix_patient_keys_document_id ON patient_keys (document_id);
CREATE TABLE surrogates (id INTEGER NOT NULL PRIMARY KEY, patient VARCHAR NOT NULL,
    label VARCHAR NOT NULL, key_digest VARCHAR NOT NULL, surrogate TEXT NOT NULL,
    created_at FLOAT NOT NULL, UNIQUE (patient, label, key_digest));
CREATE TABLE cire_flags (id INTEGER NOT NULL PRIMARY KEY,
    document_id VARCHAR NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    span_id VARCHAR, severity VARCHAR NOT NULL, kind VARCHAR NOT NULL, detail TEXT NOT NULL,
    created_at FLOAT NOT NULL);
CREATE INDEX ix_cire_flags_document_id ON cire_flags (document_id);
CREATE TABLE exports (id INTEGER NOT NULL PRIMARY KEY,
    document_id VARCHAR NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    path TEXT NOT NULL, format VARCHAR NOT NULL, sha256 VARCHAR NOT NULL,
    created_at FLOAT NOT NULL);
CREATE INDEX ix_exports_document_id ON exports (document_id);
CREATE TABLE audit_log (id INTEGER NOT NULL PRIMARY KEY, at FLOAT NOT NULL,
    who VARCHAR NOT NULL, action VARCHAR NOT NULL, document_id VARCHAR, span_id VARCHAR,
    label VARCHAR, start INTEGER, "end" INTEGER, count INTEGER, detail TEXT NOT NULL);
"""


def _v1_to_v2(conn: Connection) -> None:
    """v2: persistent undo/redo history; documents.char_count for cheap statistics."""
    conn.exec_driver_sql(
        "CREATE TABLE review_actions (id INTEGER NOT NULL PRIMARY KEY, kind VARCHAR NOT NULL,"
        " payload TEXT NOT NULL, undone BOOLEAN NOT NULL, created_at FLOAT NOT NULL)")
    conn.exec_driver_sql("CREATE INDEX ix_review_actions_undone ON review_actions (undone)")
    conn.exec_driver_sql(
        "ALTER TABLE documents ADD COLUMN char_count INTEGER NOT NULL DEFAULT 0")
    conn.exec_driver_sql(
        "UPDATE documents SET char_count = COALESCE((SELECT length(c.text) FROM "
        "document_content c WHERE c.document_id = documents.id), 0)")


def _v2_to_v3(conn: Connection) -> None:
    """v3: documents.needs_review (uncertain text decoding), shown in the GUI and CLI."""
    conn.exec_driver_sql(
        "ALTER TABLE documents ADD COLUMN needs_review BOOLEAN NOT NULL DEFAULT 0")


def _v3_to_v4(conn: Connection) -> None:
    """v4: what the project learned (issue 25): profile versions, imported lists and the
    listed patients' identifier digests."""
    conn.exec_driver_sql(
        "CREATE TABLE profile_versions (version INTEGER NOT NULL PRIMARY KEY,"
        " content_version VARCHAR NOT NULL, body TEXT NOT NULL, note VARCHAR NOT NULL,"
        " counts TEXT NOT NULL, created_at FLOAT NOT NULL)")
    conn.exec_driver_sql(
        "CREATE TABLE list_entries (id INTEGER NOT NULL PRIMARY KEY, kind VARCHAR NOT NULL,"
        " text TEXT NOT NULL,"
        " patient_id VARCHAR REFERENCES patients (id) ON DELETE SET NULL,"
        " created_at FLOAT NOT NULL)")
    conn.exec_driver_sql(
        "CREATE TABLE list_keys (id INTEGER NOT NULL PRIMARY KEY,"
        " patient_id VARCHAR NOT NULL REFERENCES patients (id) ON DELETE CASCADE,"
        " kind VARCHAR NOT NULL, digest VARCHAR NOT NULL,"
        " UNIQUE (patient_id, kind, digest))")
    conn.exec_driver_sql("CREATE INDEX ix_list_keys_digest ON list_keys (digest)")


def _v4_to_v5(conn: Connection) -> None:
    """v5: box redactions drawn on pages (signatures, logos, stamps)."""
    conn.exec_driver_sql(
        "CREATE TABLE box_redactions (id VARCHAR NOT NULL PRIMARY KEY,"
        " document_id VARCHAR NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
        " page INTEGER NOT NULL, x0 FLOAT NOT NULL, y0 FLOAT NOT NULL, x1 FLOAT NOT NULL,"
        " y1 FLOAT NOT NULL, active BOOLEAN NOT NULL, created_at FLOAT NOT NULL)")
    conn.exec_driver_sql(
        "CREATE INDEX ix_box_redactions_document_id ON box_redactions (document_id)")


def _v5_to_v6(conn: Connection) -> None:
    """v6: the reviewable cells of tables (issue 28), so their spans are stored."""
    conn.exec_driver_sql(
        "CREATE TABLE table_cells ("
        " document_id VARCHAR NOT NULL REFERENCES documents (id) ON DELETE CASCADE,"
        " start INTEGER NOT NULL, \"end\" INTEGER NOT NULL, ordinal INTEGER NOT NULL,"
        " row VARCHAR NOT NULL, \"column\" INTEGER NOT NULL, role VARCHAR NOT NULL,"
        " PRIMARY KEY (document_id, start))")
    conn.exec_driver_sql(
        "CREATE INDEX ix_table_cells_document_ordinal ON table_cells (document_id, ordinal)")


# MIGRATORS[i] takes a file from version i + 1 to i + 2.
MIGRATORS: tuple[Callable[[Connection], None], ...] = (_v1_to_v2, _v2_to_v3, _v3_to_v4,
                                                        _v4_to_v5, _v5_to_v6)
LATEST = len(MIGRATORS) + 1


def user_version(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA user_version").scalar() or 0)


def create_latest(engine: Engine) -> None:
    Base.metadata.create_all(engine)
    with engine.begin() as conn:
        for ddl in AUDIT_TRIGGERS:
            conn.exec_driver_sql(ddl)
        conn.exec_driver_sql(f"PRAGMA application_id={APPLICATION_ID}")
        conn.exec_driver_sql(f"PRAGMA user_version={LATEST}")


def create_v1(path: Path) -> None:
    """Write an empty first-version project file (for migration tests)."""
    with sqlite3.connect(path) as conn:
        conn.executescript(SCHEMA_V1)
        for ddl in AUDIT_TRIGGERS:
            conn.execute(ddl)
        conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
        conn.execute("PRAGMA user_version=1")
    conn.close()


def backup(path: Path, version: int, key: ProjectKey | None = None) -> Path:
    """A consistent copy of the project (WAL included) before it is migrated; the copy of
    an encrypted project is encrypted with the same key."""
    target = path.with_name(f"{path.name}.v{version}.bak")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.v{version}.{n}.bak")
    create_private_file(target)
    src = crypto.connect(path, key)
    dst = crypto.connect(target, key)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()
    return target


def check_application(engine: Engine, path: Path) -> None:
    with engine.connect() as conn:
        app_id = int(conn.exec_driver_sql("PRAGMA application_id").scalar() or 0)
    if app_id != APPLICATION_ID:
        raise ProjectError(f"{path}: not a ClearNote project file")


def migrate(engine: Engine, path: Path) -> Path | None:
    """Bring the file to ``LATEST``; returns the backup path when a migration ran."""
    check_application(engine, path)
    version = user_version(engine)
    if version > LATEST:
        raise ProjectError(f"{path}: written by a newer ClearNote (schema {version}, "
                           f"this version reads up to {LATEST})")
    if version == LATEST:
        return None
    if version < 1:
        raise ProjectError(f"{path}: unknown schema version {version}")
    saved = backup(path, version, key_of(engine))
    log.info("project schema %d -> %d (backup written)", version, LATEST)
    for step in range(version, LATEST):
        with engine.begin() as conn:
            MIGRATORS[step - 1](conn)
            conn.exec_driver_sql(f"PRAGMA user_version={step + 1}")
    return saved
