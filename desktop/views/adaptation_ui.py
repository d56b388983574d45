"""Puts learning from the reviewer (issue 25) into the main window: the banner (a title-less
dock across the top, so it never covers the work), the "What ClearNote learned" dock and a
Learning menu, all wired to an ``AdaptationController``. The main window calls
``install_adaptation`` once; everything else lives here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from desktop.controllers.adaptation_controller import AdaptationController, Offer
from desktop.views.adapt_banner import AdaptBanner
from desktop.views.learned_panel import LearnedPanel

if TYPE_CHECKING:
    from desktop.views.main_window import MainWindow


@dataclass
class AdaptationUi:
    controller: AdaptationController
    banner: AdaptBanner
    banner_dock: QDockWidget
    panel: LearnedPanel
    panel_dock: QDockWidget
    window: QMainWindow

    def _fit(self) -> None:
        """As tall as the banner's text at the window's width: dock areas ignore a wrapped
        label's height-for-width, so the strip would be three lines tall."""
        layout = self.banner.layout()
        if layout is not None and layout.hasHeightForWidth():
            self.banner.setFixedHeight(layout.totalHeightForWidth(self.window.width() - 16))

    def show_panel(self) -> None:
        self.panel_dock.show()
        self.panel_dock.raise_()

    def toggle_panel(self) -> None:
        if self.panel_dock.isVisible():
            self.panel_dock.hide()
        else:
            self.show_panel()

    def show_offer(self, offer: Offer | None) -> None:
        self.banner.show_offer(offer)  # it hides itself when an offer is withdrawn
        self.banner_dock.setVisible(not self.banner.isHidden())
        self._fit()

    def show_outcome(self, text: str, ok: bool = True) -> None:
        self.banner.show_outcome(text, ok=ok)
        self.banner_dock.show()
        self._fit()

    def hide_all(self) -> None:
        self.banner_dock.hide()
        self.panel_dock.hide()

    def learn(self, recheck_only: bool = False) -> None:
        if self.controller.learn(recheck_only=recheck_only) is not None:
            self.banner.show_started()
            self.banner_dock.show()
            self._fit()


def install_adaptation(window: MainWindow) -> AdaptationUi:
    controller = AdaptationController(window.controller, window)
    banner = AdaptBanner(window)
    banner_dock = QDockWidget("Learn from your review", window)
    banner_dock.setObjectName("adapt_banner_dock")
    banner_dock.setTitleBarWidget(QWidget(banner_dock))  # a banner, not a panel
    banner_dock.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
    banner_dock.setWidget(banner)
    window.addDockWidget(Qt.DockWidgetArea.TopDockWidgetArea, banner_dock)
    banner_dock.hide()
    panel = LearnedPanel(window)
    panel_dock = QDockWidget("What ClearNote learned", window)
    panel_dock.setObjectName("learned_dock")
    panel_dock.setWidget(panel)
    panel_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                           | QDockWidget.DockWidgetFeature.DockWidgetMovable)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, panel_dock)
    panel_dock.hide()
    ui = AdaptationUi(controller, banner, banner_dock, panel, panel_dock, window)

    controller.offerChanged.connect(ui.show_offer)
    controller.learnProgress.connect(banner.show_progress)
    controller.learnFinished.connect(ui.show_outcome)
    controller.learnStopped.connect(lambda text: ui.show_outcome(text, ok=False))
    controller.entriesReady.connect(panel.show_view)
    controller.message.connect(lambda text: window.statusBar().showMessage(text, 8000))
    banner.learnRequested.connect(ui.learn)
    banner.dismissRequested.connect(controller.dismiss)
    banner.cancelRequested.connect(controller.cancel)
    banner.panelRequested.connect(ui.show_panel)
    banner.close_button.clicked.connect(banner_dock.hide)
    panel.removeRequested.connect(controller.remove)
    panel.undoRequested.connect(controller.undo)
    panel.refreshRequested.connect(controller.refresh_entries)
    panel_dock.visibilityChanged.connect(lambda visible: _panel_visible(controller, visible))
    window.controller.projectClosed.connect(ui.hide_all)
    stop = window.actions_by_name.get("cancel")  # Esc stops learning like any long work
    if stop is not None:
        stop.triggered.connect(controller.cancel)

    menu = window.menuBar().addMenu("&Learning")
    for name, text, keys, tip, slot in (
            ("learn", "&Learn from review and re-check…", "Ctrl+Shift+L",
             "Learn names and clinical words from your review decisions, then re-check the "
             "documents nobody reviewed", ui.learn),
            ("learned_panel", "&What ClearNote learned", "Ctrl+L",
             "Show or hide what ClearNote learned from this project", ui.toggle_panel)):
        act = QAction(text, window)
        act.setShortcut(QKeySequence(keys))
        act.setStatusTip(tip)
        act.setToolTip(tip)
        act.triggered.connect(lambda _checked=False, slot=slot: slot())
        window.addAction(act)
        menu.addAction(act)
        window.actions_by_name[name] = act
    return ui


def _panel_visible(controller: AdaptationController, visible: bool) -> None:
    controller.panel_wanted = visible
    if visible:
        controller.refresh_entries()
