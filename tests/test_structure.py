"""Small modules and classes (issue 14): no module of engine/ or desktop/ over 500 lines,
no class over 400. A module that grows past the limit is split along a seam (data tables,
a helper class, a group of methods), never by raising the limit."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "desktop")
MAX_MODULE_LINES = 500
MAX_CLASS_LINES = 400


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_the_packages_have_modules() -> None:
    assert len(_modules()) > 50  # the glob found the code, so the checks below mean something


def test_no_module_over_the_line_limit() -> None:
    long = {str(p.relative_to(ROOT)): n for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_class_over_the_line_limit() -> None:
    long = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                # From the first decorator: a decorated class owns its decorator lines.
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                if (n := node.end_lineno - start + 1) > MAX_CLASS_LINES:
                    long[f"{path.relative_to(ROOT)}:{node.name}"] = n
    assert long == {}, f"classes over {MAX_CLASS_LINES} lines: {long}"
