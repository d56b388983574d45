"""A minimal Debian has no fonts, and the bundle's window then showed every letter as an
empty box (seen on a debootstrap'd bookworm, issue 27): installer/fonts.py puts DejaVu Sans
into the bundle with its copyright file, and desktop.fonts registers it where the system
offers no font family."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _fonts() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bundle_fonts",
                                                  ROOT / "installer" / "fonts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_fonts(tmp_path: Path, names: tuple[str, ...]) -> tuple[Path, Path]:
    source = tmp_path / "dejavu"
    source.mkdir()
    for name in names:
        (source / name).write_bytes(b"\x00\x01\x00\x00 fake " + name.encode())
    copyright_file = tmp_path / "copyright"
    copyright_file.write_text("Fonts are (c) Bitstream; DejaVu changes are public domain\n",
                              encoding="utf-8")
    return source, copyright_file


def test_the_build_runs_it_after_the_xcb_libraries() -> None:
    script = (ROOT / "installer" / "build.sh").read_text(encoding="utf-8")
    xcb = script.index("installer/xcb_libraries.py dist/ClearNote")
    assert script.index("installer/fonts.py dist/ClearNote") > xcb


def test_bundling_copies_the_fonts_and_their_notice(tmp_path: Path) -> None:
    fonts = _fonts()
    source, copyright_file = _fake_fonts(tmp_path, fonts.FILES)
    dist = tmp_path / "ClearNote"
    (dist / "_internal").mkdir(parents=True)
    (dist / "NOTICES.txt").write_text("ClearNote third-party notices\n", encoding="utf-8")
    assert fonts.bundle(dist, source, copyright_file) == []
    assert sorted(p.name for p in (dist / "_internal" / "fonts").iterdir()) == sorted(fonts.FILES)
    assert (dist / "licenses" / "fonts-dejavu-core-copyright").is_file()
    assert "fonts-dejavu-core" in (dist / "NOTICES.txt").read_text(encoding="utf-8")


def test_a_missing_font_fails_the_build_with_the_apt_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    fonts = _fonts()
    source, copyright_file = _fake_fonts(tmp_path, fonts.FILES[:1])
    monkeypatch.setattr(fonts, "SOURCE", source)
    monkeypatch.setattr(fonts, "COPYRIGHT", copyright_file)
    monkeypatch.setattr(fonts.sys, "platform", "linux")
    dist = tmp_path / "ClearNote"
    (dist / "_internal").mkdir(parents=True)
    assert fonts.main([str(dist)]) == 1
    assert "sudo apt-get install -y fonts-dejavu-core" in capsys.readouterr().err
    assert not (dist / "_internal" / "fonts").exists()  # nothing half-bundled


SYSTEM_DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.mark.skipif(not SYSTEM_DEJAVU.is_file(),
                    reason="DejaVu Sans is not installed (make test installs "
                    "fonts-dejavu-core where apt-get can)")
def test_the_app_registers_bundled_fonts_where_the_system_has_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtGui import QFontDatabase

    from desktop import fonts
    from desktop.app import make_app

    app = make_app()
    folder = tmp_path / "fonts"
    folder.mkdir()
    (folder / "DejaVuSans.ttf").write_bytes(SYSTEM_DEJAVU.read_bytes())
    assert fonts.ensure_fonts(app, folder) == []  # this system has fonts: nothing added
    before = app.font()
    # What a debootstrap'd bookworm without fonts lists: fontconfig's aliases only.
    monkeypatch.setattr(QFontDatabase, "families",
                        staticmethod(lambda *a: ["Monospace", "Sans Serif", "Serif"]))
    try:
        assert fonts.ensure_fonts(app, folder) == ["DejaVu Sans"]
        assert app.font().family() == "DejaVu Sans"
    finally:
        app.setFont(before)
