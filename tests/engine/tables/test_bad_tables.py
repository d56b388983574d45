"""Bad workbooks and Parquet files (CSV's own cases are in test_csv.py, JSON Lines' in
test_jsonl.py): each refused with a message naming the file, the sheet, row or column,
through `clearnote deid`, and nothing partial in the output folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli.main import main

RULES = ["--no-ner", "--no-progress", "--workers", "1"]


def _refused(tmp_path: Path, src: Path, capsys: pytest.CaptureFixture[str]) -> str:
    out = tmp_path / "out"
    assert main(["deid", str(src), "--output-dir", str(out), *RULES]) == 1
    assert not [p for p in out.iterdir() if ".deid." in p.name or p.name.startswith(".")]
    err = capsys.readouterr().err
    assert f"failed: {src.name} [" in err
    return err


def test_a_password_protected_workbook_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("openpyxl")
    src = tmp_path / "locked.xlsx"  # Excel encrypts into an OLE compound file, not a ZIP
    src.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504)
    assert "password-protected or not an XLSX workbook" in _refused(tmp_path, src, capsys)


@pytest.mark.parametrize(("header", "rows", "problem"), [
    (["mrn", "name", "mrn"], [], "sheet 'Visits', header, columns 1 and 3: the same name"),
    (["mrn", None, "note"], [], "sheet 'Visits', header, column 2: the column has no name"),
    (["mrn", "name"], [["1234567", "Ottilie Brannagh", "extra"]],
     "sheet 'Visits', row 2: 3 cells where the header has 2 columns"),
])
def test_bad_sheets_name_sheet_row_and_column(tmp_path: Path, header: list[str | None],
                                              rows: list[list[str]], problem: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.title = "Visits"
    book.active.append(header)
    for row in rows:
        book.active.append(row)
    book.save(tmp_path / "bad.xlsx")
    assert problem in _refused(tmp_path, tmp_path / "bad.xlsx", capsys)


def test_parquet_with_a_repeated_column_name_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.Table.from_arrays([pa.array(["1234567"]), pa.array(["Ottilie Brannagh"]),
                                  pa.array(["7654321"])], names=["mrn", "name", "MRN"])
    pq.write_table(table, tmp_path / "bad.parquet")
    err = _refused(tmp_path, tmp_path / "bad.parquet", capsys)
    assert "header, columns 1 and 3: the same name twice" in err


def test_not_a_parquet_file_is_refused(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyarrow")
    src = tmp_path / "broken.parquet"
    src.write_bytes(b"PAR1" + b"\x00" * 64)
    assert "not a readable Parquet file" in _refused(tmp_path, src, capsys)


def test_a_huge_parquet_cell_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """As a CSV's (test_csv.py): the 1 M character limit, lowered here to keep it quick."""
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from engine.tables import csvio

    monkeypatch.setattr(csvio, "MAX_CELL_CHARS", 1000)
    pq.write_table(pa.table({"mrn": ["1234567", "7654321"], "note": ["short", "x" * 2000]}),
                   tmp_path / "big.parquet")
    err = _refused(tmp_path, tmp_path / "big.parquet", capsys)
    assert "row 2, column 2: a cell longer than 1000 characters" in err
