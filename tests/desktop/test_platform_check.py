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
