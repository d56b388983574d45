"""Export: choose documents, folder and formats; progress with Cancel; then a summary."""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.messages import in_words
from engine.api import ExportReport

FORMAT_NAMES = {"txt": "De-identified text (.deid.txt)",
                "json": "Spans, replacements and CIRE flags (.json sidecar)",
                "pdf": "Redacted PDF (PDF and scanned documents)",
                "brat": "BRAT annotations of the de-identified text (.deid.ann)",
                "csv": "Replaced spans as a table (.spans.csv)",
                "jsonl": "One JSON line per document (.jsonl)"}


class ExportDialog(QDialog):
    exportRequested = Signal(object, object, list)  # ids (None: all reviewed), Path, formats
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None, *, selected: list[str], formats: tuple[str, ...],
                 folder: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export de-identified documents")
        self.selected = selected
        self.report: ExportReport | None = None
        self.only_selected = QRadioButton(f"Selected documents ({len(selected)})", self)
        self.all_reviewed = QRadioButton("All reviewed documents", self)
        (self.only_selected if selected else self.all_reviewed).setChecked(True)
        self.only_selected.setEnabled(bool(selected))
        self.folder = QLineEdit(folder, self)
        self.folder.setToolTip("Folder for the exported files (never the input folder)")
        browse = QPushButton("Browse…", self)
        browse.setToolTip("Choose the output folder")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        self.checks: dict[str, QCheckBox] = {}
        fmt_box = QVBoxLayout()
        for fmt, name in FORMAT_NAMES.items():
            box = QCheckBox(name, self)
            box.setChecked(fmt in formats)
            self.checks[fmt] = box
            fmt_box.addWidget(box)
        form = QFormLayout()
        form.addRow("Documents:", self.only_selected)
        form.addRow("", self.all_reviewed)
        form.addRow("Folder:", row)
        form.addRow("Formats:", fmt_box)
        self.bar = QProgressBar(self)
        self.bar.hide()
        self.status = QLabel("", self)
        self.summary = QTextBrowser(self)
        self.summary.setOpenExternalLinks(False)
        self.summary.hide()
        self.buttons = QDialogButtonBox(self)
        self.start_button = self.buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.start_button.setToolTip("Write the files (Enter)")
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setToolTip("Stop the export or close (Esc)")
        self.start_button.clicked.connect(self._start)
        self.cancel_button.clicked.connect(self._cancel)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.bar)
        layout.addWidget(self.status)
        layout.addWidget(self.summary, 1)
        layout.addWidget(self.buttons)
        self._running = False

    def formats(self) -> list[str]:
        return [f for f, box in self.checks.items() if box.isChecked()]

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Export folder", self.folder.text())
        if folder:
            self.folder.setText(folder)

    def _start(self) -> None:
        if self.report is not None:  # already done: the button reads "Close"
            self.accept()
            return
        folder = self.folder.text().strip()
        if not folder or not self.formats():
            self.status.setText("Choose a folder and at least one format.")
            return
        ids = self.selected if self.only_selected.isChecked() else None
        self._running = True
        self.start_button.setEnabled(False)
        self.bar.show()
        self.bar.setRange(0, 0)
        self.status.setText("Exporting…")
        self.exportRequested.emit(ids, Path(folder), self.formats())

    def _cancel(self) -> None:
        if self._running:
            self.cancelRequested.emit()
            self.status.setText("Cancelling…")
        else:
            self.reject()

    def set_progress(self, stage: str, done: int, total: int, message: str) -> None:
        if stage == "export" and total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(done)
            self.status.setText(f"Exporting {done} of {total}")

    def show_report(self, report: ExportReport) -> None:
        self._running = False
        self.report = report
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        files = sum(len(d.files) for d in report.exported)
        state = "Cancelled" if report.cancelled else "Done"
        lines = [f"<h3>{state}: {len(report.exported)} document(s) exported</h3>",
                 f"<p>{files} file(s) written to <b>{report.out_dir}</b>.</p>"]
        if report.cire_high:
            lines.append(f"<p><b>{report.cire_high}</b> high-severity CIRE flag(s): "
                         f"clinical content may have been replaced; see the sidecars.</p>")
        if report.report_csv:
            lines.append(f"<p>Export report (ids and outcomes, no source names): "
                         f"<b>{Path(report.report_csv).name}</b>.</p>")
        lines.append(f"<p><b>Re-identification key</b>: {escape(report.key_notice())}.</p>")
        if report.exported:
            lines.append("<ul>")
            lines += [f"<li>{d.document_id}: {', '.join(Path(f).name for f in d.files)}</li>"
                      for d in report.exported[:50]]
            lines.append("</ul>")
        if report.failed:
            lines.append(f"<p><b>{len(report.failed)} failed:</b></p><ul>")
            lines += [f"<li>{doc_id}: {escape(in_words(reason))}</li>"
                      for doc_id, reason in report.failed]
            lines.append("</ul>")
        else:
            lines.append("<p>No failures.</p>")
        self.summary.setHtml("".join(lines))
        self.summary.show()
        self.status.setText(report.summary())
        self.start_button.setText("Close")
        self.start_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def show_error(self, message: str) -> None:
        self._running = False
        self.status.setText(message)
        self.start_button.setEnabled(True)
