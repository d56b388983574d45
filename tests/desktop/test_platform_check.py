"""`make run` names the Qt xcb libraries a bare Linux lacks and how to install them."""

from __future__ import annotations

import pytest

from desktop import platform_check

LDD = """\tlinux-vdso.so.1 (0x00007ffc)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f)
\tlibxkbcommon-x11.so.0 => not found
"""


def test_ldd_output_and_debian_names() -> None:
    missing = platform_check.missing_from_ldd(LDD)
    assert missing == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxkbcommon-x11.so.0"]
    assert [platform_check.debian_package(m) for m in missing] == [
        "libxcb-icccm4", "libxcb-keysyms1", "libxkbcommon-x11-0"]
    assert platform_check.debian_package("libxcb-cursor.so.0") == "libxcb-cursor0"


def test_message_names_the_install_command(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(platform_check, "missing_libraries",
                        lambda: ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    assert platform_check.main() == 1
    err = capsys.readouterr().err
    assert "sudo apt-get install -y libxcb-icccm4 libxcb-keysyms1" in err
    monkeypatch.setattr(platform_check, "missing_libraries", lambda: [])
    assert platform_check.main() == 0


def test_other_platform_plugins_need_no_xcb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert platform_check.missing_libraries() == []


def test_gl_and_egl_package_names_are_lower_case() -> None:
    # What the desktop bundle still needs from a Debian without a desktop (seen on a
    # debootstrap'd bookworm): PyInstaller never bundles these.
    assert [platform_check.debian_package(s) for s in
            ("libGL.so.1", "libEGL.so.1", "libxcb.so.1")] == ["libgl1", "libegl1", "libxcb1"]


def test_the_app_checks_before_it_loads_the_gui_libraries(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The bundle's window fails in Qt's import (libGL.so.1) with a traceback: the app runs
    the check first and prints the apt-get line instead."""
    from desktop import app

    monkeypatch.setattr(platform_check, "missing_libraries",
                        lambda: ["libEGL.so.1", "libGL.so.1", "libxcb.so.1"])

    def no_window(*_a: object) -> None:
        raise AssertionError("the window was started")

    monkeypatch.setattr(app, "make_app", no_window)
    assert app.main([]) == 1
    assert "sudo apt-get install -y libegl1 libgl1 libxcb1" in capsys.readouterr().err
