"""Tesseract handles are pooled across documents (found by the ingest fuzzer, issue 15):
kept per thread, each image document's fresh OCR threads made (and leaked) a new ~12 MB
handle and paid its load time again."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from engine.ingest import load_document
from engine.ingest.ocr import TesseractEngine, default_workers


def test_ocr_reuses_its_tesseract_handles_across_documents(tmp_path: Path) -> None:
    image = Image.new("L", (360, 80), 255)
    ImageDraw.Draw(image).text((8, 30), "Follow up in three months", fill=0)
    path = tmp_path / "scan.png"
    image.save(path)
    engine = TesseractEngine(detect_orientation=False)
    try:
        for _ in range(5):
            doc = load_document(path, ocr=engine)
            assert doc.pages and doc.pages[0].ocr
        assert 1 <= len(engine._apis) <= default_workers()
    finally:
        engine.close()
    assert engine._apis == []
