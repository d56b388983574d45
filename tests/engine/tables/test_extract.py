"""Issue 28's acceptance extract: 50 patients × 4 visits through `clearnote deid FILE.csv
--output-dir OUT --policy hipaa`."""

from __future__ import annotations

import csv
import re
from datetime import date
from pathlib import Path

import pytest

from engine.cli.main import main
from tests.engine.tables.extract import CLINICAL, HEADER, write_extract

SECRET = "tables-acceptance-0123456789abcdef"
RESTRICTED = {"036", "059", "063", "102", "203", "556", "692", "790", "821", "823", "830",
              "831", "878", "879", "884", "890", "893"}


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_acceptance_extract(tmp_path: Path) -> None:
    src = tmp_path / "extract.csv"
    people = write_extract(src)
    out = tmp_path / "out"
    # A fixed secret: with a random one a surrogate first name can, once in a while, be
    # another patient's real one ("no original identifier anywhere" would then fail).
    (tmp_path / "secret").write_text(SECRET, encoding="utf-8")
    assert main(["deid", str(src), "--output-dir", str(out), "--policy", "hipaa",
                 "--no-ner", "--no-progress", "--workers", "1",
                 "--secret-file", str(tmp_path / "secret")]) == 0
    [table] = list(out.glob("*.deid.csv"))
    before, after = _rows(src), _rows(table)
    raw_before = src.read_bytes().split(b"\r\n")
    raw_after = table.read_bytes().split(b"\r\n")
    assert raw_after[0] == raw_before[0] and len(raw_after) == len(raw_before)  # header, rows
    assert list(after[0]) == HEADER and len(after) == len(before) == 200
    text = table.read_text(encoding="utf-8")

    for person in people:  # no original identifier anywhere
        for value in (person.mrn, person.first, person.last, person.phone):
            assert not re.search(rf"\b{re.escape(value)}\b", text), "an identifier survived"
    by_patient: dict[str, set[tuple[str, str]]] = {}
    for old, new in zip(before, after, strict=True):
        for column in CLINICAL:
            assert new[column] == old[column]
        for column in ("dob", "visit_date", "zip", "phone", "mrn", "patient_name"):
            assert old[column] not in new.values()
        by_patient.setdefault(old["mrn"], set()).add((new["patient_name"], new["mrn"]))
        name, mrn = new["patient_name"], new["mrn"]
        first = name.split()[0]
        assert mrn in new["note"] and first in new["note"] and name in new["note"]
        assert re.fullmatch(r"\d{7}", mrn)  # format kept
        interval_before = date.fromisoformat(old["visit_date"]) - date.fromisoformat(old["dob"])
        interval_after = date.fromisoformat(new["visit_date"]) - date.fromisoformat(new["dob"])
        assert interval_after == interval_before and new["dob"] != old["dob"]
        zip3 = old["zip"][:3]
        assert new["zip"] == ("000" if zip3 in RESTRICTED else zip3)
    assert all(len(pairs) == 1 for pairs in by_patient.values())  # one name and MRN each
    names = [next(iter(pairs))[0] for pairs in by_patient.values()]
    assert len(set(names)) == len(names)  # different patients, different surrogates


def test_the_extract_as_parquet_gives_the_same_values(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=10, visits=2)
    rows = _rows(src)
    table = pa.table({
        "mrn": pa.array([int(r["mrn"]) for r in rows], type=pa.int64()),
        "patient_name": [r["patient_name"] for r in rows],
        "dob": pa.array([date.fromisoformat(r["dob"]) for r in rows], type=pa.date32()),
        **{c: [r[c] for r in rows] for c in ("visit_date", "zip", "phone", "hba1c",
                                              "icd10", "note")}})
    table = table.replace_schema_metadata({b"source": b"synthetic extract"})
    parquet_src = tmp_path / "extract.parquet"
    pq.write_table(table, parquet_src)
    secret = tmp_path / "secret"
    for path in (src, parquet_src):
        assert main(["deid", str(path), "--output-dir", str(tmp_path / path.suffix[1:]),
                     "--policy", "hipaa", "--no-ner", "--no-progress", "--workers", "1",
                     "--secret-file", str(secret)]) == 0
    [csv_out] = list((tmp_path / "csv").glob("*.deid.csv"))
    [parquet_out] = list((tmp_path / "parquet").glob("*.deid.parquet"))
    back = pq.read_table(parquet_out)
    assert back.schema == table.schema and back.schema.metadata == table.schema.metadata
    assert back.num_rows == len(rows)
    for want, got in zip(_rows(csv_out), back.to_pylist(), strict=True):
        assert str(got["mrn"]) == want["mrn"] and got["dob"].isoformat() == want["dob"]
        for column in ("patient_name", "visit_date", "zip", "phone", "hba1c", "icd10",
                       "note"):
            assert got[column] == want[column]


