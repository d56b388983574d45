"""Tables in a project (EHR extracts: CSV, TSV, Parquet, XLSX, JSON Lines).

A table is one document of the project: its media type says the format, it holds no text
of its own (its rows stay in the source file, checked by sha256 when it is exported) and
no patient of its own, since its rows belong to many. Each row's patient is a patient of
the project: a row's MRN or name + date of birth joins the patient of notes that hold
them, else a new patient; the row's keyed digests are recorded as that patient's keys
(``list_keys``, as a patient list's are), so notes detected later join the same patient
and get the same surrogates and date shift. The rows themselves are streamed through
``engine.tables`` by the runs layer above (``engine.runs.project_tables``); this module
keeps what the project stores.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.domain import Document
from engine.core.errors import InputError, UsageError
from engine.core.files import file_sha256
from engine.project.state import ProjectState
from engine.store import patients as pat
from engine.store import profiles
from engine.store import repositories as repo
from engine.store.models import DocumentRow, SettingRow
from engine.tables.schema import TableSchema, parse_schema

# Suffix -> media type of the table formats (engine.tables reads and writes them).
TABLE_MEDIA = {
    ".csv": "text/csv",
    ".tsv": "text/tab-separated-values",
    ".parquet": "application/vnd.apache.parquet",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".jsonl": "application/jsonl",
}


def is_table_path(path: str | Path) -> bool:
    return Path(path).suffix.lower() in TABLE_MEDIA


def is_table_media(media_type: str) -> bool:
    return media_type in TABLE_MEDIA.values()


def _schema_key(document_id: str) -> str:
    return f"table.schema.{document_id}"


def record_table(state: ProjectState, document_id: str, source: Path, sha256: str, *,
                 schema: str | None = None) -> bool:
    """The table as an imported document (no text, no patient), with the roles a person
    confirmed (``schema``: the text `clearnote table-schema` writes, read by the runs
    layer at export) in the same transaction; False if already there (confirmed roles,
    when given, replace the stored ones)."""
    with state.db.write() as s:
        if schema is not None:
            repo.put_setting(s, _schema_key(document_id), schema)
        if s.get(DocumentRow, document_id) is not None:
            return False
        media = TABLE_MEDIA[source.suffix.lower()]
        doc = Document(text="", id=document_id, source_path=str(source), media_type=media)
        repo.add_document(s, doc, file_sha256=sha256, source_path=str(source))
        repo.audit(s, "document.imported", document_id=document_id, count=0,
                   media_type=media)
        return True


def link_row(state: ProjectState, table_id: str, keys: set[tuple[str, str]]) -> str:
    """The patient of a table row with these (kind, digest) keys: the first patient
    whose documents or earlier rows share one, else a new patient; its keys recorded."""
    with state.db.write() as s:
        patient, created = pat.find_patient(s, table_id, keys)
        assert patient is not None  # keys is not empty
        profiles.add_list_keys(s, patient, keys)
    if created:
        state.surrogate_map.known_empty(patient)
    return patient


def table_schema(state: ProjectState, document_id: str) -> str | None:
    """The roles confirmed for the table at import (schema text), or None: inferred."""
    with state.db.read() as s:
        row = s.get(SettingRow, _schema_key(document_id))
    value = json.loads(row.value) if row is not None else None
    return value if isinstance(value, str) else None


def check_source(state: ProjectState, document_id: str, source: Path) -> None:
    """The table's rows are read from its source: it must hold the imported bytes."""
    try:
        current = file_sha256(source)
    except OSError:
        raise InputError(source, "the table cannot be read where it was imported from"
                         ) from None
    if current != _sha256_of(state, document_id):
        raise InputError(source, "the table changed since it was imported; import it "
                                 "again")


def stored_schema(state: ProjectState, document_id: str) -> TableSchema | None:
    """The roles confirmed for the table at import, or None (inferred at export)."""
    text = table_schema(state, document_id)
    return None if text is None else parse_schema(
        text, f"the roles stored for table {document_id}")


def _sha256_of(state: ProjectState, document_id: str) -> str:
    with state.db.read() as s:
        row = s.get(DocumentRow, document_id)
    if row is None:
        raise UsageError(f"unknown document id {document_id}")
    return row.sha256
