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
    batch       `clearnote batch`: import → detect → export, resumable
    review_io   review without the GUI (BRAT / JSONL out and back)
    evaluate    scores against gold annotations
"""

from __future__ import annotations

from engine.project.batch import BatchReport, run_batch
from engine.project.evaluate import evaluate_project
from engine.project.export import WriteGroup
from engine.project.facade import Project
from engine.project.review_io import export_review, import_review
from engine.project.services import ExportJob, Services
from engine.project.settings import DEFAULT_FORMATS, FORMAT_SUFFIXES, ProjectSettings
from engine.store.review import ReviewChange

__all__ = [
    "DEFAULT_FORMATS", "FORMAT_SUFFIXES", "BatchReport", "ExportJob", "Project",
    "ProjectSettings", "ReviewChange", "Services", "WriteGroup", "evaluate_project",
    "export_review", "import_review", "run_batch",
]
