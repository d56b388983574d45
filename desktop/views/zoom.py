"""Zoom for the page view: fit width (the default), fit page, or a chosen factor.

A fitted mode follows the view's size (a resize refits); zooming in or out leaves it for a
factor that stays until the reader fits again."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QGraphicsView, QHBoxLayout, QLabel, QToolButton, QWidget

STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.05, 16.0


class ZoomBar(QWidget):
    def __init__(self, view: QGraphicsView, parent: QWidget) -> None:
        super().__init__(parent)
        self.view = view
        self.mode = "width"  # "width" | "page" | "factor"
        self.factor = 1.0
        self.label = QLabel("", self)
        self.label.setMinimumWidth(48)
        self.label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for text, tip, slot in (("−", "Zoom out (Ctrl+- or Ctrl+wheel)", lambda: self.step(-1)),
                                ("+", "Zoom in (Ctrl+= or Ctrl+wheel)", lambda: self.step(1)),
                                ("Fit width", "Fit the page width (Ctrl+0)",
                                 self.fit_width_mode),
                                ("Fit page", "Show the whole page (Ctrl+9)",
                                 self.fit_page_mode)):
            button = QToolButton(self)
            button.setText(text)
            button.setToolTip(tip)
            button.setAccessibleName(tip.split(" (")[0])
            button.clicked.connect(slot)
            layout.addWidget(button)
        layout.addWidget(self.label)
        # Ctrl+= / Ctrl+- belong to the window's View menu, which zooms the page while the
        # page is shown (two shortcuts on one key would both go silent as ambiguous).
        for key, slot in (("Ctrl+0", self.fit_width_mode), ("Ctrl+9", self.fit_page_mode)):
            shortcut = QShortcut(QKeySequence(key), parent)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)

    def current(self) -> float:
        return self.view.transform().m11()

    def fit_width_mode(self) -> None:
        self.mode = "width"
        self.refit()

    def fit_page_mode(self) -> None:
        self.mode = "page"
        self.refit()

    def step(self, direction: int) -> None:
        factor = self.current() * (STEP if direction > 0 else 1 / STEP)
        self.mode, self.factor = "factor", min(MAX_ZOOM, max(MIN_ZOOM, factor))
        self._apply(self.factor)

    def refit(self) -> None:
        rect = self.view.sceneRect()
        if rect.width() <= 0 or rect.height() <= 0:
            return
        port = self.view.viewport()
        if self.mode == "factor":
            self._apply(self.factor)
            return
        margin = 4.0
        width = (port.width() - margin) / rect.width()
        if self.mode == "page":
            self._apply(min(width, (port.height() - margin) / rect.height()))
        else:
            self._apply(width)

    def _apply(self, factor: float) -> None:
        factor = min(MAX_ZOOM, max(MIN_ZOOM, factor))
        self.view.resetTransform()
        self.view.scale(factor, factor)
        self.label.setText(f"{factor * 100:.0f} %")
