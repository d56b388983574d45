"""The project store: one SQLite file per project (``*.clearnote``), SQLAlchemy 2.0.

``Database`` (engine + units of work), ``migrations`` (versions, backups), ``repositories``
(queries), ``StoreSurrogateMap`` (the consistent surrogate registry) and the frozen
``records`` handed to callers. The service on top is ``engine.project.Project``.

Concurrency (not in DESIGN.md): several processes may open one project (the desktop and a
CLI batch), but SQLite lets one write transaction run at a time, and the store relies on it.
A batch writes through ``Project.write_group`` (up to 32 documents or 0.25 s per
transaction, a savepoint per document); each export calls ``StoreSurrogateMap.sync`` once
its write transaction holds the lock, so a cache filled before another process added
surrogates is read again and both processes write the same surrogate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.lazy import lazy_attributes

if TYPE_CHECKING:
    from engine.store.db import Database
    from engine.store.migrations import LATEST as SCHEMA_VERSION
    from engine.store.records import (
        AuditEntry,
        BoxRedaction,
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

# Lazy (engine.core.lazy): the records are plain dataclasses; only Database and the
# surrogate map need SQLAlchemy, which costs a quarter of a second to import.
__getattr__, __dir__ = lazy_attributes(__name__, {
    "Database": "engine.store.db",
    "SCHEMA_VERSION": "engine.store.migrations:LATEST",
    **dict.fromkeys(("AuditEntry", "BoxRedaction", "DetectReport", "DocumentRecord",
                     "DocumentStatus", "ExportedDocument", "ExportReport", "ImportFailure",
                     "ImportReport", "PatientRecord", "PatientSuggestion", "ReviewImportReport",
                     "Statistics"),
                    "engine.store.records"),
    "StoreSurrogateMap": "engine.store.surrogate_map",
})

__all__ = [
    "SCHEMA_VERSION", "AuditEntry", "BoxRedaction", "Database", "DetectReport", "DocumentRecord",
    "DocumentStatus", "ExportReport", "ExportedDocument", "ImportFailure", "ImportReport",
    "PatientRecord", "PatientSuggestion", "ReviewImportReport", "Statistics",
    "StoreSurrogateMap",
]
