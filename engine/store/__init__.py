"""The project store: one SQLite file per project (``*.clearnote``), SQLAlchemy 2.0.

``Database`` (engine + units of work), ``migrations`` (versions, backups), ``repositories``
(queries), ``StoreSurrogateMap`` (the consistent surrogate registry) and the frozen
``records`` handed to callers. The service on top is ``engine.project.Project``.
"""

from __future__ import annotations

from engine.store.db import Database
from engine.store.migrations import LATEST as SCHEMA_VERSION
from engine.store.records import (
    AuditEntry,
    DetectReport,
    DocumentRecord,
    DocumentStatus,
    ExportedDocument,
    ExportReport,
    ImportFailure,
    ImportReport,
    PatientRecord,
    PatientSuggestion,
    ReviewImportReport,
    Statistics,
)
from engine.store.surrogate_map import StoreSurrogateMap

__all__ = [
    "SCHEMA_VERSION", "AuditEntry", "Database", "DetectReport", "DocumentRecord",
    "DocumentStatus", "ExportReport", "ExportedDocument", "ImportFailure", "ImportReport",
    "PatientRecord", "PatientSuggestion", "ReviewImportReport", "Statistics",
    "StoreSurrogateMap",
]
