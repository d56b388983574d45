"""installer/xcb_libraries.py: the desktop bundle carries the Qt xcb libraries a bare Linux
lacks (the list desktop.platform_check checks), with their copyright files, or the build
fails and names the apt-get line."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from desktop import platform_check

ROOT = Path(__file__).resolve().parents[1]


def _xcb() -> ModuleType:
    spec = importlib.util.spec_from_file_location("xcb_libraries",
                                                  ROOT / "installer" / "xcb_libraries.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_bundles_platform_checks_list_after_the_notices() -> None:
    assert _xcb().XCB_LIBRARIES == platform_check.XCB_LIBRARIES
    script = (ROOT / "installer" / "build.sh").read_text(encoding="utf-8")
    notices = script.index("installer/notices.py dist/ClearNote")
    assert script.index("installer/xcb_libraries.py dist/ClearNote") > notices
    assert "set -euo pipefail" in script  # a failed bundling step fails the build


@pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("ldd") is None,
                    reason="the xcb plugin is Linux only")
def test_the_list_is_what_the_installed_xcb_plugin_links() -> None:
    """Every xcb library the plugin links (or dlopens), beyond libxcb itself and
    libxkbcommon, is on the list, and nothing else is."""
    root = platform_check._qt_root()
    plugin = root / "plugins" / "platforms" / "libqxcb.so" if root else None
    if plugin is None or not plugin.is_file():
        pytest.skip("PySide6's xcb plugin is not installed")
    linked: set[str] = set()
    for target in (plugin, *sorted((plugin.parents[2] / "lib").glob("libQt6XcbQpa.so*"))[:1]):
        out = subprocess.run(["ldd", str(target)], capture_output=True, text=True,
                             check=False).stdout
        linked.update(re.findall(r"^\s*(libx(?:cb-[\w\-]+|kbcommon-x11)\.so\.\d+)", out,
                                 re.MULTILINE))
    linked.update(f"lib{name}.so.0" for name in platform_check.DLOPENED)
    assert linked == set(platform_check.XCB_LIBRARIES)


def _fake_system(tmp_path: Path, sonames: tuple[str, ...]) -> str:
    libs = tmp_path / "usr" / "lib" / "x86_64-linux-gnu"
    libs.mkdir(parents=True)
    lines = [f"{len(sonames)} libs found in cache `/etc/ld.so.cache'"]
    for soname in sonames:
        (libs / f"{soname}.9.9").write_bytes(b"\x7fELF " + soname.encode())
        (libs / soname).symlink_to(f"{soname}.9.9")
        lines.append(f"\t{soname} (libc6,x86-64) => {libs / soname}")
        doc = tmp_path / "doc" / platform_check.debian_package(soname)
        doc.mkdir(parents=True)
        (doc / "copyright").write_text(f"Copyright X.Org for {soname}\n", encoding="utf-8")
    return "\n".join(lines) + "\n"


def test_bundling_copies_each_library_and_its_copyright(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    xcb = _xcb()
    sonames = ("libxcb-icccm.so.4", "libxkbcommon-x11.so.0")
    ldconfig = _fake_system(tmp_path, sonames)
    monkeypatch.setattr(xcb, "DOCS", tmp_path / "doc")
    dist = tmp_path / "dist" / "ClearNote"
    qt_lib = dist / "_internal" / "PySide6" / "Qt" / "lib"
    qt_lib.mkdir(parents=True)
    (dist / "NOTICES.txt").write_text("ClearNote third-party notices\n", encoding="utf-8")
    assert xcb.bundle(dist, sonames, ldconfig) == []
    copied = qt_lib / "libxcb-icccm.so.4"
    assert copied.is_file() and not copied.is_symlink()
    assert copied.read_bytes().endswith(b"libxcb-icccm.so.4")
    assert (dist / "licenses" / "libxkbcommon-x11-0-copyright").read_text(
        encoding="utf-8").startswith("Copyright X.Org")
    notices = (dist / "NOTICES.txt").read_text(encoding="utf-8")
    assert "libxcb-icccm.so.4: Debian package libxcb-icccm4" in notices


def test_a_missing_library_fails_the_build_with_the_apt_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    xcb = _xcb()
    monkeypatch.setattr(xcb, "_ldconfig", lambda: _fake_system(tmp_path, ("libxcb-shm.so.0",)))
    monkeypatch.setattr(xcb, "DOCS", tmp_path / "doc")
    monkeypatch.setattr(xcb.sys, "platform", "linux")
    dist = tmp_path / "ClearNote"
    (dist / "_internal").mkdir(parents=True)
    assert xcb.main([str(dist)]) == 1
    err = capsys.readouterr().err
    assert "sudo apt-get install -y libxcb-cursor0 libxcb-icccm4" in err
    assert "libxcb-shm0" not in err  # the build machine has it
    assert not (dist / "_internal" / "libxcb-shm.so.0").exists()  # nothing half-bundled


def test_no_bundle_folder_is_a_clear_error(tmp_path: Path) -> None:
    problems = _xcb().bundle(tmp_path / "nothing", ("libxcb-icccm.so.4",), "")
    assert problems and "run PyInstaller first" in problems[0]


def test_ldconfig_prefers_this_architecture() -> None:
    out = ("\tlibxcb-util.so.1 (libc6) => /usr/lib/i386-linux-gnu/libxcb-util.so.1\n"
           "\tlibxcb-util.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libxcb-util.so.1\n")
    found = _xcb().system_libraries(out, "x86_64-linux-gnu")
    assert found == {"libxcb-util.so.1": Path("/usr/lib/x86_64-linux-gnu/libxcb-util.so.1")}
