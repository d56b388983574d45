"""Scoring a project's reviewed spans against gold annotations."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.core.domain import ACTIVE_STATUSES, sha256_text
from engine.core.errors import UsageError
from engine.evaluation import (
    EvaluationReport,
    GoldDocument,
    GoldSpan,
    PredictedSpan,
    Prediction,
    evaluate,
    load_gold,
)
from engine.project.review_files import ANY_SCHEMA, Labels, read_brat

if TYPE_CHECKING:
    from engine.project.facade import Project


def evaluate_project(project: Project, gold_dir: str | Path, **options: Any
                     ) -> EvaluationReport:
    """Score the project's active spans against gold annotations in ``gold_dir``: gold JSONL
    files (``{"id","text","spans"}``) and/or BRAT pairs (``X.txt`` + ``X.ann``). A gold
    document matches a project document by id, else by identical text. ``options`` go to
    ``engine.evaluation.evaluate``; returns its ``EvaluationReport``."""
    folder = Path(gold_dir)
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder of gold annotations")
    gold: list[GoldDocument] = []
    for path in sorted(folder.glob("*.jsonl")):
        gold += load_gold(path)
    for ann in sorted(folder.glob("*.ann")):
        txt = ann.with_suffix(".txt")
        if not txt.is_file():
            raise UsageError(f"{ann}: the matching .txt file is missing")
        text = txt.read_text(encoding="utf-8")
        found = read_brat(ann, Labels(ANY_SCHEMA))
        gold_spans = tuple(sorted((GoldSpan(d.start, d.end, d.label, d.label.value)
                                   for d in found), key=lambda g: (g.start, g.end)))
        gold.append(GoldDocument(ann.stem, text, gold_spans))
    if not gold:
        raise UsageError(f"{folder}: no *.jsonl or *.ann gold files")
    by_text = {}
    for record in project.documents():
        if record.char_count:
            by_text[sha256_text(project.document_text(record.id))] = record.id
    known = {d.id for d in project.documents()}
    predictions: dict[str, Prediction] = {}
    for g in gold:
        doc_id = g.id if g.id in known else by_text.get(sha256_text(g.text))
        if doc_id is None:
            continue
        spans = {PredictedSpan(s.start, s.end, s.label)
                 for s in project.spans(doc_id, statuses=ACTIVE_STATUSES)}
        predictions[g.id] = Prediction(g.id, tuple(sorted(
            spans, key=lambda p: (p.start, p.end, p.label))))
    return evaluate(gold, predictions, **options)
