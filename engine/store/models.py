"""SQLAlchemy 2.0 rows of a project file. Never handed to callers: see records.py.

Schema version 6 (see migrations.py for the history). Text columns hold enum values
(``SpanStatus.value`` ...) so the file stays readable with the sqlite3 shell.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


def table_of(model: type[Base]) -> Table:
    """The Core table of a model, for the statements built on tables (cheaper than
    ORM-enabled ones). ``__table__`` is typed as any selectable; every model here is
    declared with ``__tablename__``, so it is a ``Table``."""
    table = model.__table__
    if not isinstance(table, Table):
        raise TypeError(f"{model.__name__} is not mapped to a table")
    return table


class SettingRow(Base):
    """Key → JSON value: policy, mode, pipeline options, detector versions, secret."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String, primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class PatientRow(Base):
    __tablename__ = "patients"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)  # a pseudonymous label such as "P0003"
    created_at: Mapped[float] = mapped_column(Float)


class DocumentRow(Base):
    __tablename__ = "documents"
    id: Mapped[str] = mapped_column(String, primary_key=True)  # sha256 prefix: stable
    source_path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String, unique=True)  # of the file bytes
    media_type: Mapped[str] = mapped_column(String, default="text/plain")
    page_count: Mapped[int] = mapped_column(Integer, default=0)
    char_count: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String, index=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)  # never PHI
    patient_id: Mapped[str | None] = mapped_column(
        ForeignKey("patients.id", ondelete="SET NULL"), nullable=True, index=True)
    patient_confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    # The text decoding was uncertain or replaced characters (schema v3): shown until a
    # person has looked, and kept across reopening.
    needs_review: Mapped[bool] = mapped_column(Boolean, default=False)
    imported_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)


class ContentRow(Base):
    """Extracted text and geometry; a separate table so document lists stay light."""

    __tablename__ = "document_content"
    document_id: Mapped[str] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    pages: Mapped[str] = mapped_column(Text, default="[]")  # JSON
    boxes: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)  # geometry.py
    confidences: Mapped[str] = mapped_column(Text, default="[]")
    warnings: Mapped[str] = mapped_column(Text, default="[]")


class RunRow(Base):
    __tablename__ = "detection_runs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    document_id: Mapped[str] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    detectors: Mapped[str] = mapped_column(Text)  # JSON list of "id@version"
    policy: Mapped[str] = mapped_column(String)
    span_count: Mapped[int] = mapped_column(Integer)
    allowlisted: Mapped[int] = mapped_column(Integer, default=0)
    seconds: Mapped[float] = mapped_column(Float, default=0.0)
    created_at: Mapped[float] = mapped_column(Float)


class SpanRow(Base):
    __tablename__ = "spans"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    document_id: Mapped[str] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    run_id: Mapped[int | None] = mapped_column(
        ForeignKey("detection_runs.id", ondelete="SET NULL"), nullable=True)
    start: Mapped[int] = mapped_column(Integer)
    end: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String)
    subtype: Mapped[str | None] = mapped_column(String, nullable=True)
    source: Mapped[str] = mapped_column(String)
    detector: Mapped[str] = mapped_column(String, default="")
    evidence: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of "id@version"
    confidence: Mapped[float] = mapped_column(Float, default=1.0)
    status: Mapped[str] = mapped_column(String)
    updated_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_spans_document_start", "document_id", "start"),)


class PatientKeyRow(Base):
    """Keyed digests (HMAC with the project secret) of a document's identifiers, used to
    suggest patient links without storing the identifiers a second time."""

    __tablename__ = "patient_keys"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    document_id: Mapped[str] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String)  # MRN, PHN, HCN, ULI, NAME_DOB
    digest: Mapped[str] = mapped_column(String, index=True)

    __table_args__ = (UniqueConstraint("document_id", "kind", "digest"),)


class SurrogateRow(Base):
    """patient, label, HMAC(normalised original) → surrogate: the consistency registry."""

    __tablename__ = "surrogates"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    patient: Mapped[str] = mapped_column(String)
    label: Mapped[str] = mapped_column(String)
    key_digest: Mapped[str] = mapped_column(String)
    surrogate: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)

    __table_args__ = (UniqueConstraint("patient", "label", "key_digest"),)


class CireFlagRow(Base):
    """Placeholder for the CIRE issue: one flag on a replacement of a document."""

    __tablename__ = "cire_flags"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    document_id: Mapped[str] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    span_id: Mapped[str | None] = mapped_column(String, nullable=True)
    severity: Mapped[str] = mapped_column(String)
    kind: Mapped[str] = mapped_column(String)
    detail: Mapped[str] = mapped_column(Text, default="{}")  # JSON, no PHI
    created_at: Mapped[float] = mapped_column(Float)


