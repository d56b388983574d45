"""Side-by-side diff: original left, de-identified right, lines wrapped and scrolled
together line for line; replacements coloured by label on both sides; CIRE flags marked
with severity, the term and its category, and selecting one shows it in both texts."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from desktop.records import DiffData
from desktop.theme import SEVERITY_COLOURS, SEVERITY_GLYPHS, label_colour
from engine.core.domain import SpanStatus

SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2}


def _pane(name: str, parent: QWidget) -> QPlainTextEdit:
    pane = QPlainTextEdit(parent)
    pane.setReadOnly(True)
    pane.setAcceptDrops(False)
    pane.setAccessibleName(name)
    pane.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)  # _sync aligns the lines
    return pane


class DiffView(QWidget):
    statusRequested = Signal(str, object)  # span id, SpanStatus

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: DiffData | None = None
        self.selected_span_id: str | None = None
        self.header = QLabel("Open a document and choose View → Diff.", self)
        self.header.setWordWrap(True)
        self.left = _pane("Original text", self)
        self.right = _pane("De-identified text", self)
        left_box, right_box = QWidget(self), QWidget(self)
        for box, title, pane in ((left_box, "Original", self.left),
                                 (right_box, "De-identified", self.right)):
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 0, 0, 0)
            caption = QLabel(f"<b>{title}</b>", box)
            lay.addWidget(caption)
            lay.addWidget(pane, 1)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        split.addWidget(left_box)
        split.addWidget(right_box)
        self.flags = QListWidget(self)
        self.flags.setAccessibleName("Clinical-retention flags")
        self.flags.setToolTip("CIRE flags: replacements that may have changed clinical "
                              "meaning. Select one to show it in both texts.")
        self.flags.currentItemChanged.connect(self._flag_selected)
        self.flags.setMaximumHeight(self.fontMetrics().height() * 7)
        layout = QVBoxLayout(self)
        layout.addWidget(self.header)
        layout.addWidget(split, 1)
        self.picked = QLabel("Select a flag or click a replacement to decide on its span.",
                             self)
        self.picked.setAccessibleName("Span selected in the diff")
        self.accept_button = QPushButton("Accept span (A)", self)
        self.accept_button.setToolTip("Keep this replacement: the span is PHI")
        self.reject_button = QPushButton("Reject span (R)", self)
        self.reject_button.setToolTip("Undo this replacement: the text stays as written")
        self.accept_button.clicked.connect(lambda: self.decide(SpanStatus.ACCEPTED))
        self.reject_button.clicked.connect(lambda: self.decide(SpanStatus.REJECTED))
        decide_row = QHBoxLayout()
        decide_row.addWidget(self.picked, 1)
        decide_row.addWidget(self.accept_button)
        decide_row.addWidget(self.reject_button)
        layout.addLayout(decide_row)
        flag_row = QHBoxLayout()
        flag_row.addWidget(self.flags, 1)
        layout.addLayout(flag_row)
        self._pick(None)
        for pane in (self.left, self.right):
            pane.cursorPositionChanged.connect(lambda p=pane: self._clicked(p))
        self._syncing = False
        self.left.verticalScrollBar().valueChanged.connect(
            lambda: self._sync(self.left, self.right))
        self.right.verticalScrollBar().valueChanged.connect(
            lambda: self._sync(self.right, self.left))

    def clear(self) -> None:
        self.data = None
        self._pick(None)
        self.left.setPlainText("")
        self.right.setPlainText("")
        self.flags.clear()
        self.header.setText("Open a document and choose View → Diff.")

    def show_diff(self, data: DiffData) -> None:
        keep = self.selected_span_id if self.data is not None \
            and self.data.document.id == data.document.id else None
        self.data = data
        self._pick(keep if any(r.span_id == keep for r in data.deid.replacements)
                   or any(f.span_id == keep for f in data.flags) else None)
        self.left.setPlainText(data.document.text)
        self.right.setPlainText(data.deid.text)
        left_sel, right_sel = [], []
        flagged = {(f.start, f.end): f for f in data.flags}
        for rep in data.deid.replacements:
            colour = label_colour(rep.label)
            fill = QColor(colour)
            fill.setAlpha(110)
            fmt = QTextCharFormat()
            fmt.setBackground(fill)
            fmt.setToolTip(rep.label.value)
            left_sel.append(_selection(self.left, rep.start, rep.end, fmt))
            right_sel.append(_selection(self.right, rep.output_start, rep.output_end, fmt))
        for f in data.flags:
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
            fmt.setUnderlineColor(QColor(SEVERITY_COLOURS.get(f.severity, "#C0392B")))
            fmt.setFontWeight(700)
            fmt.setToolTip(f.reason)
            right_sel.append(_selection(self.right, f.start, f.end, fmt))
            if f.source_start >= 0:
                left_sel.append(_selection(self.left, f.source_start, f.source_end, fmt))
        del flagged
        self.left.setExtraSelections(left_sel)
        self.right.setExtraSelections(right_sel)
        self.flags.clear()
        self.flags.setVisible(bool(data.flags))
        for f in sorted(data.flags, key=lambda x: (SEVERITY_ORDER.get(x.severity, 3), x.start)):
            glyph = SEVERITY_GLYPHS.get(f.severity, "▲")
            item = QListWidgetItem(f"{glyph} {f.severity.upper()} — {f.reason}")
            item.setForeground(QColor(SEVERITY_COLOURS.get(f.severity, "#C0392B")))
            item.setToolTip(f.reason)
            item.setData(Qt.ItemDataRole.UserRole, (f.start, f.end, f.source_start, f.span_id))
            self.flags.addItem(item)
        n = len(data.deid.replacements)
        parts = [f"<b>{n}</b> replacement(s), mode <b>{data.deid.mode.value}</b>"]
        if data.retention is not None:
            parts.append(f"retention score <b>{data.retention:.0%}</b>")
        by_sev = {s: sum(1 for f in data.flags if f.severity == s) for s in SEVERITY_ORDER}
        if data.flags:
            parts.append("CIRE flags: " + ", ".join(
                f"{SEVERITY_GLYPHS[s]} {c} {s}" for s, c in by_sev.items() if c))
        elif not data.notes:
            parts.append("no CIRE flags")
        parts += list(data.notes)
        self.header.setText(" · ".join(parts))

    # ------------------------------------------------------------------ decisions

    def _pick(self, span_id: str | None) -> None:
        self.selected_span_id = span_id
        for button in (self.accept_button, self.reject_button):
            button.setEnabled(span_id is not None)
        if span_id is None or self.data is None:
            self.picked.setText("Select a flag or click a replacement to decide on its span.")
            return
        rep = next((r for r in self.data.deid.replacements if r.span_id == span_id), None)
        what = f"{rep.label.value} replacement" if rep is not None else "span"
        self.picked.setText(f"Selected: the {what} — Accept (A) keeps it, Reject (R) puts "
                            "the original text back.")

    def _clicked(self, pane: QPlainTextEdit) -> None:
        if self._syncing or self.data is None or pane.textCursor().hasSelection():
            return
        span_id = _replacement_at(self.data, pane.textCursor().position(),
                                  output=pane is self.right)
        if span_id is not None:
            self._pick(span_id)

    def decide(self, status: SpanStatus) -> bool:
        """Accept or reject the span selected in the diff (flag or replacement)."""
        if self.selected_span_id is None:
            return False
        self.statusRequested.emit(self.selected_span_id, status)
        return True

    def _sync(self, src: QPlainTextEdit, dst: QPlainTextEdit) -> None:
        # Replacements rarely span lines, so line n on the left is line n on the right.
        # Wrapped, a line takes as many rows as it needs on each side: put the same line
        # at the top of both (QPlainTextEdit scrolls by visual rows).
        if self._syncing:
            return
        self._syncing = True
        try:
            top = src.cursorForPosition(QPoint(0, 0)).blockNumber()
            rows, block = 0, dst.document().firstBlock()
            while block.isValid() and block.blockNumber() < top:
                layout = block.layout()
                rows += max(1, layout.lineCount() if layout is not None else 1)
                block = block.next()
            dst.verticalScrollBar().setValue(rows)
        finally:
            self._syncing = False

    def _flag_selected(self, item: QListWidgetItem | None) -> None:
        if item is None or self.data is None:
            return
        start, _end, source_start, span_id = item.data(Qt.ItemDataRole.UserRole)
        self._pick(span_id)
        for pane, at, text in ((self.right, start, self.data.deid.text),
                               (self.left, source_start, self.data.document.text)):
            if at < 0:
                continue
            cursor = pane.textCursor()
            cursor.setPosition(min(at, len(text)))
            self._syncing = True  # both panes are placed here: no echo through _sync
            try:
                pane.setTextCursor(cursor)
                pane.centerCursor()
            finally:
                self._syncing = False


def _replacement_at(data: DiffData, pos: int, *, output: bool) -> str | None:
    for rep in data.deid.replacements:
        start, end = (rep.output_start, rep.output_end) if output else (rep.start, rep.end)
        if start <= pos < end or (pos == end and start < end):
            return rep.span_id
    return None


def _selection(pane: QPlainTextEdit, start: int, end: int,
               fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
    sel = QTextEdit.ExtraSelection()
    cursor = QTextCursor(pane.document())
    n = pane.document().characterCount() - 1
    cursor.setPosition(max(0, min(start, n)))
    cursor.setPosition(max(0, min(end, n)), QTextCursor.MoveMode.KeepAnchor)
    sel.cursor = cursor
    sel.format = fmt
    return sel
