"""The façade used by the desktop app, the CLI and batch runners (and the Spark job): every
front end reaches the engine through here and ``engine.core``.

Stateless work goes through a ``Session`` (a built pipeline plus surrogate settings, reused
across documents so models load once; ``engine.session``). Project work (store, review, undo,
batch) is the ``engine.project`` package; running files (``run_files``) goes through
``engine.runs``, into a folder (``FolderSink``) or a project (``ProjectSink``).
Every output file is written by ``write_outputs`` (``engine.exporters.outputs``). The
desktop asks here for page images (``render_page``) and highlight boxes (``page_frames``,
``span_page_boxes``: the one span-to-page-box function, the boxes the redacted PDF burns).

Names are resolved on first use (PEP 562 ``__getattr__`` over ``_LAZY``): ``clearnote
detect`` on text must not pay for SQLAlchemy, the exporters or the PDF stack it never
uses. The ``TYPE_CHECKING`` block names the same imports for mypy and for the layering
test (tests/test_layering.py checks that the two lists agree).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.domain import DeidentifiedText, DetectionResult, Document, SurrogateMode
from engine.core.lazy import lazy_attributes

if TYPE_CHECKING:
    from engine.cire import LlamaJudge, assess
    from engine.detectors.llm import settings_for
    from engine.evaluation import evaluate, load_gold, load_predictions
    from engine.exporters.geometry import (
        PageBox,
        PageFrame,
        page_frames,
        span_page_boxes,
    )
    from engine.exporters.outputs import (
        DEFAULT_FORMATS,
        FORMAT_SUFFIXES,
        ExportJob,
        Written,
        export_job,
        write_outputs,
    )
    from engine.exporters.reports import KEY_COLUMNS, KEY_FILE_NAME, KEY_WARNING, REPORT_COLUMNS
    from engine.ingest.discover import SUPPORTED_SUFFIXES, discover_inputs
    from engine.ingest.render import render_page
    from engine.modelstore import (
        ModelFileInfo,
        add_model,
        list_models,
        model_file_info,
        registry_path,
        verify_model,
    )
    from engine.parallel import default_workers, detect_in_order
    from engine.pipeline import PipelineConfig
    from engine.profile import EntrySource, PhiEntry, PhiKind, Profile, VocabEntry
    from engine.project import (
        ExportPlan,
        OpenWork,
        Project,
        ProjectSettings,
        ReviewChange,
        Services,
        evaluate_project,
        export_review,
        import_review,
    )
    from engine.project.adaptation import AdaptReport
    from engine.project.adaptation_summary import LearningSummary
    from engine.project.profile_file import read_profile_file
    from engine.project.report import ProjectReport, build_report
    from engine.project.report_html import report_html, write_report
    from engine.project.table_review import MAX_REVIEW_ROWS
    from engine.project.tables import is_table_media, is_table_path
    from engine.runs.driver import run_files
    from engine.runs.folder import FolderSink
    from engine.runs.outcome import FileOutcome, RunReport
    from engine.runs.project import ProjectSink
    from engine.runs.project_tables import (
        export_project_tables,
        export_project_with_tables,
        import_table,
        preview_project_table,
    )
    from engine.runs.table_review import export_table_review
    from engine.runtimes import get_llama_runtime
    from engine.session import Session, SessionConfig, SessionServices, load_document
    from engine.store import (
        BoxRedaction,
        DetectReport,
        DocumentRecord,
        DocumentStatus,
        ExportReport,
        ImportReport,
        PatientRecord,
        Statistics,
    )
    from engine.tables.preview import TABLE_ROLES, TablePreview, preview_table, role_help
    from engine.tables.run import infer_schema
    from engine.tables.schema import TableSchema, read_schema, schema_with_roles

# name -> the module that defines it, imported when the name is first read.
_LAZY: dict[str, str] = {
    **dict.fromkeys(("LlamaJudge", "assess"), "engine.cire"),
    "settings_for": "engine.detectors.llm",
    **dict.fromkeys(("evaluate", "load_gold", "load_predictions"), "engine.evaluation"),
    **dict.fromkeys(("PageBox", "PageFrame", "page_frames", "span_page_boxes"),
                    "engine.exporters.geometry"),
    **dict.fromkeys(("DEFAULT_FORMATS", "FORMAT_SUFFIXES", "ExportJob", "Written",
                     "export_job", "write_outputs"), "engine.exporters.outputs"),
    **dict.fromkeys(("KEY_COLUMNS", "KEY_FILE_NAME", "KEY_WARNING", "REPORT_COLUMNS"),
                    "engine.exporters.reports"),
    **dict.fromkeys(("SUPPORTED_SUFFIXES", "discover_inputs"), "engine.ingest.discover"),
    "render_page": "engine.ingest.render",
    **dict.fromkeys(("ModelFileInfo", "add_model", "list_models", "model_file_info",
                     "registry_path", "verify_model"), "engine.modelstore"),
    **dict.fromkeys(("default_workers", "detect_in_order"), "engine.parallel"),
    "PipelineConfig": "engine.pipeline",
    **dict.fromkeys(("EntrySource", "PhiEntry", "PhiKind", "Profile", "VocabEntry"),
                    "engine.profile"),
    "AdaptReport": "engine.project.adaptation",
    "LearningSummary": "engine.project.adaptation_summary",
    **dict.fromkeys(("ExportPlan", "OpenWork", "Project", "ProjectSettings", "ReviewChange",
                     "Services", "evaluate_project", "export_review", "import_review"),
                    "engine.project"),
    "run_files": "engine.runs.driver",
    "FolderSink": "engine.runs.folder",
    **dict.fromkeys(("FileOutcome", "RunReport"), "engine.runs.outcome"),
    "ProjectSink": "engine.runs.project",
    **dict.fromkeys(("export_project_tables", "export_project_with_tables", "import_table",
                     "preview_project_table"), "engine.runs.project_tables"),
    "export_table_review": "engine.runs.table_review",
    "MAX_REVIEW_ROWS": "engine.project.table_review",
    "read_profile_file": "engine.project.profile_file",
    **dict.fromkeys(("ProjectReport", "build_report"), "engine.project.report"),
    **dict.fromkeys(("is_table_media", "is_table_path"), "engine.project.tables"),
    **dict.fromkeys(("report_html", "write_report"), "engine.project.report_html"),
    "get_llama_runtime": "engine.runtimes",
    "infer_schema": "engine.tables.run",
    **dict.fromkeys(("TableSchema", "read_schema", "schema_with_roles"),
                    "engine.tables.schema"),
    **dict.fromkeys(("TABLE_ROLES", "TablePreview", "preview_table", "role_help"),
                    "engine.tables.preview"),
    **dict.fromkeys(("Session", "SessionConfig", "SessionServices", "load_document"),
                    "engine.session"),
    **dict.fromkeys(("BoxRedaction", "DetectReport", "DocumentRecord", "DocumentStatus",
                     "ExportReport", "ImportReport", "PatientRecord", "Statistics"),
                    "engine.store"),
}


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY)


__all__ = [
    "Session", "SessionConfig", "PipelineConfig", "Document", "DetectionResult",
    "DeidentifiedText", "SurrogateMode", "load_document", "run_files", "RunReport",
    "FileOutcome", "FolderSink", "ProjectSink", "infer_schema", "read_schema", "TableSchema",
    "SUPPORTED_SUFFIXES", "discover_inputs", "default_workers", "detect_in_order",
    "SessionServices",
    "render_page", "PageBox", "PageFrame", "page_frames", "span_page_boxes",
    "model_file_info", "ModelFileInfo", "ExportJob", "Written", "export_job", "write_outputs",
    "KEY_COLUMNS", "KEY_FILE_NAME", "KEY_WARNING", "REPORT_COLUMNS",
    "Project", "ProjectSettings", "Services", "evaluate_project", "ExportPlan", "OpenWork",
    "BoxRedaction",
    "export_review", "import_review", "DEFAULT_FORMATS", "FORMAT_SUFFIXES", "ReviewChange",
    "DocumentStatus", "DocumentRecord", "PatientRecord", "ImportReport", "DetectReport",
    "ExportReport", "Statistics", "read_profile_file",
    # what a project learned (issue 25): the desktop's banner and "What ClearNote learned"
    "AdaptReport", "LearningSummary", "EntrySource", "PhiEntry", "PhiKind", "Profile",
    "VocabEntry",
    # for the CLI's model, evaluation and CIRE commands (front ends import api and core only)
    "add_model", "list_models", "registry_path", "verify_model", "evaluate", "load_gold",
    "load_predictions", "LlamaJudge", "assess", "settings_for", "get_llama_runtime",
    # the de-identification report (issue 27): counts and ids, never PHI
    "ProjectReport", "build_report", "report_html", "write_report",
    # tables through a project (issue 28)
    "export_project_tables", "export_table_review",
    # the desktop's table roles dialog and table view (issue 28)
    "TABLE_ROLES", "TablePreview", "preview_table", "role_help", "schema_with_roles",
    "import_table", "preview_project_table", "is_table_media", "is_table_path",
    "export_project_with_tables", "MAX_REVIEW_ROWS",
]
