"""The project passphrase, asked once per project when it is opened or created. The OS
keyring (the optional ``keyring`` package) can keep it if the user ticks the box; without
that package the box is not shown and nothing is stored anywhere."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

log = logging.getLogger(__name__)

KEYRING_SERVICE = "ClearNote project"


@dataclass(frozen=True)
class PassphraseAnswer:
    passphrase: str = field(repr=False)
    remember: bool = False


def keyring_module() -> ModuleType | None:
    try:
        import keyring  # optional: not a dependency of ClearNote
    except ImportError:
        return None
    return keyring


def keyring_works() -> bool:
    """Whether a keyring backend that can store secrets is there: without one (a headless
    Linux has only keyring's "fail" backend) the option is not offered."""
    kr = keyring_module()
    if kr is None:
        return False
    try:
        backend = kr.get_keyring()
    except Exception as exc:  # noqa: BLE001 - a broken keyring setup: no option
        log.info("keyring unavailable (%s)", type(exc).__name__)
        return False
    module = type(backend).__module__
    if module.startswith(("keyring.backends.fail", "keyring.backends.null")):
        return False
    if module.startswith("keyring.backends.chainer"):
        return bool(getattr(backend, "backends", ()))
    return True


def stored_passphrase(path: Path) -> str | None:
    kr = keyring_module()
    if kr is None:
        return None
    try:
        return kr.get_password(KEYRING_SERVICE, str(Path(path).resolve()))
    except Exception as exc:  # noqa: BLE001 - no usable backend (headless): just ask
        log.info("keyring unavailable (%s)", type(exc).__name__)
        return None


def remember_passphrase(path: Path, passphrase: str | None) -> None:
    """Store (or, with None, forget) the passphrase of ``path`` in the OS keyring."""
    kr = keyring_module()
    if kr is None:
        return
    try:
        if passphrase is None:
            kr.delete_password(KEYRING_SERVICE, str(Path(path).resolve()))
        else:
            kr.set_password(KEYRING_SERVICE, str(Path(path).resolve()), passphrase)
    except Exception as exc:  # noqa: BLE001 - the project opens anyway
        log.info("keyring unavailable (%s)", type(exc).__name__)


class PassphraseDialog(QDialog):
    def __init__(self, parent: QWidget | None, project_name: str, *, new: bool,
                 retry: bool = False) -> None:
        super().__init__(parent)
        self.new = new
        self.setWindowTitle("New project passphrase" if new else "Project passphrase")
        layout = QVBoxLayout(self)
        intro = (f"{project_name} will be encrypted. Choose a passphrase: without it the "
                 "project cannot be opened by anyone, you included." if new else
                 f"{project_name} is encrypted. Enter its passphrase.")
        if retry:
            intro = "That passphrase does not open the project. " + intro
        text = QLabel(intro)
        text.setWordWrap(True)
        layout.addWidget(text)
        form = QFormLayout()
        self.passphrase = QLineEdit()
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase.setAccessibleName("Passphrase")
        form.addRow("&Passphrase:", self.passphrase)
        self.repeat = QLineEdit()
        self.repeat.setEchoMode(QLineEdit.EchoMode.Password)
        self.repeat.setAccessibleName("Repeat passphrase")
        if new:
            form.addRow("&Repeat:", self.repeat)
        layout.addLayout(form)
        self.remember = QCheckBox("Remember it in the system &keyring")
        self.remember.setVisible(keyring_works())
        layout.addWidget(self.remember)
        self.problem = QLabel("")
        layout.addWidget(self.problem)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def _accept(self) -> None:
        if not self.passphrase.text():
            self.problem.setText("The passphrase must not be empty.")
        elif self.new and self.repeat.text() != self.passphrase.text():
            self.problem.setText("The two passphrases differ.")
        else:
            self.accept()

    def answer(self) -> PassphraseAnswer:
        return PassphraseAnswer(self.passphrase.text(),
                                self.remember.isVisible() and self.remember.isChecked())


def ask_passphrase(parent: QWidget | None, project_name: str, *, new: bool,
                   retry: bool = False) -> PassphraseAnswer | None:
    """Modal: the answer, or None when the user cancelled."""
    dialog = PassphraseDialog(parent, project_name, new=new, retry=retry)
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.answer()
    finally:
        dialog.deleteLater()
