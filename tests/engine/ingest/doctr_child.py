"""Run in the training interpreter (torch + python-doctr): build docTR's default detection and
recognition models with random weights, save them as a ClearNote docTR weights folder, and
read a rendered page through ``engine.ingest.load_document`` with ``DoctrEngine``, the path
the app takes for a scanned image, with every network call refused.

Usage: python doctr_child.py OUT_DIR  -> prints one JSON line describing the Document.
The MobileNet variants keep it to seconds on a CPU; the engine code path is the same for
the default ResNet/VGG pair.
Synthetic text only.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

ATTEMPTS: list[str] = []


def _refuse(name: str) -> Any:
    def blocked(*_args: Any, **_kwargs: Any) -> Any:
        ATTEMPTS.append(name)
        raise OSError(f"network blocked in this test ({name})")

    return blocked


def block_network() -> None:
    """Python-level guard: any connect, DNS lookup or new connection raises."""
    socket.socket.connect = _refuse("connect")  # type: ignore[method-assign]
    socket.socket.connect_ex = _refuse("connect_ex")  # type: ignore[method-assign]
    socket.create_connection = _refuse("create_connection")
    socket.getaddrinfo = _refuse("getaddrinfo")
    socket.gethostbyname = _refuse("gethostbyname")


def declare_torchvision_ops_if_unloadable() -> bool:
    """PyPI's torchvision wheel is a CUDA build; beside a CPU-only torch (this machine's
    training venv) its C++ ops cannot load and ``import torchvision`` fails registering fake
    kernels for nms/qnms. Declaring those two schemas lets it import; docTR's OCR models use
    neither (its box post-processing is OpenCV). Returns whether the workaround was needed."""
    import importlib.util

    import torch

    spec = importlib.util.find_spec("torchvision")
    assert spec is not None and spec.submodule_search_locations
    so = next(Path(spec.submodule_search_locations[0]).glob("_C*.so"), None)
    try:
        if so is None:
            raise OSError("no _C library")
        torch.ops.load_library(str(so))
        return False
    except (OSError, RuntimeError):
        lib = torch.library.Library("torchvision", "DEF")
        lib.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        lib.define("qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        globals()["_TORCHVISION_LIB"] = lib  # the definitions live as long as the Library
        return True


def save_random_weights(folder: Path, det_arch: str, reco_arch: str) -> None:
    import torch
    from doctr.models import detection, recognition

    torch.manual_seed(0)
    folder.mkdir(parents=True, exist_ok=True)
    det = getattr(detection, det_arch)(pretrained=False, pretrained_backbone=False)
    reco = getattr(recognition, reco_arch)(pretrained=False, pretrained_backbone=False)
    torch.save(det.state_dict(), folder / "det.pt")
    torch.save(reco.state_dict(), folder / "reco.pt")


def render_page(path: Path) -> None:
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(img)
    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 28)
    except OSError:
        font = ImageFont.load_default()
    lines = ("Referral letter", "Patient: Zebulon Quill", "DOB 1961-03-14",
             "Seen by Dr. Ellery Marlo at Larkspur Clinic.")
    for i, line in enumerate(lines):
        draw.text((40, 40 + i * 80), line, fill="black", font=font)
    img.save(path)


DET_ARCH, RECO_ARCH = "db_mobilenet_v3_large", "crnn_mobilenet_v3_small"
WIDTH, HEIGHT = 900, 400


def log(started: float, step: str) -> None:
    print(f"[{time.perf_counter() - started:6.1f}s] {step}", file=sys.stderr, flush=True)


def main(out: Path) -> None:
    started = time.perf_counter()
    os.environ.update(HF_HUB_OFFLINE="1", DOCTR_CACHE_DIR=str(out / "doctr-cache"))
    (out / "doctr-cache").mkdir(parents=True, exist_ok=True)
    block_network()
    workaround = declare_torchvision_ops_if_unloadable()

    import torch

    torch.set_num_threads(1)  # a shared CI machine; one page needs no more
    from engine.ingest import DoctrEngine, load_document

    log(started, "imported")
    weights = out / "doctr-weights"
    save_random_weights(weights, DET_ARCH, RECO_ARCH)
    page = out / "page.png"
    render_page(page)
    log(started, "weights saved, page rendered")

    # pretrained (the default): weights from the folder, as the app configures it
    ocr = DoctrEngine(weights_dir=weights, det_arch=DET_ARCH, reco_arch=RECO_ARCH)
    doc = load_document(page, ocr=ocr)
    log(started, "document read")
    print(json.dumps({
        "text_type": type(doc.text).__name__,
        "text_len": len(doc.text),
        "media_type": doc.media_type,
        "pages": [{"number": p.number, "start": p.start, "end": p.end, "width": p.width,
                   "height": p.height, "ocr": p.ocr} for p in doc.pages],
        "boxes_len": len(doc.boxes),
        "boxes_in_page": all(b is None or (b.page == 1 and 0 <= b.x0 <= b.x1 <= WIDTH
                                           and 0 <= b.y0 <= b.y1 <= HEIGHT) for b in doc.boxes),
        "confidences_ok": all(0.0 <= c <= 1.0 and 0 <= s < e <= len(doc.text)
                              for s, e, c in doc.confidences),
        "words": len(doc.confidences),
        "archs": [ocr.det_arch, ocr.reco_arch],
        "weights": sorted(p.name for p in weights.iterdir()),
        "network_attempts": ATTEMPTS,
        "cache_files": sorted(str(p) for p in (out / "doctr-cache").rglob("*") if p.is_file()),
        "torchvision_ops_declared": workaround,
    }))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
