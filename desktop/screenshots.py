"""Save PNGs of the real window for review: ``python -m desktop.screenshots [OUT_DIR]``.

Builds a throwaway project from synthetic documents (a referral letter, a discharge
summary, a scanned letter rendered to an image and read by OCR), drives the window like a
reviewer would, and grabs: the main list, the review view with highlights, the page view
of the scan, the side-by-side diff and the export summary. Runs offscreen if no display.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

LETTERS = {
    "referral_keller.txt":
        "Foothills Family Clinic\nReferral letter\n\nPatient: Anna Keller\nDOB: 1957-06-14\n"
        "PHN: 9876 543 210\nAddress: 12 Birch Lane, Calgary AB T2N 1N4\n"
        "Phone: 403-555-0142   Email: anna.keller@example.com\n\n"
        "Dear Dr. Peter Wong,\n\nI saw Anna Keller on 2024-02-11 for chest pain on exertion. "
        "ECG showed sinus rhythm, BP 142/88. She takes metformin 500 mg twice daily and "
        "ramipril 5 mg daily. Her daughter Lisa Keller drove her to the visit.\n\n"
        "Please assess for stable angina; a Bruce protocol exercise test may help.\n\n"
        "Sincerely,\nDr. Sam Lee\nFoothills Family Clinic, fax 403-555-0199\n",
    "discharge_novak.txt":
        "Discharge summary\nPatient: Brian Novak   MRN 40021877\n"
        "Admitted 2023-11-14, discharged 2023-11-20 from Bow Valley Hospital.\n"
        "Diagnosis: community-acquired pneumonia. Treated with ceftriaxone 1 g IV daily.\n"
        "Follow up with Dr. Elena Price on 2023-12-01. Contact: 780-555-0123.\n",
    "progress_olsen.txt":
        "Progress note 2024-03-02\nCarla Olsen, 67, seen in clinic with her son David.\n"
        "Parkinson's disease stable on levodopa. Next visit 2024-06-02.\n",
}
SCAN_LINES = ["Foothills Family Clinic", "Referral letter", "", "Patient: David Quinn",
              "DOB: 1949-02-23", "PHN: 9123 456 780", "Phone: 403-555-0177", "",
              "Dear Dr. Peter Wong,", "I saw David Quinn on 2024-02-11",
              "for shortness of breath. SpO2 93%.", "He takes furosemide 40 mg daily.",
              "Please assess.", "", "Dr. Sam Lee"]


def make_scan(path: Path) -> None:
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (1275, 1650), "white")
    draw = ImageDraw.Draw(img)
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    try:
        font = ImageFont.truetype("DejaVuSerif.ttf", 34)
    except OSError:
        font = ImageFont.load_default()
    y = 120
    for line in SCAN_LINES:
        draw.text((140, y), line, fill="black", font=font)
        y += 62
    img.save(path)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "screenshots").resolve()
    out.mkdir(parents=True, exist_ok=True)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QTextCursor
    from PySide6.QtWidgets import QApplication

    from desktop.app import make_app
    from desktop.controllers.project_controller import ProjectController
    from desktop.settings import UserSettings
    from desktop.views.main_window import DIFF_TAB, PAGE_TAB, REVIEW_TAB, MainWindow
    from engine.api import PipelineConfig
    from engine.core.domain import SpanStatus
    from engine.core.labels import Label

    app = make_app()
    work = Path(tempfile.mkdtemp(prefix="clearnote-shots-"))
    inputs = work / "letters"
    inputs.mkdir()
    for name, text in LETTERS.items():
        (inputs / name).write_text(text, encoding="utf-8")
    make_scan(inputs / "scanned_referral_quinn.png")

    def wait(cond: Callable[[], bool], timeout: float = 180.0) -> None:
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                raise TimeoutError("screenshot step timed out")
            app.processEvents()
            time.sleep(0.01)

    def settle(seconds: float = 0.3) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            app.processEvents()
            time.sleep(0.01)

    user = UserSettings(QSettings(str(work / "user.ini"), QSettings.Format.IniFormat))
    controller = ProjectController(threads=2)
    window = MainWindow(controller, user=user)
    window.resize(1500, 920)
    window.show()
    controller.create_project(work / "referrals.clearnote",
                              pipeline=PipelineConfig(policy="strict", ner=False))
    wait(lambda: controller.is_open)
    window.import_paths([inputs])
    wait(lambda: sum(1 for e in window.documents.model.entries()
                     if e.record.status.value == "detected") == len(LETTERS) + 1)
    wait(lambda: not controller.runner.busy)
    window.import_dock.hide()  # the batch is done; give the review the room
    saved: list[Path] = []

    def shot(widget: object, name: str) -> None:
        settle()
        path = out / name
        widget.grab().save(str(path))  # type: ignore[attr-defined]
        saved.append(path)

    # Review: open the referral letter, decide a few spans with the keyboard actions.
    model = window.documents.model
    ref_id = next(e.id for e in model.entries() if e.name == "referral_keller.txt")
    window.documents.select_document(ref_id)
    wait(lambda: window.review.document is not None and window.review.document.id == ref_id)
    review = window.review
    review.accept()
    review.accept()
    review.reject()
    review.accept()
    # A reviewer adds a missed span: the clinic street address line's city word.
    assert review.document is not None  # loaded: waited for above
    text = review.document.text
    wait(lambda: not controller.runner.busy)
    review.next_candidate()
    window.import_dock.show()
    shot(window, "01_main_list_and_review.png")
    window.import_dock.hide()
    shot(review, "02_review_view_highlights.png")

    # Accept what is left, mark reviewed, then the diff.
    for span in review.spans():
        if span.status is SpanStatus.CANDIDATE:
            controller.set_span_status(span.id, SpanStatus.ACCEPTED)
    # A reviewer's slip the retention check must catch: "metformin" marked as a name.
    start = text.index("metformin")
    cursor = review.text.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len("metformin"), QTextCursor.MoveMode.KeepAnchor)
    review.text.setTextCursor(cursor)
    review.add_selection(Label.PERSON)
    wait(lambda: not controller.runner.busy)
    window.tabs.setCurrentIndex(DIFF_TAB)
    wait(lambda: window.diff.data is not None and window.diff.data.document.id == ref_id)
    shot(window, "04_diff_with_cire_flags.png")

    # Page view of the scanned letter.
    scan_id = next(e.id for e in model.entries() if e.name.startswith("scanned_"))
    window.tabs.setCurrentIndex(PAGE_TAB)
    window.documents.select_document(scan_id)
    wait(lambda: window.review.document is not None and window.review.document.id == scan_id)
    wait(lambda: "highlight" in window.page_view.info.text())
    window.page_view.fit_width()
    shot(window, "03_page_view_scanned_letter.png")
    window.tabs.setCurrentIndex(REVIEW_TAB)

    # Export everything reviewed (mark both text letters reviewed first).
    controller.mark_reviewed(ref_id)
    wait(lambda: not controller.runner.busy)
    window.documents.table.clearSelection()
    window.export()
    dialog = window.export_dialog
    assert dialog is not None
    dialog.folder.setText(str(work / "export"))
    dialog.all_reviewed.setChecked(True)
    dialog.start_button.click()
    # Documents still open (candidates, HIGH CIRE flags): the export asks first.
    wait(lambda: dialog.report is not None or (
        window.open_work_dialog is not None and window.open_work_dialog.isVisible()))
    if dialog.report is None and window.open_work_dialog is not None:
        shot(window.open_work_dialog, "05a_export_asks.png")
        window.open_work_dialog.anyway_button.click()
    wait(lambda: dialog.report is not None)
    dialog.resize(720, 520)
    shot(dialog, "05_export_summary.png")
    dialog.close()
    controller.refresh_documents()
    wait(lambda: not controller.runner.busy)
    shot(window, "06_document_list_after_export.png")
    window.close()
    QApplication.processEvents()
    for path in saved:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
