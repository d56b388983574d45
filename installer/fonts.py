"""Put DejaVu Sans into the desktop bundle (``_internal/fonts``), copied from the build
machine with the Debian package's copyright file under licenses/ and a section in
NOTICES.txt: a minimal Debian has no fonts, and Qt then draws every letter as an empty box
(desktop.fonts registers these when the system offers none). installer/build.sh runs it
after xcb_libraries.py.

    python installer/fonts.py DIST_DIR

Without them on the build machine the build fails and names the apt-get line.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

SOURCE = Path("/usr/share/fonts/truetype/dejavu")
FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf")
PACKAGE = "fonts-dejavu-core"
COPYRIGHT = Path("/usr/share/doc") / PACKAGE / "copyright"


def target_dir(dist: Path) -> Path | None:
    """The folder the frozen app reads as ``sys._MEIPASS``."""
    internal = dist / "_internal"
    return internal / "fonts" if internal.is_dir() else None


def bundle(dist: Path, source: Path | None = None, copyright_file: Path | None = None
           ) -> list[str]:
    """Copy the fonts and their notice; returns what could not be bundled (empty when all
    went in). Nothing is copied unless everything is there."""
    source = source or SOURCE
    copyright_file = copyright_file or COPYRIGHT
    target = target_dir(dist)
    if target is None:
        return [f"{dist}: no _internal folder (run PyInstaller first)"]
    absent = [str(source / name) for name in FILES if not (source / name).is_file()]
    if not copyright_file.is_file():
        absent.append(str(copyright_file))
    if absent:
        return absent
    target.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copy2(source / name, target / name)
    licences = dist / "licenses"
    licences.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(copyright_file, licences / f"{PACKAGE}-copyright")
    with (dist / "NOTICES.txt").open("a", encoding="utf-8") as notices:
        notices.write("\nFonts used where the system has none: " + ", ".join(FILES)
                      + f", from the Debian package {PACKAGE} (DejaVu fonts licence, "
                      f"Bitstream Vera derived; terms in licenses/{PACKAGE}-copyright)\n")
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path)
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        return 0  # Windows and macOS always have system fonts
    problems = bundle(args.dist)
    if problems:
        print("error: the bundle cannot carry its fallback fonts; missing on this build "
              f"machine: {', '.join(problems)}\ninstall them and build again: "
              f"sudo apt-get install -y {PACKAGE}", file=sys.stderr)
        return 1
    print(f"bundled {len(FILES)} fonts into {target_dir(args.dist)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
