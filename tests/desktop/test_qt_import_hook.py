"""The desktop's cheaper PySide6 import check gives PySide6's own answer, faster."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import desktop  # noqa: F401 - installs the hook
from desktop import qt_import_hook


def _feature():  # type: ignore[no-untyped-def]
    return sys.modules["shibokensupport.feature"]


def test_installed_once_and_wraps_pysides_check() -> None:
    check = _feature()._mod_uses_pyside
    assert callable(check.__wrapped__)
    assert qt_import_hook.install()
    assert _feature()._mod_uses_pyside is check  # a second install changes nothing


def test_same_answer_as_pyside_for_real_modules() -> None:
    check = _feature()._mod_uses_pyside
    modules = [m for name, m in sorted(sys.modules.items())
               if name.startswith(("desktop", "engine", "sqlalchemy", "json", "email"))
               and str(getattr(m, "__file__", "")).endswith(".py")]
    assert len(modules) > 10
    answers = [check(m) for m in modules]
    assert answers == [check.__wrapped__(m) for m in modules]
    assert any(answers) and not all(answers)  # the desktop's modules use PySide6


def test_fresh_imports_are_classified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cn_uses_qt.py").write_text("from PySide6.QtCore import QObject\n")
    (tmp_path / "cn_plain.py").write_text("# no Qt here: ünïcode comment\nVALUE = 1\n",
                                          encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    # a plain import statement: shiboken hooks builtins.__import__, not importlib
    exec("import cn_uses_qt, cn_plain", {})
    table = _feature().pyside_feature_dict
    assert table["cn_uses_qt"] != -1  # PySide6's mark for a module that uses it
    assert table["cn_plain"] == -1
