"""Put the Qt xcb platform libraries a bare Linux lacks (libxcb-icccm4, libxcb-keysyms1,
libxcb-cursor0 ...: desktop.platform_check.XCB_LIBRARIES) into the desktop bundle, copied
from the build machine, with each Debian package's copyright file under licenses/ and a
section in NOTICES.txt. installer/build.sh runs it after notices.py.

    python installer/xcb_libraries.py DIST_DIR

Without one of them on the build machine the build fails and names the apt-get line that
installs them: a bundle without them would not open its window on a bare Debian.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop.platform_check import XCB_LIBRARIES, debian_package, install_command  # noqa: E402

DOCS = Path("/usr/share/doc")
_LDCONFIG_LINE = re.compile(r"^\s*(\S+)\s+\(([^)]*)\)\s+=>\s+(\S+)\s*$", re.MULTILINE)


def system_libraries(ldconfig_output: str, multiarch: str | None = None) -> dict[str, Path]:
    """soname → path from ``ldconfig -p``; where a soname is there for several
    architectures, the one in this Python's multiarch folder (x86_64-linux-gnu)."""
    found: dict[str, Path] = {}
    for soname, _flags, path in _LDCONFIG_LINE.findall(ldconfig_output):
        if soname not in found or (multiarch and f"/{multiarch}/" in path
                                   and f"/{multiarch}/" not in str(found[soname])):
            found[soname] = Path(path)
    return found


def _ldconfig() -> str:
    for command in ("ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig"):
        try:
            done = subprocess.run([command, "-p"], capture_output=True, text=True, timeout=30,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return done.stdout
    return ""


def lib_dir(dist: Path) -> Path | None:
    """Where the bundle's Qt libraries lie: their RUNPATH ($ORIGIN) finds these beside them,
    for the plugin's own links and for the dlopen of libxcb-cursor."""
    for candidate in (dist / "_internal" / "PySide6" / "Qt" / "lib", dist / "_internal"):
        if candidate.is_dir():
            return candidate
    return None


def bundle(dist: Path, sonames: tuple[str, ...] = XCB_LIBRARIES,
           ldconfig_output: str | None = None) -> list[str]:
    """Copy ``sonames`` into ``dist`` with their notices; returns what could not be
    bundled (a soname or a missing copyright file), empty when all went in."""
    target = lib_dir(dist)
    if target is None:
        return [f"{dist}: no _internal folder (run PyInstaller first)"]
    found = system_libraries(ldconfig_output if ldconfig_output is not None else _ldconfig(),
                             sysconfig.get_config_var("MULTIARCH"))
    absent = [s for s in sonames if s not in found or not found[s].is_file()]
    absent += [f"{s} (no {DOCS / debian_package(s) / 'copyright'})" for s in sonames
               if s not in absent and not (DOCS / debian_package(s) / "copyright").is_file()]
    if absent:
        return absent  # checked before copying anything: no half-bundled libraries
    licences = dist / "licenses"
    licences.mkdir(parents=True, exist_ok=True)
    lines = ["", "System libraries bundled for the Qt xcb platform plugin (Linux), from the",
             "build machine's Debian packages; their copyright files are in licenses/:"]
    for soname in sonames:
        package = debian_package(soname)
        copyright_file = DOCS / package / "copyright"
        shutil.copy2(found[soname].resolve(), target / soname)
        shutil.copyfile(copyright_file, licences / f"{package}-copyright")
        lines.append(f"  {soname}: Debian package {package} (MIT/X11-style licence; terms in "
                     f"licenses/{package}-copyright)")
    with (dist / "NOTICES.txt").open("a", encoding="utf-8") as notices:
        notices.write("\n".join(lines) + "\n")
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path)
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        return 0  # Qt's own platform plugins on Windows and macOS need no system libraries
    problems = bundle(args.dist)
    if problems:
        sonames = [p.split(" ")[0] for p in problems if ".so." in p]
        print("error: the bundle cannot carry the Qt xcb libraries the window needs on "
              "Linux; missing on this build machine: " + ", ".join(problems)
              + (f"\ninstall them and build again: {install_command(sonames)}"
                 if sonames else ""), file=sys.stderr)
        return 1
    print(f"bundled {len(XCB_LIBRARIES)} Qt xcb libraries into {lib_dir(args.dist)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
