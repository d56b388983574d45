"""The non-modal "learn from your review" banner across the top of the main window.

It shows an ``Offer`` (text and a button), then the learning's progress with Cancel, then
the outcome. It never blocks the window: the reviewer can keep working while it runs.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from desktop.controllers.adaptation_controller import Offer

_STAGES = {"adapt": "Learning", "detect": "Re-checking", "import": "Re-checking"}


class AdaptBanner(QFrame):
    learnRequested = Signal(bool)  # True: re-check only (the profile changed)
    dismissRequested = Signal()
    cancelRequested = Signal()
    panelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("adapt_banner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        # A strip as tall as its text: the dock must not take room from the work below.
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setStyleSheet("#adapt_banner { background: palette(alternate-base); "
                           "border: 1px solid palette(highlight); border-radius: 4px; }")
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.bar.setAccessibleName("Learning progress")
        self.bar.setMaximumWidth(260)
        self.learn_button = QPushButton("Learn and re-check", self)
        self.learn_button.setToolTip("Learn from your review decisions, then re-check the "
                                     "documents nobody reviewed (reviewed ones stay as they are)")
        self.not_now_button = QPushButton("Not now", self)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop learning; what was finished is kept (Esc)")
        self.panel_button = QPushButton("What ClearNote learned…", self)
        self.close_button = QPushButton("Close", self)
        self._recheck_only = False
        self.learn_button.clicked.connect(lambda: self.learnRequested.emit(self._recheck_only))
        self.not_now_button.clicked.connect(self.dismissRequested)
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.panel_button.clicked.connect(self.panelRequested)
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.text, 1)
        for w in (self.bar, self.learn_button, self.not_now_button, self.cancel_button,
                  self.panel_button, self.close_button):
            layout.addWidget(w)
        self.hide()

    def _buttons(self, *shown: QWidget) -> None:
        for w in (self.bar, self.learn_button, self.not_now_button, self.cancel_button,
                  self.panel_button, self.close_button):
            w.setVisible(w in shown)

    def show_offer(self, offer: Offer | None) -> None:
        if offer is None:
            if self.learn_button.isVisibleTo(self):  # an offer was showing: withdraw it
                self.hide()
            return
        self._recheck_only = offer.action == "recheck"
        self.learn_button.setText("Re-check" if self._recheck_only else "Learn and re-check")
        self.text.setText(offer.text)
        self._buttons(self.learn_button, self.not_now_button)
        self.show()

    def show_started(self) -> None:
        self.text.setText("Learning from your review…")
        self.bar.setRange(0, 0)
        self._buttons(self.bar, self.cancel_button)
        self.show()

    def show_progress(self, stage: str, done: int, total: int, message: str) -> None:
        if not self.cancel_button.isVisibleTo(self):
            return
        self.text.setText(f"{_STAGES.get(stage, 'Working')}: {message or stage}")
        if total > 0:
            self.bar.setRange(0, total)
            self.bar.setValue(min(done, total))
        else:
            self.bar.setRange(0, 0)

    def show_outcome(self, text: str, *, ok: bool = True) -> None:
        self.text.setText(text)
        if ok:
            self._buttons(self.panel_button, self.close_button)
        else:
            self._buttons(self.close_button)
        self.show()
