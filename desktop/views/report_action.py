"""File > De-identification report…: the project's report for an IRB or a data-protection
officer (``engine.api.write_report``: ids and counts, never PHI), written by a worker, then
offered as a PDF printed through Qt (QTextDocument on a QPdfWriter, also on a worker)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMarginsF, QObject, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QKeySequence,
    QPageLayout,
    QPageSize,
    QPdfWriter,
    QTextDocument,
)
from PySide6.QtWidgets import QAbstractButton, QFileDialog, QMenu, QMessageBox

import engine.api as api
from engine.core.files import atomic_target

if TYPE_CHECKING:
    from desktop.tasks import Task
    from desktop.views.main_window import MainWindow

DEFAULT_NAME = "deidentification-report.html"
SHORTCUT = "Ctrl+Shift+D"


def add_report_action(window: MainWindow, menu: QMenu) -> QAction:
    """The menu item (``window.actions_by_name["report"]``), enabled with a project."""
    report = ReportAction(window)
    act = QAction("De-identification &report…", window)
    act.setShortcut(QKeySequence(SHORTCUT))
    tip = ("A report for an IRB or data-protection officer: policy, detectors and models, "
           "counts, decisions, exports (ids and counts only, no PHI)")
    keys = act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
    act.setToolTip(f"{tip} ({keys})")
    act.setStatusTip(tip)
    act.triggered.connect(lambda _checked=False: report.start())
    window.addAction(act)  # the shortcut works with the menu bar hidden, as the others do
    menu.addAction(act)
    window.actions_by_name["report"] = act
    return act


def print_html_to_pdf(html_path: Path, pdf_path: Path) -> Path:
    """Lay the HTML out on A4 pages and write them as a PDF (temp file + rename). The page
    margins are the document's own (QTextDocument prints with 2 cm)."""
    html = html_path.read_text(encoding="utf-8")
    document = QTextDocument()
    document.setHtml(html)
    with atomic_target(pdf_path) as tmp:
        writer = QPdfWriter(str(tmp))
        writer.setTitle("ClearNote de-identification report")
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4),
                                         QPageLayout.Orientation.Portrait,
                                         QMarginsF(0, 0, 0, 0),
                                         QPageLayout.Unit.Millimeter))
        document.print_(writer)
        del writer  # finishes the file before the rename
    return pdf_path


class ReportAction(QObject):
    """Writes the report where the user says, then offers to print it to PDF."""

    written = Signal(object)  # Path of the HTML report
    printed = Signal(object)  # Path of the PDF

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.offer: QMessageBox | None = None

    def start(self) -> None:
        if self.window.controller.project is None:
            return
        path, _ = QFileDialog.getSaveFileName(
            self.window, "Save the de-identification report",
            str(Path(self.window.user.last_folder) / DEFAULT_NAME), "HTML report (*.html)")
        if path:
            self.write(Path(path))

    def write(self, path: Path) -> Task | None:
        project = self.window.controller.project
        if project is None:
            return None
        self.window.statusBar().showMessage("Writing the de-identification report…")
        return self.window.controller.runner.submit(
            "report", lambda ctx: api.write_report(project, path, ctx),
            on_done=self._written, on_error=self._failed)

    def _failed(self, message: str) -> None:
        self.window.statusBar().clearMessage()
        self.window.controller.error.emit(f"De-identification report: {message}")

    def _written(self, path: Path) -> None:
        self.written.emit(path)
        self.window.statusBar().showMessage(f"Report written: {path.name}", 8000)
        box = QMessageBox(QMessageBox.Icon.Information, "De-identification report",
                          f"The report was written to {path}.\nIt holds ids and counts "
                          "only, no PHI. Print it to PDF as well?", parent=self.window)
        print_button = box.addButton("Print to PDF…", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Close)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def clicked(button: QAbstractButton) -> None:
            if button is print_button:
                self._ask_pdf(path)

        box.buttonClicked.connect(clicked)
        box.destroyed.connect(lambda: setattr(self, "offer", None))
        self.offer = box
        box.open()

    def _ask_pdf(self, html_path: Path) -> None:
        pdf, _ = QFileDialog.getSaveFileName(self.window, "Print the report to PDF",
                                             str(html_path.with_suffix(".pdf")), "PDF (*.pdf)")
        if pdf:
            self.print_pdf(html_path, Path(pdf))

    def print_pdf(self, html_path: Path, pdf_path: Path) -> Task:
        def done(path: Path) -> None:
            self.window.statusBar().showMessage(f"PDF written: {path.name}", 8000)
            self.printed.emit(path)

        return self.window.controller.runner.submit(
            "report.pdf", lambda ctx: print_html_to_pdf(html_path, pdf_path),
            on_done=done, on_error=self._failed)
