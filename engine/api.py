"""The façade used by the desktop app, the CLI and batch runners (and the Spark job): every
front end reaches the engine through here and ``engine.core``.

Stateless work goes through a ``Session`` (a built pipeline plus surrogate settings, reused
across documents so models load once; ``engine.session``). Project work (store, review, undo,
batch) is the ``engine.project`` package; files without a project go through ``deid_paths``.
"""

from __future__ import annotations

from engine.core.domain import DeidentifiedText, DetectionResult, Document, SurrogateMode
from engine.core.files import file_sha256
from engine.deid_files import DeidReport, deid_paths
from engine.ingest.discover import SUPPORTED_SUFFIXES
from engine.parallel import default_workers
from engine.pipeline import PipelineConfig
from engine.project import (
    DEFAULT_FORMATS,
    FORMAT_SUFFIXES,
    BatchReport,
    Project,
    ProjectSettings,
    ReviewChange,
    Services,
    evaluate_project,
    export_review,
    import_review,
    run_batch,
)
from engine.session import Session, SessionConfig, load_document
from engine.store import (
    DetectReport,
    DocumentRecord,
    DocumentStatus,
    ExportReport,
    ImportReport,
    PatientRecord,
    Statistics,
)

__all__ = [
    "Session", "SessionConfig", "PipelineConfig", "Document", "DetectionResult",
    "DeidentifiedText", "SurrogateMode", "load_document", "deid_paths", "DeidReport",
    "SUPPORTED_SUFFIXES", "file_sha256", "default_workers",
    "Project", "ProjectSettings", "Services", "evaluate_project", "run_batch", "BatchReport",
    "export_review", "import_review", "DEFAULT_FORMATS", "FORMAT_SUFFIXES", "ReviewChange",
    "DocumentStatus", "DocumentRecord", "PatientRecord", "ImportReport", "DetectReport",
    "ExportReport", "Statistics",
]
