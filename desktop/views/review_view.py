"""Review view: the document text with every span highlighted, the span table and the
details of the current span. Decisions leave as signals; the controller does the work."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QPalette, QTextCursor, QTextOption
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.records import LoadedDocument
from desktop.theme import STATUS_GLYPHS, span_format
from desktop.views.box_list import BoxList
from desktop.views.legend import LegendWidget
from desktop.views.review_menu import choose_label, review_context_menu
from desktop.views.span_panel import SpanPanel
from desktop.views.table_view import TableDocumentView
from engine.core.domain import Document, Span, SpanStatus
from engine.core.labels import Label

VISIBLE = (SpanStatus.CANDIDATE, SpanStatus.ACCEPTED, SpanStatus.REJECTED)


def uncertainty(span: Span, spans: list[Span], threshold: float) -> float | None:
    """How doubtful a candidate is (higher: look at it sooner), or None if it is not.
    Low confidence counts, and so does disagreement: another detector proposed an
    overlapping range with a different label."""
    if span.status is not SpanStatus.CANDIDATE:
        return None
    disagree = any(o.id != span.id and o.overlaps(span) and o.label != span.label
                   for o in spans)
    if span.confidence >= threshold and not disagree:
        return None
    return (1.0 - span.confidence) + (1.0 if disagree else 0.0)


class ReviewTextEdit(QPlainTextEdit):
    """Read-only text; drops fall through to the window (which imports files)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setAcceptDrops(False)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setAccessibleName("Document text")


