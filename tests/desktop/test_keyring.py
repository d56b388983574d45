"""The desktop keeps a project's passphrase in the OS keyring when the user ticks the box
(issue 15, scope 1), tested through the real ``keyring`` package with an in-memory backend
installed by ``keyring.set_keyring`` (a test fixture standing in for the OS's secret store):
store, retrieve (no prompt), a wrong stored passphrase (dropped, the user asked again, the
file untouched) and removal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from desktop.controllers.project_controller import ProjectController
from desktop.settings import UserSettings
from desktop.views import passphrase_dialog
from desktop.views.main_window import MainWindow
from desktop.views.passphrase_dialog import KEYRING_SERVICE, PassphraseAnswer
from engine.api import PipelineConfig, Project
from tests.desktop.helpers import TIMEOUT_MS, shown_window

keyring = pytest.importorskip("keyring")
from keyring.backend import KeyringBackend  # noqa: E402
from keyring.errors import PasswordDeleteError  # noqa: E402

PASS = "heron tallow 52 brook"


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.secrets: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.secrets.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.secrets[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.secrets.pop((service, username), None) is None:
            raise PasswordDeleteError("not stored")


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


def _window(qtbot: QtBot, user: UserSettings) -> MainWindow:
    return shown_window(qtbot, ProjectController(threads=2), user)


def test_keyring_store_retrieve_wrong_and_remove(
        qtbot: QtBot, tmp_path: Path, user_settings: UserSettings,
        memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "enc.clearnote"
    Project.create(path, passphrase=PASS, pipeline=PipelineConfig(ner=False)).close()
    key = (KEYRING_SERVICE, str(path.resolve()))
    asked: list[bool] = []
    answers: list[PassphraseAnswer] = [PassphraseAnswer(PASS, remember=True)]

    def fake_ask(parent: object, name: str, *, new: bool, retry: bool = False
                 ) -> PassphraseAnswer:
        asked.append(retry)
        return answers.pop(0)

    monkeypatch.setattr(passphrase_dialog, "ask_passphrase", fake_ask)
    assert passphrase_dialog.keyring_module() is keyring
    window = _window(qtbot, user_settings)
    c = window.controller

    # Store: the box ticked keeps the passphrase under the project's full path.
    window.open_project_at(path)
    qtbot.waitUntil(lambda: c.is_open, timeout=TIMEOUT_MS)
    assert asked == [False] and memory_keyring.secrets == {key: PASS}
    c.close_project()

    # Retrieve: the stored copy opens the project without a prompt.
    window.open_project_at(path)
    qtbot.waitUntil(lambda: c.is_open, timeout=TIMEOUT_MS)
    assert asked == [False]
    c.close_project()

    # Wrong stored passphrase: dropped from the keyring, the user asked again (told so),
    # the project file unchanged by the failed attempt.
    memory_keyring.secrets[key] = "an old passphrase"
    answers.append(PassphraseAnswer(PASS, remember=False))
    window.open_project_at(path)
    qtbot.waitUntil(lambda: c.is_open, timeout=TIMEOUT_MS)
    assert asked == [False, True]
    assert key not in memory_keyring.secrets
    c.close_project()
    assert Project.is_encrypted(path)

    # Removal: forgetting removes the entry; forgetting twice is harmless.
    passphrase_dialog.remember_passphrase(path, PASS)
    assert passphrase_dialog.stored_passphrase(path) == PASS
    passphrase_dialog.remember_passphrase(path, None)
    assert passphrase_dialog.stored_passphrase(path) is None
    passphrase_dialog.remember_passphrase(path, None)
    assert memory_keyring.secrets == {}
    window.close()


def test_keyring_option_only_where_a_backend_stores_secrets(
        qtbot: QtBot, memory_keyring: MemoryKeyring) -> None:
    from keyring.backends import fail

    dialog = passphrase_dialog.PassphraseDialog(None, "study.clearnote", new=True)
    qtbot.addWidget(dialog)
    assert passphrase_dialog.keyring_works() and not dialog.remember.isHidden()
    keyring.set_keyring(fail.Keyring())  # a headless Linux: nothing stores secrets
    dialog = passphrase_dialog.PassphraseDialog(None, "study.clearnote", new=True)
    qtbot.addWidget(dialog)
    assert not passphrase_dialog.keyring_works() and dialog.remember.isHidden()
    assert dialog.answer().remember is False
