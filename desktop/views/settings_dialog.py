"""Settings: project options (they change results, so they live in the project file) and
user preferences (QSettings)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.settings import UserSettings
from engine.api import ProjectSettings
from engine.core.domain import SurrogateMode
from engine.core.policies import POLICIES


class SettingsDialog(QDialog):
    projectChanged = Signal(dict)  # ProjectSettings field → new value
    modelInfoRequested = Signal(str)  # path: hash and size are computed in a worker

    def __init__(self, parent: QWidget | None, *, project: ProjectSettings | None,
                 user: UserSettings) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.user = user
        self.original = project
        tabs = QTabWidget(self)

        # -- project: what is PHI and how it is replaced
        proj = QWidget(self)
        pform = QFormLayout(proj)
        self.policy = QComboBox(proj)
        for name, pol in POLICIES.items():
            self.policy.addItem(name, name)
            self.policy.setItemData(self.policy.count() - 1, pol.description, 3)
        self.policy.setToolTip("Which identifiers count as PHI in this project")
        self.mode = QComboBox(proj)
        for mode in SurrogateMode:
            self.mode.addItem(mode.value, mode)
        self.mode.setToolTip("surrogate: realistic replacements; tag: [LABEL]; redact: █████")
        self.ner = QComboBox(proj)
        for text, value in (("automatic (when installed)", "auto"), ("on", True),
                            ("off", False)):
            self.ner.addItem(text, value)
        self.ner.setToolTip("ONNX name/entity model")
        self.gazetteers = QCheckBox("Name and place dictionaries", proj)
        self.allowlist = QCheckBox("Clinical allowlist (keep eponyms, drugs, variants)", proj)
        self.ner_model = _PathRow(proj, "ONNX model (.onnx)", "ONNX models (*.onnx)")
        self.llm_model = _PathRow(proj, "GGUF model (.gguf)", "GGUF models (*.gguf)")
        self.ner_model.chosen.connect(self.modelInfoRequested)
        self.llm_model.chosen.connect(self.modelInfoRequested)
        self.model_info = QLabel("", proj)
        self.model_info.setWordWrap(True)
        pform.addRow("Policy:", self.policy)
        pform.addRow("Replacement:", self.mode)
        pform.addRow("NER detector:", self.ner)
        pform.addRow("", self.gazetteers)
        pform.addRow("", self.allowlist)
        pform.addRow("NER model:", self.ner_model)
        pform.addRow("LLM model:", self.llm_model)
        pform.addRow("", self.model_info)
        if project is None:
            proj.setEnabled(False)
        else:
            self.policy.setCurrentIndex(max(0, self.policy.findData(project.policy)))
            self.mode.setCurrentIndex(max(0, self.mode.findData(project.mode)))
            self.ner.setCurrentIndex(max(0, self.ner.findData(project.ner)))
            self.gazetteers.setChecked(project.gazetteers)
            self.allowlist.setChecked(project.allowlist)
            self.ner_model.edit.setText(project.ner_model or "")
            self.llm_model.edit.setText(project.llm_model or "")
        tabs.addTab(proj, "Project")

        # -- user: how this machine runs and shows things
        usr = QWidget(self)
        uform = QFormLayout(usr)
        self.threads = QSpinBox(usr)
        self.threads.setRange(1, 64)
        self.threads.setValue(user.threads)
        self.threads.setToolTip("Worker threads for import, detection and export")
        self.threshold = QDoubleSpinBox(usr)
        self.threshold.setRange(0.0, 1.0)
        self.threshold.setSingleStep(0.05)
        self.threshold.setValue(user.uncertain_below)
        self.threshold.setToolTip("Candidates below this confidence are 'uncertain' (U)")
        self.ocr = QComboBox(usr)
        for name in ("tesseract", "doctr"):
            self.ocr.addItem(name, name)
        self.ocr.setCurrentIndex(max(0, self.ocr.findData(user.ocr_engine)))
        self.ocr.setToolTip("OCR engine for scans (docTR needs its model added first)")
        uform.addRow("Threads:", self.threads)
        uform.addRow("Uncertain below:", self.threshold)
        uform.addRow("OCR engine:", self.ocr)
        tabs.addTab(usr, "This computer")

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self._save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(buttons)

    def show_model_info(self, text: str) -> None:
        self.model_info.setText(text)

    def project_changes(self) -> dict[str, Any]:
        if self.original is None:
            return {}
        new = {"policy": self.policy.currentData(), "mode": self.mode.currentData(),
               "ner": self.ner.currentData(), "gazetteers": self.gazetteers.isChecked(),
               "allowlist": self.allowlist.isChecked(),
               "ner_model": self.ner_model.edit.text().strip() or None,
               "llm_model": self.llm_model.edit.text().strip() or None}
        return {k: v for k, v in new.items() if getattr(self.original, k) != v}

    def _save(self) -> None:
        self.user.threads = self.threads.value()
        self.user.uncertain_below = self.threshold.value()
        self.user.ocr_engine = str(self.ocr.currentData())
        changes = self.project_changes()
        if changes:
            self.projectChanged.emit(changes)
        self.accept()


class _PathRow(QWidget):
    chosen = Signal(str)

    def __init__(self, parent: QWidget, placeholder: str, pattern: str) -> None:
        super().__init__(parent)
        self.pattern = pattern
        self.edit = QLineEdit(self)
        self.edit.setPlaceholderText(placeholder)
        self.edit.setToolTip(f"{placeholder}: verified by sha256 when the project uses it")
        add = QPushButton("Add…", self)
        add.setToolTip(f"Choose a {placeholder} file on this computer")
        add.clicked.connect(self._browse)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(add)

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Add model", str(Path.home()), self.pattern)
        if path:
            self.edit.setText(path)
            self.chosen.emit(path)
