"""installer/notices.py: the bundle names every package it ships with its licence, carries
their licence texts, and credits the data (GeoNames CC BY 4.0, MTS-Dialog/mtsamples)."""

from __future__ import annotations

import importlib.util
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]


def _notices():  # noqa: ANN202
    spec = importlib.util.spec_from_file_location("notices", ROOT / "installer" / "notices.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _direct_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {canonicalize_name(Requirement(r).name) for r in project["dependencies"]}


def test_every_runtime_dependency_is_listed_with_its_licence() -> None:
    notices = _notices()
    text = notices.render()
    listed = {canonicalize_name(line.split()[0]): line.split(": ", 1)[1]
              for line in text.splitlines() if line.startswith("  ") and ": " in line
              and not line.startswith("    ")}
    assert _direct_dependencies() <= set(listed)
    assert listed["clearnote"] == "Apache-2.0"
    assert all(licence != "not stated" for licence in listed.values()), listed
    assert "pytest" not in text.lower()  # development tools stay out
    assert "GeoNames" in text and "CC BY 4.0" in text and "www.mtsamples.com" in text


def test_licence_texts_are_copied(tmp_path: Path) -> None:
    notices = _notices()
    if not notices.SYSTEM_LICENCES.is_dir():
        pytest.skip("no /usr/share/common-licenses: the LGPL text of PySide6 comes from there")
    n, missing = notices.write_licence_files((), tmp_path)
    assert missing == []
    names = {p.name for p in tmp_path.iterdir()}
    assert n == len(names)
    assert "clearnote-licenses_LICENSE" in names or "clearnote-LICENSE" in names
    assert {"pyside6-essentials-LGPL-3", "pyside6-essentials-GPL-3"} <= names
    assert any(name.startswith("faker-") for name in names)
