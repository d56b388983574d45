"""Entry point: ``clearnote-desktop`` or ``python -m desktop.app [project.clearnote]``."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from desktop.settings import APP, ORG

if TYPE_CHECKING:  # QtWidgets loads libGL/libEGL/libxcb: imported after the library check
    from PySide6.QtWidgets import QApplication


def make_app(argv: Sequence[str] | None = None) -> QApplication:
    from PySide6.QtWidgets import QApplication

    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QCoreApplication.setOrganizationName(ORG)
    QCoreApplication.setApplicationName(APP)
    app = QApplication(list(argv or sys.argv[:1]))
    app.setApplicationDisplayName("ClearNote")
    from desktop.fonts import ensure_fonts

    ensure_fonts(app)  # the bundle's DejaVu Sans where the system has no fonts
    return app


def smoke_test() -> int:
    """Bundle check: create a project, import a synthetic letter, detect, de-identify."""
    import tempfile

    from engine.api import PipelineConfig, Project

    with tempfile.TemporaryDirectory(prefix="clearnote-smoke-") as scratch:
        folder = Path(scratch)
        letter = folder / "letter.txt"
        letter.write_text("Patient: Anna Keller\nDOB: 1957-06-14\nPhone 403-555-0142\n"
                          "Lives in Halifax, Nova Scotia.\n", encoding="utf-8")
        with Project.create(folder / "smoke.clearnote",
                            pipeline=PipelineConfig(ner=False)) as project:
            project.import_paths([letter])
            report = project.detect()
            text = project.deidentify(report.detected[0]).text
    # The name needs the rules and dictionaries, the city the shipped location table.
    ok = "Anna Keller" not in text and "Halifax" not in text
    print("smoke test:", "ok" if ok else "FAILED")
    return 0 if ok else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if "--smoke-test" in args:
        return smoke_test()
    from desktop import platform_check

    if platform_check.main() != 0:  # names the missing system libraries, apt-get line
        return 1
    os.umask(0o077)  # projects, exports, backups: owner-only
    app = make_app([sys.argv[0], *args])
    from desktop.views.main_window import MainWindow

    window = MainWindow()
    window.show()
    projects = [a for a in args if a.endswith(".clearnote")]
    if projects:
        window.open_project_at(Path(projects[0]))
    return app.exec()


if __name__ == "__main__":
    raise SystemExit(main())
