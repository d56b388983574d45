"""Per-user preferences (QSettings). Anything that changes results is a project setting
and lives in the project file instead (see the settings dialog)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

ORG = "ClearNote"
APP = "ClearNote"
MAX_RECENT = 8


class UserSettings:
    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.q = qsettings or QSettings(ORG, APP)

    # Recent projects, newest first; missing files are dropped when read.
    def recent_projects(self) -> list[Path]:
        raw = self.q.value("recent_projects", [], type=list)
        items = raw if isinstance(raw, list) else []
        return [Path(p) for p in items if isinstance(p, str) and p and Path(p).is_file()]

    def add_recent(self, path: Path) -> None:
        items = [str(path.resolve())] + [str(p) for p in self.recent_projects()
                                         if p.resolve() != path.resolve()]
        self.q.setValue("recent_projects", items[:MAX_RECENT])

    # QSettings converts to the requested type; a value that cannot be read falls back.
    def _int(self, key: str, default: int) -> int:
        value = self.q.value(key, default, type=int)
        return value if isinstance(value, int) else default

    def _float(self, key: str, default: float) -> float:
        value = self.q.value(key, default, type=float)
        return float(value) if isinstance(value, int | float) else default

    def _str(self, key: str, default: str) -> str:
        value = self.q.value(key, default, type=str)
        return value if isinstance(value, str) else default

    @property
    def threads(self) -> int:
        return self._int("threads", max(1, (os.cpu_count() or 2) - 1))

    @threads.setter
    def threads(self, value: int) -> None:
        self.q.setValue("threads", int(value))

    @property
    def uncertain_below(self) -> float:
        """Review navigation: candidates under this confidence count as uncertain."""
        return self._float("uncertain_below", 0.85)

    @uncertain_below.setter
    def uncertain_below(self, value: float) -> None:
        self.q.setValue("uncertain_below", float(value))

    @property
    def ocr_engine(self) -> str:
        return self._str("ocr_engine", "tesseract")

    @ocr_engine.setter
    def ocr_engine(self, value: str) -> None:
        self.q.setValue("ocr_engine", value)

    @property
    def text_scale(self) -> int:
        """Extra points on top of the system font size (View → Larger/Smaller text)."""
        return self._int("text_scale", 0)

    @text_scale.setter
    def text_scale(self, value: int) -> None:
        self.q.setValue("text_scale", int(value))

    @property
    def last_folder(self) -> str:
        return self._str("last_folder", str(Path.home()))

    @last_folder.setter
    def last_folder(self, value: str) -> None:
        self.q.setValue("last_folder", value)