class ExportRow(Base):
    __tablename__ = "exports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    document_id: Mapped[str] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(Text)
    format: Mapped[str] = mapped_column(String)
    sha256: Mapped[str] = mapped_column(String)
    created_at: Mapped[float] = mapped_column(Float)


class ReviewActionRow(Base):
    """The persistent undo/redo history (schema v2). Payloads hold ids and statuses only."""

    __tablename__ = "review_actions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String)
    payload: Mapped[str] = mapped_column(Text)  # JSON
    undone: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[float] = mapped_column(Float)


class ProfileVersionRow(Base):
    """A version of what the project learned (schema v4): the profile's canonical JSON
    (engine.profile), kept so that undo returns to an earlier one. Holds PHI (names), like
    the documents: only inside the (encrypted) project."""

    __tablename__ = "profile_versions"
    version: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    content_version: Mapped[str] = mapped_column(String)  # digest of the body
    body: Mapped[str] = mapped_column(Text)
    note: Mapped[str] = mapped_column(String)  # adapt, remove, revert
    counts: Mapped[str] = mapped_column(Text, default="{}")  # JSON, no PHI
    created_at: Mapped[float] = mapped_column(Float)


class ListEntryRow(Base):
    """A name, place or ward from an imported list (schema v4); a patient list's rows are
    tied to their patient."""

    __tablename__ = "list_entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String)  # engine.profile.PhiKind value
    text: Mapped[str] = mapped_column(Text)
    patient_id: Mapped[str | None] = mapped_column(
        ForeignKey("patients.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)


class ListKeyRow(Base):
    """Keyed digests of a listed patient's identifiers (MRN, name + date of birth), so that
    a document naming them joins that patient (schema v4)."""

    __tablename__ = "list_keys"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    patient_id: Mapped[str] = mapped_column(ForeignKey("patients.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String)
    digest: Mapped[str] = mapped_column(String, index=True)

    __table_args__ = (UniqueConstraint("patient_id", "kind", "digest"),)


class BoxRedactionRow(Base):
    """A rectangle a reviewer drew on a page to redact (schema v5): a signature, a logo, a
    stamp. In the upright page's view space (``engine.ingest.frames``). Never deleted:
    removing it (or undoing its drawing) sets ``active`` false, as undo needs."""

    __tablename__ = "box_redactions"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    document_id: Mapped[str] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), index=True)
    page: Mapped[int] = mapped_column(Integer)
    x0: Mapped[float] = mapped_column(Float)
    y0: Mapped[float] = mapped_column(Float)
    x1: Mapped[float] = mapped_column(Float)
    y1: Mapped[float] = mapped_column(Float)
    active: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[float] = mapped_column(Float)


class TableCellRow(Base):
    """A reviewable cell of a table document (schema v6): where its value lies in the
    table's review text (``ContentRow.text``, the reviewable cells one after another), so
    the cell's spans are stored and decided as a document's are. ``ordinal``: the data row
    in reading order over the whole table (every sheet); ``row``: its name ("r12", "s2r12"
    on a workbook's second sheet); ``column``: 0-based, with its role. Offsets only, no values."""

    __tablename__ = "table_cells"
    document_id: Mapped[str] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True)
    start: Mapped[int] = mapped_column(Integer, primary_key=True)
    end: Mapped[int] = mapped_column(Integer)
    ordinal: Mapped[int] = mapped_column(Integer)
    row: Mapped[str] = mapped_column(String)
    column: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String)  # the column's role ("name", "free-text")

    __table_args__ = (Index("ix_table_cells_document_ordinal", "document_id", "ordinal"),)


class AuditRow(Base):
    """Append-only (SQLite triggers refuse UPDATE and DELETE). Never holds PHI text."""

    __tablename__ = "audit_log"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    who: Mapped[str] = mapped_column(String)
    action: Mapped[str] = mapped_column(String)
    document_id: Mapped[str | None] = mapped_column(String, nullable=True)
    span_id: Mapped[str | None] = mapped_column(String, nullable=True)
    label: Mapped[str | None] = mapped_column(String, nullable=True)
    start: Mapped[int | None] = mapped_column(Integer, nullable=True)
    end: Mapped[int | None] = mapped_column(Integer, nullable=True)
    count: Mapped[int | None] = mapped_column(Integer, nullable=True)
    detail: Mapped[str] = mapped_column(Text, default="{}")  # JSON: statuses, keys, formats
