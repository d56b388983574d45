"""PDFium is not thread-safe: the desktop's workers rendering a page, placing its boxes and
ingesting a PDF at the same time crashed the process (a segfault in ``get_page`` beside a
``render``). Every PDFium call holds one lock (engine.ingest.pdfium_lock): these threads
must all finish, with the same results as one at a time."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from engine.ingest.frames import page_frames
from engine.ingest.pdf import load_pdf
from engine.ingest.pdfium_lock import PDFIUM, serialized
from engine.ingest.render import render_page
from tests.fixtures_docs import write_text_pdf


def test_threads_rendering_placing_and_ingesting_one_pdf_all_finish(tmp_path: Path) -> None:
    pdf = write_text_pdf(tmp_path / "letter.pdf")
    doc = load_pdf(pdf)
    alone = (render_page(doc, 1, dpi=40).size, page_frames(doc)[1])

    def work(k: int) -> object:
        if k % 3 == 0:
            return render_page(doc, 1, dpi=40).size
        if k % 3 == 1:
            return page_frames(doc)[1]
        return load_pdf(pdf).text

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(work, range(60)))
    assert all(r == alone[0] for r in results[0::3])
    assert all(r == alone[1] for r in results[1::3])
    assert all(r == doc.text for r in results[2::3])


def test_a_serialized_function_holds_the_lock_against_other_threads() -> None:
    def other_thread_gets_it() -> bool:
        with ThreadPoolExecutor(max_workers=1) as pool:
            got = pool.submit(PDFIUM.acquire, blocking=False).result()
        assert not got, "another thread took the PDFium lock while it was held"
        return got

    assert serialized(other_thread_gets_it)() is False
    with PDFIUM:  # re-entrant: a locked function may call another
        assert serialized(lambda: True)()