def test_the_extract_as_xlsx_gives_the_same_values_on_every_sheet(tmp_path: Path) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=10, visits=2)
    rows = _rows(src)
    book = openpyxl.Workbook()
    visits = book.active
    visits.title = "Visits"
    visits.append(HEADER)
    for r in rows:
        visits.append([int(r["mrn"]), r["patient_name"], date.fromisoformat(r["dob"]),
                       *(r[c] for c in HEADER[3:])])
    book.create_sheet("Empty")
    book.save(tmp_path / "extract.xlsx")
    secret = tmp_path / "secret"
    for path in (src, tmp_path / "extract.xlsx"):
        assert main(["deid", str(path), "--output-dir", str(tmp_path / path.suffix[1:]),
                     "--policy", "hipaa", "--no-ner", "--no-progress", "--workers", "1",
                     "--secret-file", str(secret)]) == 0
    [csv_out] = list((tmp_path / "csv").glob("*.deid.csv"))
    [xlsx_out] = list((tmp_path / "xlsx").glob("*.deid.xlsx"))
    back = openpyxl.load_workbook(xlsx_out)
    assert back.sheetnames == ["Visits", "Empty"]
    got = list(back["Visits"].iter_rows(values_only=True))
    assert list(got[0]) == HEADER and len(got) == len(rows) + 1
    for want, row in zip(_rows(csv_out), got[1:], strict=True):
        assert str(row[0]) == want["mrn"] and row[2].date().isoformat() == want["dob"]
        assert [str(v) for v in row[3:]] == [want[c] for c in HEADER[3:]]
        assert row[1] == want["patient_name"]


def test_merged_cells_are_refused_naming_the_sheet(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture) -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.title = "Labs"
    book.active.append(["mrn", "name"])
    book.active.append(["1234567", "Ottilie Brannagh"])
    book.active.merge_cells("A2:B2")
    book.save(tmp_path / "merged.xlsx")
    assert main(["deid", str(tmp_path / "merged.xlsx"), "--output-dir", str(tmp_path / "o"),
                 "--no-ner", "--no-progress", "--workers", "1"]) == 1
    assert not list((tmp_path / "o").glob("*.xlsx"))
    err = capsys.readouterr().err
    assert "failed: merged.xlsx [" in err and "sheet 'Labs': merged cells (A2:B2)" in err


def test_a_patient_keeps_one_surrogate_name_across_the_table_and_a_letter(tmp_path: Path
                                                                          ) -> None:
    src = tmp_path / "in"
    src.mkdir()
    people = write_extract(src / "extract.csv", n_patients=5, visits=2)
    p = people[3]
    (src / "letter.txt").write_text(
        f"Referral letter\nPatient: {p.first} {p.last}\nMRN: {p.mrn}\n"
        f"Seen on 2024-02-03 by Dr. Haldane.\n", encoding="utf-8")
    (tmp_path / "secret").write_text(SECRET, encoding="utf-8")
    assert main(["deid", str(src), "--output-dir", str(tmp_path / "out"), "--no-ner",
                 "--no-progress", "--workers", "1", "--secret-file",
                 str(tmp_path / "secret")]) == 0
    [table] = list((tmp_path / "out").glob("*.deid.csv"))
    [letter] = list((tmp_path / "out").glob("*.deid.txt"))
    rows = {old["mrn"]: new for old, new in zip(_rows(src / "extract.csv"), _rows(table),
                                                 strict=True)}
    text = letter.read_text(encoding="utf-8")
    assert f"Patient: {rows[p.mrn]['patient_name']}\n" in text
    assert f"MRN: {rows[p.mrn]['mrn']}\n" in text
