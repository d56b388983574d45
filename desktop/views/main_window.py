"""The main window: start page, then document list + review / page / diff tabs, with an
import panel that appears when files are dropped anywhere on the window."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMimeData, QSize, Qt, QTimer
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QFont,
)
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QWidget,
)

from desktop.controllers.drop_import import DropSummary
from desktop.controllers.project_controller import ProjectController
from desktop.records import DiffData, LoadedDocument
from desktop.settings import UserSettings
from desktop.views import passphrase_dialog
from desktop.views.adaptation_ui import install_adaptation
from desktop.views.diff_view import DiffView
from desktop.views.document_list import DocumentListView
from desktop.views.export_dialog import ExportDialog
from desktop.views.import_panel import ImportPanel
from desktop.views.menus import DIFF_TAB, PAGE_TAB, REVIEW_TAB, build_menus
from desktop.views.open_work_dialog import SETTLED, OpenWorkDialog
from desktop.views.page_view import PageView
from desktop.views.review_flow import ReviewFlow
from desktop.views.review_view import ReviewView
from desktop.views.settings_dialog import SettingsDialog
from desktop.views.start_page import StartPage
from desktop.views.table_drop import TableDropFlow

if TYPE_CHECKING:  # the project package loads once a project is open, not with the window
    from engine.api import ExportPlan


def paths_from_mime(mime: QMimeData) -> list[Path]:
    return [Path(u.toLocalFile()) for u in mime.urls() if u.isLocalFile()]


class MainWindow(QMainWindow):
    def __init__(self, controller: ProjectController | None = None, *,
                 user: UserSettings | None = None) -> None:
        super().__init__()
        self.user = user or UserSettings()
        self.controller = controller or ProjectController(self, threads=self.user.threads)
        self.controller.setParent(self)
        self.setWindowTitle("ClearNote")
        self.setAcceptDrops(True)
        self.export_dialog: ExportDialog | None = None
        self.open_work_dialog: OpenWorkDialog | None = None
        self._pending_export: tuple[list[str] | None, Path, list[str]] | None = None
        self._base_point_size = QApplication.font().pointSizeF()
        self.table_drop = TableDropFlow(self, self.controller)
        self.table_drop.message.connect(lambda m: self.statusBar().showMessage(m, 10000))

        self.start_page = StartPage(self)
        self.documents = DocumentListView(self)
        self.review = ReviewView(self)
        self.review.uncertain_below = self.user.uncertain_below
        self.page_view = PageView(self)
        self.diff = DiffView(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.review, "Review")
        self.tabs.addTab(self.page_view, "Page")
        self.tabs.addTab(self.diff, "Diff")
        self.tabs.setTabToolTip(REVIEW_TAB, "Text with highlighted spans (Ctrl+1)")
        self.tabs.setTabToolTip(PAGE_TAB, "Page image with the same highlights (Ctrl+2)")
        self.tabs.setTabToolTip(DIFF_TAB, "Original and de-identified side by side (Ctrl+3)")
        self.tabs.currentChanged.connect(self._tab_changed)
        self.workspace = QSplitter(Qt.Orientation.Horizontal, self)
        self.workspace.addWidget(self.documents)
        self.workspace.addWidget(self.tabs)
        self.workspace.setStretchFactor(0, 2)
        self.workspace.setStretchFactor(1, 5)
        self.workspace.setSizes([460, 1040])
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.start_page)
        self.stack.addWidget(self.workspace)
        self.setCentralWidget(self.stack)

        self.import_panel = ImportPanel(self)
        self.import_dock = QDockWidget("Import and detection", self)
        self.import_dock.setObjectName("import_dock")
        self.import_dock.setWidget(self.import_panel)
        self.import_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                                     | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.import_dock)
        self.import_dock.hide()
        self.import_panel.hideRequested.connect(self.import_dock.hide)

        self.busy_label = QLabel("", self)
        self.statusBar().addPermanentWidget(self.busy_label)
        self.actions_by_name: dict[str, QAction] = {}
        build_menus(self)
        self.adaptation = install_adaptation(self)  # learning banner, panel, menu (issue 25)
        self.review_flow = ReviewFlow(self)  # next document, bulk counts, label changes
        self._apply_scale()
        self._connect()
        self.start_page.set_recent(self.user.recent_projects())
        self._set_project_actions(False)
        self.resize(fitted_size(self.screen().availableGeometry().size()))

    # ------------------------------------------------------------------ actions

    def _set_project_actions(self, open_: bool) -> None:
        for name, act in self.actions_by_name.items():
            if name not in ("new", "open", "quit", "settings", "bigger", "smaller"):
                act.setEnabled(open_)

    def _connect(self) -> None:
        c = self.controller
        sp = self.start_page
        sp.newRequested.connect(self.new_project)
        sp.openRequested.connect(self.open_project)
        sp.recentRequested.connect(self.open_project_at)
        c.passphraseRejected.connect(self._passphrase_rejected)
        c.projectOpened.connect(self._project_opened)
        c.projectClosed.connect(self._project_closed)
        c.documentsChanged.connect(self._documents_changed)
        c.documentChanged.connect(self.documents.model.update_entry)
        c.entriesChanged.connect(self.documents.model.update_entries)
        c.documentLoaded.connect(self._document_loaded)
        c.spanChanged.connect(self._span_changed)
        c.previewReady.connect(self.review.show_preview)
        c.diffReady.connect(self._diff_ready)
        c.importStarted.connect(self._import_started)
        c.importItem.connect(self.import_panel.set_item)
        c.dropFinished.connect(self._drop_finished)
        c.detectFinished.connect(lambda rep: self.import_panel.finish(rep.summary()))
        c.progress.connect(self.import_panel.set_progress)
        c.error.connect(self._error)
        c.exportPlanned.connect(self._export_planned)
        c.reviewCopyWritten.connect(lambda n: self.statusBar().showMessage(
            f"Wrote {n} review cop{'y' if n == 1 else 'ies'} (PDFs and scans only; they hold "
            "the original text: keep them with the originals).", 10000))
        c.undoStateChanged.connect(self._undo_state)
        c.busyChanged.connect(lambda busy: self.busy_label.setText("Working…" if busy else ""))
        c.pageImage.connect(self.page_view.set_page_image)
        c.detectorsReady.connect(lambda ok: self.statusBar().showMessage(
            "Detectors loaded." if ok else "Detectors failed to load.", 4000))
        self.import_panel.cancelRequested.connect(c.cancel)
        self.import_panel.passwordRequested.connect(self._ask_password)
        self.import_panel.finishRequested.connect(c.finish_detection)
        self.documents.documentActivated.connect(self._open_document)
        r = self.review
        r.statusRequested.connect(c.set_span_status)
        r.addRequested.connect(c.add_span)
        r.previewRequested.connect(c.request_preview)
        r.message.connect(lambda m: self.statusBar().showMessage(m, 4000))
        r.currentSpanChanged.connect(self.page_view.select_span)
        self.page_view.spanClicked.connect(r.select_span)
        self.page_view.pageRequested.connect(c.request_page)
        self.page_view.boxDrawn.connect(c.add_box)
        self.page_view.boxRemoved.connect(c.remove_box)

    # ------------------------------------------------------------------ project

    def new_project(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "New project", self.user.last_folder,
                                              "ClearNote projects (*.clearnote)")
        if path:
            self.create_project_at(Path(path))

    def create_project_at(self, path: Path) -> None:
        """New projects are encrypted: the passphrase is asked for once, here."""
        if path.suffix != ".clearnote":
            path = path.with_suffix(".clearnote")
        answer = passphrase_dialog.ask_passphrase(self, path.name, new=True)
        if answer is None:
            return
        if answer.remember:
            passphrase_dialog.remember_passphrase(path, answer.passphrase)
        self.controller.create_project(path, passphrase=answer.passphrase)

    def open_project(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open project", self.user.last_folder,
                                              "ClearNote projects (*.clearnote)")
        if path:
            self.open_project_at(Path(path))

    def open_project_at(self, path: Path, *, retry: bool = False) -> None:
        """Open a project, asking for its passphrase when it is encrypted (the keyring's
        copy first, if the user chose to keep one there)."""
        path = Path(path)
        if not self.controller.is_encrypted(path):
            self.controller.open_project(path)
            return
        stored = None if retry else passphrase_dialog.stored_passphrase(path)
        if stored is not None:
            self.controller.open_project(path, passphrase=stored)
            return
        answer = passphrase_dialog.ask_passphrase(self, path.name, new=False, retry=retry)
        if answer is None:
            return
        if answer.remember:
            passphrase_dialog.remember_passphrase(path, answer.passphrase)
        self.controller.open_project(path, passphrase=answer.passphrase)

    def _passphrase_rejected(self, path: Path, given: bool) -> None:
        if given:
            passphrase_dialog.remember_passphrase(path, None)  # a stale keyring copy
        self.open_project_at(path, retry=given)

    def close_project(self) -> None:
        self.controller.close_project()

    def _project_opened(self, path: Path) -> None:
        self.user.add_recent(path)
        self.user.last_folder = str(path.parent)
        # Qt adds the application's name ("… – ClearNote"): the title names the project only.
        self.setWindowTitle(path.name)
        self.stack.setCurrentWidget(self.workspace)
        self._set_project_actions(True)
        self.statusBar().showMessage("Drop documents or folders anywhere to import them.")

    def _project_closed(self) -> None:
        self.setWindowTitle("ClearNote")
        self.documents.model.set_entries([])
        self.review.show_empty()
        self.diff.clear()
        self.stack.setCurrentWidget(self.start_page)
        self.start_page.set_recent(self.user.recent_projects())
        self._set_project_actions(False)

    # ------------------------------------------------------------------ import

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = paths_from_mime(event.mimeData())
        if not paths:
            return
        event.acceptProposedAction()
        self.import_paths(paths)

    def import_paths(self, paths: list[Path], password: str | None = None) -> None:
        if not self.controller.is_open:
            self.statusBar().showMessage("Create or open a project first, then drop files.",
                                         6000)
            return
        self.table_drop.start(paths, password=password)  # tables: roles confirmed first

    def _import_started(self, paths: list[Path]) -> None:
        self.import_panel.start(paths)
        self.import_dock.show()
        # Compact: the panel is a status strip, not a second workspace.
        self.resizeDocks([self.import_dock], [self.fontMetrics().height() * 9],
                         Qt.Orientation.Vertical)

    def _drop_finished(self, summary: DropSummary) -> None:
        self.import_panel.finish(summary.text())
        self.import_panel.offer_finish(summary.undetected)

    def import_files(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(
            self, "Import documents", self.user.last_folder,
            "Documents (*.pdf *.txt *.docx *.png *.jpg *.jpeg *.tif *.tiff);;"
            "Tables (*.csv *.tsv *.xlsx *.parquet *.jsonl);;All files (*)")
        if files:
            self.import_paths([Path(f) for f in files])

    def import_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Import folder", self.user.last_folder)
        if folder:
            self.import_paths([Path(folder)])

    def _ask_password(self, path: str) -> None:
        password, ok = QInputDialog.getText(
            self, "Password protected PDF",
            f"Password for {Path(path).name}:", QLineEdit.EchoMode.Password)
        if ok and password:
            self.controller.import_paths([Path(path)], password=password)

    def detect_selected(self) -> None:
        ids = self.documents.selected_ids() or None
        self.controller.detect(ids)

    # ------------------------------------------------------------------ review

    def _documents_changed(self, entries: list) -> None:
        current = self.controller.current_id
        self.documents.model.set_entries(entries)
        if current:
            self.documents.select_document(current)

    def _open_document(self, document_id: str) -> None:
        if document_id != self.controller.current_id or self.review.document is None:
            self.controller.load_document(document_id)

    def _document_loaded(self, loaded: LoadedDocument) -> None:
        self.review.show_document(loaded)
        self.page_view.show_document(loaded)
        if self.tabs.currentIndex() == DIFF_TAB:
            self.controller.request_diff(loaded.document.id)

    def _span_changed(self, document_id: str, span: object) -> None:
        if self.review.document is not None and self.review.document.id == document_id:
            self.review.apply_span(span)  # type: ignore[arg-type]
            loaded = LoadedDocument(self.review.document, tuple(self.review.spans()))
            self.page_view.update_spans(loaded)

    def _tab_changed(self, index: int) -> None:
        if index == DIFF_TAB and self.review.document is not None:
            self.controller.request_diff(self.review.document.id)

    def _diff_ready(self, data: DiffData) -> None:
        if self.review.document is not None and data.document.id == self.review.document.id:
            self.diff.show_diff(data)

    def mark_reviewed(self) -> None:
        self.review_flow.mark_reviewed()  # and open the next document needing review

    def _undo_state(self, can_undo: bool, can_redo: bool) -> None:
        self.actions_by_name["undo"].setEnabled(can_undo)
        self.actions_by_name["redo"].setEnabled(can_redo)

    def _focus_filter(self) -> None:
        self.documents.filter.setFocus()
        self.documents.filter.selectAll()

    # ------------------------------------------------------------------ export / settings

    def export(self) -> None:
        project = self.controller.project
        if project is None:
            return
        dialog = ExportDialog(self, selected=self.documents.selected_ids(),
                              formats=tuple(project.settings.export_formats),
                              folder=str(Path(self.user.last_folder) / "deidentified"))
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.exportRequested.connect(self._start_export)
        dialog.cancelRequested.connect(self.controller.cancel)
        self.controller.exportFinished.connect(dialog.show_report)
        self.controller.progress.connect(dialog.set_progress)
        # Only this dialog's own end forgets it (a closed one is destroyed later, maybe
        # after the next one opened).
        dialog.destroyed.connect(lambda: self._forget_dialog("export_dialog", dialog))
        self.export_dialog = dialog
        dialog.open()

    def _forget_dialog(self, name: str, dialog: object) -> None:
        if getattr(self, name) is dialog:
            setattr(self, name, None)

    def _export_not_started(self) -> None:
        if self.export_dialog is not None:
            self.export_dialog.show_error("Export cancelled: nothing was written.")

    def export_review_copy(self) -> None:
        """Review PDFs of the selected (else all) documents into a folder the user picks."""
        if self.controller.project is None:
            return
        folder = QFileDialog.getExistingDirectory(
            self, "Export review copy (keep it with the originals: it holds their text)",
            self.user.last_folder)
        if folder:
            self.controller.export_review_copy(self.documents.selected_ids() or None,
                                               Path(folder))

    def _start_export(self, ids: list[str] | None, folder: Path, formats: list[str]) -> None:
        """Ask first when documents to export are still open (``OpenWorkDialog``)."""
        self._pending_export = (ids, folder, formats)
        self.controller.plan_export(ids)

    def _export_planned(self, plan: ExportPlan) -> None:
        pending, self._pending_export = self._pending_export, None
        if pending is None:
            return
        ids, folder, formats = pending
        if not plan.open:
            self.controller.export(ids, folder, formats)
            return
        names = {e.id: e.name for e in self.documents.model.entries()}
        dialog = OpenWorkDialog(self, plan, names)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen(choice: str) -> None:
            if choice == SETTLED:
                self.controller.export(list(plan.settled), folder, formats)
            else:
                self.controller.export(ids, folder, formats, confirmed_open=plan.open)

        dialog.chosen.connect(chosen)
        dialog.rejected.connect(self._export_not_started)
        dialog.destroyed.connect(lambda: self._forget_dialog("open_work_dialog", dialog))
        self.open_work_dialog = dialog
        dialog.open()

    def open_settings(self) -> None:
        project = self.controller.project
        dialog = SettingsDialog(self, project=project.settings if project else None,
                                user=self.user)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.projectChanged.connect(lambda ch: self.controller.update_settings(**ch))
        dialog.modelInfoRequested.connect(self.controller.request_model_info)
        self.controller.modelInfo.connect(dialog.show_model_info)
        dialog.accepted.connect(self._user_settings_changed)
        dialog.open()

    def _user_settings_changed(self) -> None:
        self.review.uncertain_below = self.user.uncertain_below
        self.controller.runner.pool.setMaxThreadCount(self.user.threads)

    # ------------------------------------------------------------------ misc

    def _scale(self, step: int) -> None:
        if self.tabs.currentIndex() == PAGE_TAB:  # Ctrl+= / Ctrl+- zoom the page shown
            self.page_view.zoom.step(step)
            return
        self.user.text_scale = max(-4, min(12, self.user.text_scale + step))
        self._apply_scale()

    def _apply_scale(self) -> None:
        # Relative to the system font, so the OS text-size setting is always respected.
        font = QFont(QApplication.font())
        font.setPointSizeF(max(6.0, self._base_point_size + self.user.text_scale))
        for w in (self.review.text, self.diff.left, self.diff.right):
            w.setFont(font)

    def _error(self, message: str) -> None:
        self.statusBar().showMessage(message, 10000)
        if self.export_dialog is not None and message.startswith("export"):
            self.export_dialog.show_error(message)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.controller.shutdown()
        super().closeEvent(event)


def fitted_size(available: QSize) -> QSize:
    """1280 x 800, or less on a small or scaled screen (1600 x 1000 at 150 % leaves about
    1066 x 640): the whole window, frame included, stays on the screen."""
    return QSize(min(1280, int(available.width() * 0.95)),
                 min(800, int(available.height() * 0.92)))


def ask(parent: QWidget, title: str, text: str) -> bool:
    return QMessageBox.question(parent, title, text) == QMessageBox.StandardButton.Yes


__all__ = ["MainWindow", "QTimer"]
