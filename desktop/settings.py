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
        raw = self.q.value("recent_projects", [], type=list) or []
        return [Path(p) for p in raw if p and Path(p).is_file()]

    def add_recent(self, path: Path) -> None:
        items = [str(path.resolve())] + [str(p) for p in self.recent_projects()
                                         if p.resolve() != path.resolve()]
        self.q.setValue("recent_projects", items[:MAX_RECENT])

    def _get(self, key: str, default: object, kind: type) -> object:
        return self.q.value(key, default, type=kind)

    @property
    def threads(self) -> int:
        return int(self._get("threads", max(1, (os.cpu_count() or 2) - 1), int))  # type: ignore[arg-type]

    @threads.setter
    def threads(self, value: int) -> None:
        self.q.setValue("threads", int(value))

    @property
    def uncertain_below(self) -> float:
        """Review navigation: candidates under this confidence count as uncertain."""
        return float(self._get("uncertain_below", 0.85, float))  # type: ignore[arg-type]

    @uncertain_below.setter
    def uncertain_below(self, value: float) -> None:
        self.q.setValue("uncertain_below", float(value))

    @property
    def ocr_engine(self) -> str:
        return str(self._get("ocr_engine", "tesseract", str))

    @ocr_engine.setter
    def ocr_engine(self, value: str) -> None:
        self.q.setValue("ocr_engine", value)

    @property
    def text_scale(self) -> int:
        """Extra points on top of the system font size (View → Larger/Smaller text)."""
        return int(self._get("text_scale", 0, int))  # type: ignore[arg-type]

    @text_scale.setter
    def text_scale(self, value: int) -> None:
        self.q.setValue("text_scale", int(value))

    @property
    def last_folder(self) -> str:
        return str(self._get("last_folder", str(Path.home()), str))

    @last_folder.setter
    def last_folder(self, value: str) -> None:
        self.q.setValue("last_folder", value)
