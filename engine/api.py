"""The façade used by the desktop app, the CLI and batch runners (and the Spark job): every
front end reaches the engine through here and ``engine.core``.

Stateless work goes through a ``Session`` (a built pipeline plus surrogate settings, reused
across documents so models load once; ``engine.session``). Project work (store, review, undo,
batch) is the ``engine.project`` package; files without a project go through ``deid_paths``.
Every output file is written by ``write_outputs`` (``engine.exporters.outputs``). The
desktop asks here for page images (``render_page``) and highlight rectangles
(``span_rectangles``, the rectangles the redacted PDF burns).
"""

from __future__ import annotations

from engine.core.domain import DeidentifiedText, DetectionResult, Document, SurrogateMode
from engine.export import DeidReport, deid_paths
from engine.exporters.geometry import span_rectangles
from engine.exporters.outputs import ExportJob, Written, export_job, write_outputs
from engine.exporters.reports import KEY_COLUMNS, KEY_FILE_NAME, KEY_WARNING, REPORT_COLUMNS
from engine.ingest.discover import SUPPORTED_SUFFIXES
from engine.ingest.render import render_page
from engine.modelstore import ModelFileInfo, model_file_info
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
    "SUPPORTED_SUFFIXES", "default_workers", "render_page", "span_rectangles",
    "model_file_info", "ModelFileInfo", "ExportJob", "Written", "export_job", "write_outputs",
    "KEY_COLUMNS", "KEY_FILE_NAME", "KEY_WARNING", "REPORT_COLUMNS",
    "Project", "ProjectSettings", "Services", "evaluate_project", "run_batch", "BatchReport",
    "export_review", "import_review", "DEFAULT_FORMATS", "FORMAT_SUFFIXES", "ReviewChange",
    "DocumentStatus", "DocumentRecord", "PatientRecord", "ImportReport", "DetectReport",
    "ExportReport", "Statistics",
]
