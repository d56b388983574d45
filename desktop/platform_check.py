"""Before the window opens on Linux: are the system libraries Qt's xcb platform plugin
needs there? A bare Debian lacks libxcb-icccm4, libxcb-keysyms1 and libxcb-cursor0, and
Qt then only says "could not load the Qt platform plugin". ``python -m
desktop.platform_check`` (run by ``make run``, and by the app itself before it loads Qt's
GUI libraries) names the missing ones and the command that installs them; exit status 1
when some are missing. Qt itself is not imported. In the desktop bundle the xcb libraries
are inside; what it still needs from the system is what PyInstaller never bundles, the
X client and GL libraries (libxcb1, libgl1, libegl1), which a Debian without a desktop
(a minimal install, a container) lacks."""

from __future__ import annotations

import ctypes.util
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

# Loaded by the plugin at run time (dlopen), so ldd cannot see them.
DLOPENED = ("xcb-cursor",)
# What the xcb plugin needs beyond libxcb, libX11, libxkbcommon and GL, which every X
# session has: the libraries a bare Debian lacks. The desktop bundle carries exactly these
# (installer/xcb_libraries.py copies them from the build machine).
XCB_LIBRARIES = ("libxcb-cursor.so.0", "libxcb-icccm.so.4", "libxcb-image.so.0",
                 "libxcb-keysyms.so.1", "libxcb-randr.so.0", "libxcb-render-util.so.0",
                 "libxcb-render.so.0", "libxcb-shape.so.0", "libxcb-shm.so.0",
                 "libxcb-sync.so.1", "libxcb-util.so.1", "libxcb-xfixes.so.0",
                 "libxcb-xkb.so.1", "libxkbcommon-x11.so.0")
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def debian_package(soname: str) -> str:
    """libxcb-icccm.so.4 → libxcb-icccm4; libxkbcommon-x11.so.0 → libxkbcommon-x11-0;
    libGL.so.1 → libgl1 (package names are lower case)."""
    base, _, version = soname.partition(".so.")
    version = version.split(".")[0]
    name = f"{base}{'-' if base[-1:].isdigit() else ''}{version}" if version else base
    return name.lower()


def missing_from_ldd(output: str) -> list[str]:
    return sorted(set(_NOT_FOUND.findall(output)))


def install_command(sonames: list[str]) -> str:
    return "sudo apt-get install -y " + " ".join(sorted({debian_package(m) for m in sonames}))


def _qt_root() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "Qt"


def missing_libraries() -> list[str]:
    """Sonames the xcb plugin needs that the system lacks (empty off Linux)."""
    root = _qt_root()
    chosen = os.environ.get("QT_QPA_PLATFORM", "xcb")
    if not sys.platform.startswith("linux") or root is None or not chosen.startswith("xcb"):
        return []  # another platform plugin (offscreen, wayland) needs none of these
    targets = [root / "plugins" / "platforms" / "libqxcb.so",
               *sorted((root / "lib").glob("libQt6XcbQpa.so*"))[:1]]
    missing: set[str] = set()
    for target in targets:
        if target.is_file():
            try:
                done = subprocess.run(["ldd", str(target)], capture_output=True, text=True,
                                      timeout=30, check=False)
            except (OSError, subprocess.TimeoutExpired):
                return []  # no ldd: let Qt speak for itself
            missing.update(missing_from_ldd(done.stdout))
    for name in DLOPENED:  # the desktop bundle carries its own copy beside Qt's libraries
        if (not (root / "lib" / f"lib{name}.so.0").is_file()
                and ctypes.util.find_library(name) is None):
            missing.add(f"lib{name}.so.0")
    return sorted(missing)


def main() -> int:
    missing = missing_libraries()
    if not missing:
        return 0
    print("The ClearNote window needs system libraries this computer does not have:\n  "
          + ", ".join(missing)
          + f"\nInstall them (Debian/Ubuntu): {install_command(missing)}\n"
          "(other distributions: the packages that provide these files), then run again.",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
