"""Issue 29, items 5 and 6: a failure names the file relative to the input folder, in
words; report.csv keeps ids only; the key file links the two."""

from __future__ import annotations

import csv
from pathlib import Path

from engine.api import FolderSink, PipelineConfig, Session, SessionConfig, run_files
from engine.core.errors import CorruptDocumentError, ExportError
from engine.core.messages import display_name, problem_in_words, reason_in_words


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_messages_are_words_and_relative_names(tmp_path: Path) -> None:
    root = tmp_path / "Jane Doe"
    assert display_name(root / "2024" / "scan.pdf", [root]) == "2024/scan.pdf"
    assert display_name(tmp_path / "other.txt", [root]) == "other.txt"
    assert reason_in_words("CorruptDocumentError: image cannot be decoded") == \
        "image cannot be decoded"
    assert "Error" not in reason_in_words("KeyError")
    assert problem_in_words(CorruptDocumentError(root / "a.pdf", "damaged")) == "damaged"
    try:
        try:
            raise OSError(28, "No space left on device")
        except OSError as exc:
            raise ExportError(f"{root}/x.tmp: cannot write") from exc
    except ExportError as exc:
        assert problem_in_words(exc) == "cannot write the output (no space left on device)"
    assert "Error" not in problem_in_words(KeyError("x"))


def test_a_failed_file_is_named_on_the_terminal_and_by_id_in_the_report(tmp_path: Path
                                                                         ) -> None:
    src = tmp_path / "Jane Doe letters"
    (src / "2024").mkdir(parents=True)
    (src / "2024" / "Doe_Jane_scan.pdf").write_bytes(b"%PDF-1.4\nnot really a pdf\n")
    (src / "note.txt").write_text("Seen by Dr. Haldane on 2024-02-03.\n", encoding="utf-8")
    out, key = tmp_path / "out", tmp_path / "key.csv"
    session = Session(SessionConfig(pipeline=PipelineConfig(ner=False)))
    report = run_files([src], out, FolderSink(session, formats=("txt",), key_file=key),
                       workers=1)
    [failed] = report.failed
    line = f"  failed: 2024/Doe_Jane_scan.pdf [{failed.document_id}]: PDF is damaged"
    assert any(x.startswith(line) for x in report.summary().splitlines()), report.summary()
    assert "Error" not in report.summary() and "Jane Doe letters" not in report.summary()
    text = (out / "report.csv").read_text(encoding="utf-8")
    assert "Doe" not in text and "scan" not in text and failed.document_id in text
    by_id = {r["document_id"]: r for r in _rows(key)}
    assert by_id[failed.document_id]["file_name"] == "Doe_Jane_scan.pdf"
    assert not report.ok
