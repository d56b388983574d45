from __future__ import annotations

from pytestqt.modeltest import ModelTester

from desktop.models import DocumentFilterProxyModel, DocumentListModel, SpanTableModel
from desktop.records import DisplayStatus, entry_for
from engine.api import DocumentRecord, DocumentStatus
from engine.core.domain import Source, Span, SpanStatus
from engine.core.labels import Label

TEXT = "Patient: John Smith, seen 2023-05-02 by Dr. Alice Brown. Phone 403-555-0199."


def _spans() -> list[Span]:
    return [
        Span(9, 19, Label.PATIENT, Source.RULE, "regex.name@1", 0.85),
        Span(26, 36, Label.DATE, Source.RULE, "regex.date@1", 0.97, SpanStatus.ACCEPTED),
        Span(44, 55, Label.DOCTOR, Source.DICTIONARY, "dictionary.names@1", 0.6,
             SpanStatus.REJECTED),
        Span(63, 75, Label.PHONE, Source.RULE, "regex.phone@1", 0.95),
    ]


def _record(i: int, status: DocumentStatus) -> DocumentRecord:
    return DocumentRecord(id=f"doc{i:03d}", source_path=f"/synthetic/letter{i}.txt",
                          sha256="0" * 64, media_type="text/plain", page_count=1,
                          char_count=len(TEXT), status=status, reason=None, patient_id=None,
                          patient_confirmed=False, imported_at=0.0, updated_at=0.0)


def test_document_list_model(qtmodeltester: ModelTester) -> None:
    model = DocumentListModel()
    entries = [entry_for(_record(i, st), _spans() if st is DocumentStatus.DETECTED else [])
               for i, st in enumerate(DocumentStatus)]
    model.set_entries(entries)
    qtmodeltester.check(model)
    assert model.rowCount() == len(DocumentStatus)
    model.update_entry(entry_for(_record(99, DocumentStatus.IMPORTED), []))
    assert model.rowCount() == len(DocumentStatus) + 1
    detected = entries[1]
    assert detected.display_status == DisplayStatus.NEEDS_REVIEW
    assert (detected.candidates, detected.accepted, detected.rejected) == (2, 1, 1)


def test_document_filter_proxy(qtmodeltester: ModelTester) -> None:
    model = DocumentListModel()
    model.set_entries([entry_for(_record(i, st), []) for i, st in enumerate(DocumentStatus)])
    proxy = DocumentFilterProxyModel()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy)
    proxy.set_status_filter(DisplayStatus.FAILED)
    assert proxy.rowCount() == 1
    proxy.set_status_filter(None)
    proxy.setFilterFixedString("letter3")
    assert proxy.rowCount() == 1
    proxy.setFilterFixedString("")
    proxy.sort(1)
    assert proxy.rowCount() == len(DocumentStatus)


def test_span_table_model(qtmodeltester: ModelTester) -> None:
    model = SpanTableModel()
    spans = _spans()
    model.set_spans(spans, TEXT)
    qtmodeltester.check(model)
    assert model.index(0, 2).data() == "John Smith"
    model.replace_span(spans[0].with_status(SpanStatus.ACCEPTED))
    assert model.span_at(0).status is SpanStatus.ACCEPTED
    model.replace_span(Span(0, 7, Label.OTHER, Source.MANUAL, "manual@1", 1.0,
                            SpanStatus.ACCEPTED))
    assert model.span_at(0).label is Label.OTHER and model.rowCount() == 5


def test_a_refresh_that_adds_rows_does_not_reset_the_list(qtmodeltester: ModelTester) -> None:
    """The refresh after a drop holds the rows shown and maybe more: only the rows that
    changed or arrived are signalled (a reset drops the selection and re-measures all)."""
    model = DocumentListModel()
    model.set_entries([entry_for(_record(i, DocumentStatus.IMPORTED), []) for i in range(3)])
    qtmodeltester.check(model)
    signals: list[str] = []
    model.modelReset.connect(lambda: signals.append("reset"))
    model.dataChanged.connect(lambda a, b: signals.append(f"changed {a.row()}-{b.row()}"))
    model.rowsInserted.connect(lambda _p, a, b: signals.append(f"inserted {a}-{b}"))
    refreshed = [entry_for(_record(0, DocumentStatus.IMPORTED), []),
                 entry_for(_record(1, DocumentStatus.DETECTED), _spans()),
                 entry_for(_record(2, DocumentStatus.IMPORTED), []),
                 entry_for(_record(3, DocumentStatus.IMPORTED), [])]
    model.set_entries(refreshed)
    assert signals == ["changed 1-1", "inserted 3-3"]
    assert model.entries() == refreshed
    model.set_entries(refreshed[2:])  # rows gone (another project, a deletion): a reset
    assert signals[-1] == "reset" and model.rowCount() == 2
