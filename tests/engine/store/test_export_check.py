"""An export that asks: per document to export, undecided candidates and HIGH CIRE flags
(CIRE run for documents nobody assessed), the settled subset, and the audit of "export
anyway"."""

from __future__ import annotations

import json
from pathlib import Path

from engine.core.domain import SpanStatus
from engine.core.labels import Label
from engine.pipeline import PipelineConfig
from engine.project import Project

TEXT = ("Patient: Harold Finch, seen on 03/14/2021, phone 403-555-0199.\n"
        "He takes metformin 500 mg twice daily for type 2 diabetes.\n")


def test_plan_counts_open_work_and_export_anyway_is_audited(tmp_path: Path) -> None:
    for name in ("a", "b", "c"):  # distinct bytes: imports are deduplicated by hash
        (tmp_path / f"{name}.txt").write_text(TEXT + f"Note {name}.\n", encoding="utf-8")
    with Project.create(tmp_path / "p.clearnote", pipeline=PipelineConfig(ner=False)) as project:
        project.import_paths(sorted(tmp_path.glob("*.txt")))
        ids = list(project.detect().detected)
        a, b, c = ids
        for span in project.spans(a):  # a: every candidate decided
            project.set_span_status(span.id, SpanStatus.ACCEPTED)
        for span in project.spans(c):
            project.set_span_status(span.id, SpanStatus.ACCEPTED)
        start = TEXT.index("metformin")  # c: a reviewer's slip CIRE flags HIGH
        project.add_manual_span(c, start, start + len("metformin"), Label.PERSON)
        undecided_b = sum(1 for s in project.spans(b) if s.status is SpanStatus.CANDIDATE)
        assert undecided_b > 0

        plan = project.export_plan(ids)
        assert plan.document_ids == tuple(ids)
        by_id = {w.document_id: w for w in plan.open}
        assert set(by_id) == {b, c}
        assert by_id[b].undecided == undecided_b and by_id[b].cire_high == 0
        assert by_id[c].undecided == 0 and by_id[c].cire_high >= 1
        assert plan.settled == (a,)

        project.record_export_anyway(plan.open)
        entries = project.audit_log(actions=["export.confirmed_open"])
        assert {e.document_id for e in entries} == {b, c}
        detail = json.loads(next(e.detail for e in entries if e.document_id == b) or "{}")
        assert detail == {"cire_high": 0, "undecided": undecided_b}
        assert "Finch" not in " ".join(str(e.detail) for e in entries)