class ReviewView(QWidget):
    statusRequested = Signal(str, object)  # span id, SpanStatus
    allRequested = Signal(str, object, str)  # span id, SpanStatus, "document" | "project"
    addRequested = Signal(str, int, int, object)  # document id, start, end, Label
    labelRequested = Signal(str, object)  # span id, Label
    previewRequested = Signal(str)  # span id
    currentSpanChanged = Signal(str)  # span id ("" for none)
    message = Signal(str)  # short status-bar note (no PHI)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.uncertain_below = 0.85
        self.document: Document | None = None
        self._spans: dict[str, Span] = {}
        self._current: str | None = None
        self._previews: dict[str, str] = {}

        self.legend = LegendWidget(self)
        self.text = ReviewTextEdit(self)
        self.text.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.text.customContextMenuRequested.connect(self._context_menu)
        self.text.cursorPositionChanged.connect(self._cursor_moved)

        self.label_box = QComboBox(self)
        for label in Label:
            self.label_box.addItem(label.value, label)
        self.label_box.setToolTip("Label for a span you add from selected text (S)")
        self.label_box.setAccessibleName("Label for new spans")

        self.span_panel = SpanPanel(self)
        self.model = self.span_panel.model  # every span, in text order
        self.table = self.span_panel.table  # as filtered and sorted
        self.span_panel.spanSelected.connect(self.select_span)
        self.boxes = BoxList(self)  # box redactions, listed with the spans

        self.details = QGroupBox("Span details", self)
        form = QFormLayout(self.details)
        self._fields: dict[str, QLabel] = {}
        for key, title in (("label", "Label"), ("status", "Status"), ("text", "Text"),
                           ("proposed", "Proposed by"), ("confidence", "Confidence"),
                           ("uncertain", "Why uncertain"), ("surrogate", "Will read as")):
            value = QLabel("—", self.details)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setWordWrap(True)
            self._fields[key] = value
            form.addRow(f"{title}:", value)

        self.summary = QLabel("", self)
        self.summary.setAccessibleName("Review progress")

        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(QLabel("New span label:", self))
        top.addWidget(self.label_box)

        self.side = side = QWidget(self)  # span details and list: hidden for a table
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.details)
        side_layout.addWidget(self.span_panel, 1)
        side_layout.addWidget(self.boxes)

        self.table_view = TableDocumentView(self)  # a table document has no text
        self.body = QStackedWidget(self)
        self.body.addWidget(self.text)
        self.body.addWidget(self.table_view)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(self.body)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.legend)
        layout.addWidget(split, 1)
        self.show_empty()

    # ------------------------------------------------------------------ content

    def show_empty(self) -> None:
        self.document = None
        self._spans = {}
        self._current = None
        self.text.setPlainText("")
        self.text.setPlaceholderText("Select a document in the list to review it.")
        self.body.setCurrentWidget(self.text)
        self.side.show()
        self.span_panel.set_spans([])
        self.boxes.set_boxes(None, ())
        self._show_details(None)
        self.summary.setText("")

    def show_document(self, loaded: LoadedDocument) -> None:
        same = self.document is not None and self.document.id == loaded.document.id
        keep = self._current if same else None
        scroll = self.text.verticalScrollBar().value() if same else 0
        self.document = loaded.document
        self._spans = {s.id: s for s in loaded.spans}
        if not same:
            self._previews = {}
            self.text.setPlainText(loaded.document.text)
        if loaded.table is not None:
            self.table_view.show_table(loaded.table)
        self.body.setCurrentWidget(self.text if loaded.table is None else self.table_view)
        self.side.setVisible(loaded.table is None)
        self.span_panel.set_spans(list(loaded.spans), loaded.document.text)
        self.boxes.set_boxes(loaded.document.id, loaded.boxes)
        self._current = keep if keep in self._spans else None
        self._render()
        self.text.verticalScrollBar().setValue(scroll)
        if self._current is None:
            self.next_candidate()
        else:
            self._show_details(self._spans[self._current])

    def apply_span(self, span: Span) -> None:
        """A span changed (status) or was added by the controller."""
        if self.document is None:
            return
        if self.body.currentWidget() is self.table_view:  # a table's cell or note span
            self.table_view.apply_span(span)
            return
        self._spans[span.id] = span
        self.model.replace_span(span)
        self._previews.pop(span.id, None)
        self._render()
        if span.id == self._current:
            self._show_details(span)

    def show_preview(self, span_id: str, text: str) -> None:
        self._previews[span_id] = text
        if span_id == self._current:
            self._fields["surrogate"].setText(text)

    # ------------------------------------------------------------------ navigation

    @property
    def current_span(self) -> Span | None:
        return self._spans.get(self._current or "")

    def spans(self) -> list[Span]:
        return sorted(self._spans.values(), key=lambda s: (s.start, s.end))

    def select_span(self, span_id: str, *, move_cursor: bool = True) -> None:
        span = self._spans.get(span_id)
        if span is None:
            return
        changed = span_id != self._current
        self._current = span_id
        self._render()
        if move_cursor:
            cursor = self.text.textCursor()
            cursor.setPosition(span.start)
            self.text.blockSignals(True)
            self.text.setTextCursor(cursor)
            self.text.blockSignals(False)
            self.text.centerCursor()
        self.span_panel.select(span_id)
        self._show_details(span)
        if changed:
            self.currentSpanChanged.emit(span_id)

    def _step(self, forward: bool, statuses: tuple[SpanStatus, ...]) -> bool:
        spans = [s for s in self.spans() if s.status in statuses]
        if not spans:
            self.message.emit("No more candidates in this document.")
            return False
        cur = self.current_span
        pos = (cur.start, cur.end) if cur else (-1, -1)
        if forward:
            after = [s for s in spans if (s.start, s.end) > pos]
            target = after[0] if after else spans[0]
        else:
            before = [s for s in spans if (s.start, s.end) < pos]
            target = before[-1] if before else spans[-1]
        self.select_span(target.id)
        return True

    def next_candidate(self) -> bool:
        return self._step(True, (SpanStatus.CANDIDATE,))

    def previous_candidate(self) -> bool:
        return self._step(False, (SpanStatus.CANDIDATE,))

    def next_uncertain(self) -> bool:
        """The most doubtful undecided span: low confidence or detector disagreement."""
        spans = self.spans()
        scored = [(u, s.start, s.id) for s in spans
                  if s.id != self._current
                  and (u := uncertainty(s, spans, self.uncertain_below)) is not None]
        if not scored:
            self.message.emit("No uncertain candidates left in this document.")
            return False
        scored.sort(key=lambda t: (-t[0], t[1]))
        self.select_span(scored[0][2])
        return True

    # ------------------------------------------------------------------ decisions

    def decide(self, status: SpanStatus) -> None:
        span = self.current_span
        if span is None:
            self.message.emit("No span selected.")
            return
        self.statusRequested.emit(span.id, status)
        # Move on at once; the table and highlights update when the change is stored.
        self._spans[span.id] = span.with_status(status)
        if not self.next_candidate():
            self.select_span(span.id, move_cursor=False)

    def accept(self) -> None:
        self.decide(SpanStatus.ACCEPTED)

    def reject(self) -> None:
        self.decide(SpanStatus.REJECTED)

    def change_label(self, label: Label) -> None:
        """Give the current span another label (undoable)."""
        span = self.current_span
        if span is None:
            self.message.emit("No span selected.")
            return
        if span.label is not label:
            self.labelRequested.emit(span.id, label)

    def choose_label(self) -> None:
        """L: a menu of labels at the current span."""
        if self.current_span is None:
            self.message.emit("No span selected.")
            return
        choose_label(self)

    def decide_all(self, status: SpanStatus, scope: str) -> None:
        span = self.current_span
        if span is None:
            self.message.emit("No span selected.")
            return
        self.allRequested.emit(span.id, status, scope)

    def add_selection(self, label: Label | None = None) -> bool:
        cursor = self.text.textCursor()
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        if self.document is None or start == end:
            self.message.emit("Select the text to mark first.")
            return False
        text = self.document.text
        # Trim surrounding whitespace so a sloppy drag still gives a clean span.
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if start == end:
            return False
        chosen = Label(label or self.label_box.currentData())
        clash = [s for s in self.spans() if s.status in (SpanStatus.CANDIDATE,
                 SpanStatus.ACCEPTED) and s.start < end and start < s.end]
        if len(clash) == 1 and (clash[0].start, clash[0].end) == (start, end) \
                and clash[0].label is chosen:
            self.select_span(clash[0].id)  # already proposed: adding means accepting
            self.accept()
            return True
        if clash:  # the reviewer's span wins; undo brings the covered spans back
            self.message.emit(f"Your span replaces {len(clash)} detected span"
                              f"{'s' if len(clash) != 1 else ''} under it (undo: Ctrl+Z).")
        self.addRequested.emit(self.document.id, start, end, chosen)
        return True

    # ------------------------------------------------------------------ rendering

    def _render(self) -> None:
        selections = []
        doc = self.text.document()
        # The current span's marker in the palette's text colour: seen on light and dark.
        marker = self.text.palette().color(QPalette.ColorRole.Text)
        for span in self.spans():
            if span.status not in VISIBLE:
                continue
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(doc)
            cursor.setPosition(span.start)
            cursor.setPosition(span.end, QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            sel.format = span_format(span.label, span.status, current=span.id == self._current,
                                     marker=marker)
            selections.append(sel)
        self.text.setExtraSelections(selections)
        self._update_summary()

    def _update_summary(self) -> None:
        counts = dict.fromkeys(SpanStatus, 0)
        for span in self._spans.values():
            counts[span.status] += 1
        if self.document is None or self.body.currentWidget() is self.table_view:
            self.summary.setText("")  # a table: its grid and the document list say it
            return
        self.summary.setText(
            f"{STATUS_GLYPHS[SpanStatus.CANDIDATE]} {counts[SpanStatus.CANDIDATE]} to decide · "
            f"{STATUS_GLYPHS[SpanStatus.ACCEPTED]} {counts[SpanStatus.ACCEPTED]} accepted · "
            f"{STATUS_GLYPHS[SpanStatus.REJECTED]} {counts[SpanStatus.REJECTED]} rejected")

    def _show_details(self, span: Span | None) -> None:
        f = self._fields
        if span is None or self.document is None:
            for value in f.values():
                value.setText("—")
            return
        f["label"].setText(span.label.value + (f" / {span.subtype}" if span.subtype
                                              and span.subtype != span.label.value else ""))
        f["status"].setText(f"{STATUS_GLYPHS[span.status]} {span.status.value.lower()}")
        f["text"].setText(self.document.slice(span))
        who = ", ".join(span.detectors) or "—"
        f["proposed"].setText(f"{span.source.value.lower()} ({who})")
        f["confidence"].setText(f"{span.confidence:.2f}")
        spans = self.spans()
        u = uncertainty(span, spans, self.uncertain_below)
        reasons = []
        if u is not None and span.confidence < self.uncertain_below:
            reasons.append("low confidence")
        if any(o.id != span.id and o.overlaps(span) and o.label != span.label for o in spans):
            reasons.append("detectors disagree on the label")
        f["uncertain"].setText(", ".join(reasons) or "—")
        if span.status is SpanStatus.REJECTED:
            f["surrogate"].setText("(kept as written)")
        elif span.id in self._previews:
            f["surrogate"].setText(self._previews[span.id])
        else:
            f["surrogate"].setText("…")
            self.previewRequested.emit(span.id)

    # ------------------------------------------------------------------ mouse

    def _cursor_moved(self) -> None:
        cursor = self.text.textCursor()
        if cursor.hasSelection():
            return
        pos = cursor.position()
        hits = [s for s in self.spans() if s.status in VISIBLE and s.start <= pos < s.end]
        if hits:
            self.select_span(hits[0].id, move_cursor=False)

    def _context_menu(self, point: QPoint) -> None:
        review_context_menu(self, self.text.viewport().mapToGlobal(point))
