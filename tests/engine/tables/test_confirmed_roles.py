"""Roles a person confirmed (the desktop's dialog) travel with the table: ``import_table``
stores them in the project and ``project export`` and the review export use them instead of
inferring; ``preview_table`` reads only the first rows a person looks at."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from engine.api import (
    TABLE_ROLES,
    PipelineConfig,
    Project,
    export_project_tables,
    export_table_review,
    import_table,
    infer_schema,
    preview_project_table,
    preview_table,
    role_help,
    schema_with_roles,
)
from engine.core.errors import UsageError
from tests.engine.tables.extract import HEADER, write_extract

SECRET = b"tables-confirmed-roles-0123456789"
PIPELINE = PipelineConfig(policy="hipaa", ner=False)


def test_a_preview_reads_the_first_rows_with_the_inferred_roles(tmp_path: Path) -> None:
    src = tmp_path / "extract.csv"
    people = write_extract(src, n_patients=6, visits=2)
    preview = preview_table(src, rows=5)
    assert preview.schema == infer_schema(src)
    assert preview.schema.columns == tuple(HEADER)
    assert len(preview.rows) == 5 and preview.more
    assert preview.samples(0) == [p.mrn for p in people[:3]]
    whole = preview_table(src, rows=100)
    assert len(whole.rows) == 12 and not whole.more
    assert [r.value for r in TABLE_ROLES][:2] == ["patient-key", "name"]
    assert "byte for byte" in role_help("keep")


def test_a_schema_from_edited_roles_is_checked() -> None:
    schema = schema_with_roles(["a", "b"], ["keep", "drop"])
    assert [r.value for r in schema.roles] == ["keep", "drop"]
    with pytest.raises(UsageError, match="unknown column role"):
        schema_with_roles(["a"], ["secret"])
    with pytest.raises(UsageError, match="1 roles for 2 columns"):
        schema_with_roles(["a", "b"], ["keep"])


def _column(path: Path, name: str) -> list[str]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [row[name] for row in csv.DictReader(handle)]


def test_confirmed_roles_are_stored_and_used_at_export(tmp_path: Path) -> None:
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=3, visits=1)
    inferred = infer_schema(src)
    clinical = HEADER[6]  # a lab value: inferred keep, confirmed drop
    roles = ["drop" if c == clinical else r.value
             for c, r in zip(inferred.columns, inferred.roles, strict=True)]
    confirmed = schema_with_roles(inferred.columns, roles)
    assert confirmed != inferred
    path = tmp_path / "p.clearnote"
    with Project.create(path, policy="hipaa", pipeline=PIPELINE, secret=SECRET) as project:
        report = import_table(project, src, confirmed)
        [doc_id] = report.imported
    with Project.open(path) as project:  # stored in the project, not in memory
        assert preview_project_table(project, doc_id, rows=2).schema == confirmed
        export_project_tables(project, None, tmp_path / "out")
    [out] = (tmp_path / "out").glob("*.deid.csv")
    assert _column(out, clinical) == ["", "", ""]
    assert _column(src, clinical) != ["", "", ""]


def test_importing_the_same_table_again_replaces_its_roles(tmp_path: Path) -> None:
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=2, visits=1)
    inferred = infer_schema(src)
    drop_all = schema_with_roles(inferred.columns, ["drop"] * len(inferred.columns))
    with Project.create(tmp_path / "p.clearnote", pipeline=PIPELINE, secret=SECRET) as project:
        [doc_id] = project.import_paths([src]).imported
        assert project.table_schema(doc_id) is None  # inferred at export
        again = import_table(project, src, drop_all)
        assert again.duplicates == (doc_id,)
        assert preview_project_table(project, doc_id).schema == drop_all
        # the review export reads the stored roles too: no free-text column, no cells
        [review] = export_table_review(project, tmp_path / "review", fmt="jsonl")
        assert review.read_text(encoding="utf-8") == ""
