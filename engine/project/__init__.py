"""The Project service as a package: ``Project`` (the façade, ``facade.py``) over the
modules that do the work on a shared ``ProjectState``:

    settings    ProjectSettings, export formats, file names
    services    what a project calls out to (session, loader, writers); replaceable in tests
    queries     documents, text, spans, audit log, statistics
    recording   imports and detection runs stored from worker results
    review      decisions on spans, undo/redo
    patients    patients and de-identification under a patient
    retention   CIRE flags of stored documents
    export      files per document, report.csv, the key, WriteGroup (many documents per commit)
    export_check  before an export: undecided candidates and HIGH CIRE flags per document
    review_io   review without the GUI (BRAT / JSONL out and back)
    evaluate    scores against gold annotations
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.lazy import lazy_attributes

if TYPE_CHECKING:
    from engine.project.evaluate import evaluate_project
    from engine.project.export import WriteGroup
    from engine.project.export_check import ExportPlan, OpenWork
    from engine.project.facade import Project
    from engine.project.review_io import export_review, import_review
    from engine.project.services import ExportJob, Services
    from engine.project.settings import DEFAULT_FORMATS, FORMAT_SUFFIXES, ProjectSettings
    from engine.store.review import ReviewChange

# Lazy (engine.core.lazy): settings are read without the store or the
# evaluation code, each of which the desktop needs only once a project is open.
__getattr__, __dir__ = lazy_attributes(__name__, {
    "evaluate_project": "engine.project.evaluate",
    "WriteGroup": "engine.project.export",
    **dict.fromkeys(("ExportPlan", "OpenWork"), "engine.project.export_check"),
    "Project": "engine.project.facade",
    **dict.fromkeys(("export_review", "import_review"), "engine.project.review_io"),
    **dict.fromkeys(("ExportJob", "Services"), "engine.project.services"),
    **dict.fromkeys(("DEFAULT_FORMATS", "FORMAT_SUFFIXES", "ProjectSettings"),
                    "engine.project.settings"),
    "ReviewChange": "engine.store.review",
})

__all__ = [
    "DEFAULT_FORMATS", "FORMAT_SUFFIXES", "ExportJob", "ExportPlan", "OpenWork", "Project",
    "ProjectSettings", "ReviewChange", "Services", "WriteGroup", "evaluate_project",
    "export_review", "import_review",
]
