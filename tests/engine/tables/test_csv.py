"""CSV tables: roles from headers in four languages and from values, the editable schema,
the format written back as it was, and bad input named by file, row and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.api import PipelineConfig, Session, SessionConfig
from engine.core.errors import InputError, UsageError
from engine.tables.roles import Role, infer_roles, role_from_header
from engine.tables.run import deid_table, infer_schema
from engine.tables.schema import TableSchema, read_schema
from engine.tables.transform import coarse_age, coarse_zip

HEADERS = [  # (header, role) in English, French, Spanish and German
    ("MRN", Role.PATIENT_KEY), ("Patient Name", Role.NAME), ("DOB", Role.DOB),
    ("visit_date", Role.DATE), ("Zip Code", Role.ZIP), ("Phone", Role.PHONE),
    ("E-mail", Role.EMAIL), ("Street Address", Role.ADDRESS), ("Clinical note", Role.FREE_TEXT),
    ("SSN", Role.IDENTIFIER), ("Age", Role.AGE),
    ("Numéro de dossier", Role.PATIENT_KEY), ("Nom de famille", Role.NAME),
    ("Prénom", Role.NAME), ("Date de naissance", Role.DOB), ("Code postal", Role.ZIP),
    ("Téléphone", Role.PHONE), ("Courriel", Role.EMAIL), ("Compte rendu", Role.FREE_TEXT),
    ("Âge", Role.AGE), ("Historia clínica", Role.PATIENT_KEY), ("Apellidos", Role.NAME),
    ("Fecha de nacimiento", Role.DOB), ("Fecha de ingreso", Role.DATE),
    ("Código postal", Role.ZIP), ("Teléfono", Role.PHONE), ("Dirección", Role.ADDRESS),
    ("Edad", Role.AGE), ("Notas", Role.FREE_TEXT), ("Patientennummer", Role.PATIENT_KEY),
    ("Nachname", Role.NAME), ("Vorname", Role.NAME), ("Geburtsdatum", Role.DOB),
    ("Aufnahmedatum", Role.DATE), ("PLZ", Role.ZIP), ("Telefon", Role.PHONE),
    ("Anschrift", Role.ADDRESS), ("Alter", Role.AGE), ("Befund", Role.FREE_TEXT),
    ("Versicherungsnummer", Role.IDENTIFIER),
]


@pytest.mark.parametrize(("header", "role"), HEADERS)
def test_role_from_header(header: str, role: Role) -> None:
    assert role_from_header(header) is role


def test_roles_from_values_where_the_header_says_nothing() -> None:
    header = ["c1", "c2", "c3", "c4", "test name", "hba1c"]
    rows = [["a.b@example.org", f"2024-01-0{i}", f"(617) 555-01{i:02d}",
             "Patient stable, reviewed labs and adjusted the insulin dose today.",
             "glucose", f"7.{i}"] for i in range(1, 9)]
    assert infer_roles(header, rows) == [Role.EMAIL, Role.DATE, Role.PHONE, Role.FREE_TEXT,
                                         Role.KEEP, Role.KEEP]
    assert infer_roles(["MRN", "Patient ID"], [["1", "2"]]) == [Role.PATIENT_KEY,
                                                                Role.IDENTIFIER]


def test_policy_rules() -> None:
    assert coarse_zip("02139") == "021" and coarse_zip("02139-4307") == "021"
    assert coarse_zip("03601") == "000" and coarse_zip("89301") == "000"
    assert coarse_zip("89401") == "894" and coarse_zip("T2N 1N4") == "T2N"
    assert coarse_age("93") == "90+" and coarse_age("89") == "89" and coarse_age("90 y") == "90+"


def test_schema_round_trip_and_errors(tmp_path: Path) -> None:
    schema = TableSchema(("mrn", "name, full", "hba1c"),
                         (Role.PATIENT_KEY, Role.NAME, Role.KEEP))
    path = tmp_path / "schema.csv"
    path.write_text(schema.to_text().replace("keep,hba1c", "drop,hba1c"), encoding="utf-8")
    assert read_schema(path).roles == (Role.PATIENT_KEY, Role.NAME, Role.DROP)
    assert read_schema(path).columns == schema.columns
    path.write_text("role,column\nsecret,mrn\n", encoding="utf-8")
    with pytest.raises(UsageError, match="schema line 2: unknown role 'secret'"):
        read_schema(path)


def _session() -> Session:
    return Session(SessionConfig(pipeline=PipelineConfig(policy="hipaa", ner=False),
                                 secret=b"s" * 32))


def test_format_kept_byte_for_byte(tmp_path: Path) -> None:
    # cp1252, semicolons, CRLF, a quoted keep cell, a quoted name cell, no final newline.
    text = ('mrn;nom;"résultat";note\r\n'
            '4471290;"Brannagh; Ottilie";"7,5";Revu avec Ottilie ce jour.\r\n'
            '4471290;"Brannagh; Ottilie";"8,1";\r\n'
            '8820113;Okafor Chidi;"6,0";Café au lait, RAS')
    src = tmp_path / "t.csv"
    src.write_bytes(text.encode("cp1252"))
    out = tmp_path / "out.csv"
    result = deid_table(src, out, _session())
    data = out.read_bytes()
    assert result.rows == 3 and data.decode("cp1252").count("\r\n") == 3
    lines = data.decode("cp1252").split("\r\n")
    assert lines[0] == 'mrn;nom;"résultat";note'
    assert '"7,5"' in lines[1] and '"8,1"' in lines[2] and '"6,0"' in lines[3]
    assert "Ottilie" not in data.decode("cp1252") and "4471290" not in data.decode("cp1252")
    assert lines[1].split(";")[1].startswith('"')  # the quoted name stays quoted
    assert "Café au lait" in lines[3]
    assert lines[1].split(";")[0] == lines[2].split(";")[0]  # one patient, one MRN


@pytest.mark.parametrize(("text", "problem"), [
    ("a,b\n1,2,3\n", "line 2: 3 cells where the header has 2 columns"),
    ("a,a\n1,2\n", "columns 1 and 2: the same name twice"),
    ("a,,c\n1,2,3\n", "column 2: the column has no name"),
    ('a,b\n"1,2\n3,4\n', "row starting on line 2: a quoted cell is never closed"),
    ('a,b\n"1"x,2\n', "line 2, column 1: text after a closing quote"),
    ("", "the table is empty"),
])
def test_bad_input_names_file_row_and_column(tmp_path: Path, text: str, problem: str
                                             ) -> None:
    src = tmp_path / "bad.csv"
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "out.csv"
    with pytest.raises(InputError, match="bad.csv") as caught:
        deid_table(src, out, _session())
    assert problem in str(caught.value)
    assert not out.exists() and not list(tmp_path.glob(".clearnote-*"))  # nothing partial


def test_schema_must_match_the_file(tmp_path: Path) -> None:
    src = tmp_path / "t.csv"
    src.write_text("mrn,name\n1234567,Ottilie Brannagh\n", encoding="utf-8")
    assert infer_schema(src).roles == (Role.PATIENT_KEY, Role.NAME)
    wrong = TableSchema(("name", "mrn"), (Role.NAME, Role.PATIENT_KEY))
    with pytest.raises(UsageError, match="columns differ from the schema"):
        deid_table(src, tmp_path / "o.csv", _session(), schema=wrong)


def test_a_huge_cell_and_undecodable_bytes_are_refused(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from engine.tables import csvio

    monkeypatch.setattr(csvio, "MAX_CELL_CHARS", 1000)
    src = tmp_path / "big.csv"
    src.write_text("mrn,note\n1234567,\"" + "x" * 2000 + "\"\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 2: a cell longer than 1000 characters"):
        deid_table(src, tmp_path / "o.csv", _session())
    monkeypatch.setattr(csvio, "MAX_ROW_CHARS", 500)
    src.write_text("mrn,note\n1234567," + "x" * 2000 + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="line 2: a row longer than 500 characters"):
        deid_table(src, tmp_path / "o.csv", _session())
    monkeypatch.setattr(csvio, "HEAD_BYTES", 64)
    src = tmp_path / "mixed.csv"  # UTF-8 at the head, a Latin-1 byte far below it
    src.write_bytes(("mrn,name\n" + "1234567,Zoë\n" * 20).encode() + b"7654321,Zo\xeb\n")
    with pytest.raises(InputError, match="not utf-8"):
        deid_table(src, tmp_path / "o.csv", _session())
    assert not (tmp_path / "o.csv").exists()
