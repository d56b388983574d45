"""The desktop asks for a project's passphrase once when creating or opening it: new
projects are encrypted, a wrong passphrase asks again (the file untouched), cancel opens
nothing. The dialog's answer is monkeypatched; the dialog itself is checked separately."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.controllers.project_controller import ProjectController
from desktop.settings import UserSettings
from desktop.views import passphrase_dialog
from desktop.views.main_window import MainWindow
from desktop.views.passphrase_dialog import PassphraseAnswer, PassphraseDialog
from engine.api import PipelineConfig, Project
from tests.desktop.helpers import TIMEOUT_MS, shown_window

PASS = "heron tallow 52 brook"


def _window(qtbot: QtBot, user: UserSettings) -> MainWindow:
    controller = ProjectController(threads=2)
    # Rules only: the test is about the passphrase, not the model.
    controller._create = lambda path, **kw: Project.create(  # type: ignore[method-assign]
        path, **{**kw, "pipeline": PipelineConfig(ner=False)})
    return shown_window(qtbot, controller, user)


def test_create_encrypted_then_reopen_after_a_wrong_passphrase(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[bool, bool]] = []
    answers = iter([PASS, "wrong guess", PASS])
    path = tmp_path / "enc.clearnote"
    after_wrong: list[str] = []

    def fake_ask(parent: object, name: str, *, new: bool, retry: bool = False
                 ) -> PassphraseAnswer:
        asked.append((new, retry))
        if retry:
            after_wrong.append(hashlib.sha256(path.read_bytes()).hexdigest())
        return PassphraseAnswer(next(answers))

    monkeypatch.setattr(passphrase_dialog, "ask_passphrase", fake_ask)
    window = _window(qtbot, user_settings)
    c = window.controller
    window.create_project_at(path)
    qtbot.waitUntil(lambda: c.is_open, timeout=TIMEOUT_MS)
    assert c.project is not None and c.project.encrypted and Project.is_encrypted(path)
    c.close_project()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    window.open_project_at(path)
    qtbot.waitUntil(lambda: c.is_open, timeout=TIMEOUT_MS)
    # Once for the new project, then a wrong passphrase and a second, told-so prompt.
    assert asked == [(True, False), (False, False), (False, True)]
    assert after_wrong == [before]  # the wrong passphrase did not touch the file
    c.close_project()
    window.close()


def test_cancel_opens_nothing_and_plain_projects_need_no_passphrase(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(passphrase_dialog, "ask_passphrase", lambda *a, **k: None)
    window = _window(qtbot, user_settings)
    c = window.controller
    window.create_project_at(tmp_path / "never.clearnote")
    Project.create(tmp_path / "enc.clearnote", passphrase=PASS,
                   pipeline=PipelineConfig(ner=False)).close()
    window.open_project_at(tmp_path / "enc.clearnote")
    qtbot.wait(300)
    assert not c.is_open and not (tmp_path / "never.clearnote").exists()
    Project.create(tmp_path / "plain.clearnote", pipeline=PipelineConfig(ner=False)).close()
    window.open_project_at(tmp_path / "plain.clearnote")
    qtbot.waitUntil(lambda: c.is_open, timeout=TIMEOUT_MS)
    c.close_project()
    window.close()


def test_dialog_checks_the_repeat_and_hides_keyring_without_the_package(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(passphrase_dialog, "keyring_module", lambda: None)
    dialog = PassphraseDialog(None, "x.clearnote", new=True)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.passphrase.setText("one")
    dialog.repeat.setText("two")
    dialog._accept()
    assert dialog.result() != PassphraseDialog.DialogCode.Accepted
    assert "differ" in dialog.problem.text()
    assert not dialog.remember.isVisible()
    dialog.repeat.setText("one")
    dialog._accept()
    assert dialog.result() == PassphraseDialog.DialogCode.Accepted
    assert dialog.answer() == PassphraseAnswer("one", False)
    assert "one" not in repr(dialog.answer())
