"""A computer with no fonts (a minimal Debian, a container): Qt draws every letter as an
empty box. The desktop bundle carries DejaVu Sans (installer/fonts.py copies it in); when
the system offers no font family, the app registers the bundled ones and uses them."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtGui import QFontDatabase, QGuiApplication

FONT_DIR = "fonts"  # inside the bundle's _internal folder (sys._MEIPASS)
FAMILY = "DejaVu Sans"
# What fontconfig lists with no font installed: aliases, no glyphs behind them.
GENERIC = frozenset({"Monospace", "Sans Serif", "Serif", "Sans", "Mono", "System-ui"})


def system_has_fonts() -> bool:
    return any(f not in GENERIC for f in QFontDatabase.families())


def bundled_font_dir() -> Path | None:
    base = getattr(sys, "_MEIPASS", None)
    return Path(base) / FONT_DIR if base else None


def register_fonts(folder: Path) -> list[str]:
    """Add the ``.ttf`` files in ``folder`` to the application; their families."""
    families: list[str] = []
    for path in sorted(folder.glob("*.ttf")):
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id >= 0:
            families += [f for f in QFontDatabase.applicationFontFamilies(font_id)
                         if f not in families]
    return families


def ensure_fonts(app: QGuiApplication, folder: Path | None = None) -> list[str]:
    """Where the system has no fonts, the bundled ones, DejaVu Sans as the application's
    font; returns the families added (none where the system has its own)."""
    if system_has_fonts():
        return []
    folder = folder or bundled_font_dir()
    if folder is None or not folder.is_dir():
        return []
    families = register_fonts(folder)
    if families:
        font = app.font()
        font.setFamily(FAMILY if FAMILY in families else families[0])
        app.setFont(font)
    return families
