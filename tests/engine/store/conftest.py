from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.domain import SurrogateMode
from engine.project import Project
from tests.engine.store.fakes import FAKE_SERVICES, letter


@pytest.fixture
def make_project(tmp_path: Path):
    opened: list[Project] = []

    def make(name: str = "study", **kw) -> Project:
        kw.setdefault("services", FAKE_SERVICES)
        kw.setdefault("mode", SurrogateMode.SURROGATE)
        p = Project.create(tmp_path / f"{name}.clearnote", **kw)
        opened.append(p)
        return p

    yield make
    for p in opened:
        p.close()


@pytest.fixture
def letters(tmp_path: Path) -> Path:
    folder = tmp_path / "letters"
    folder.mkdir()
    for i in range(4):
        (folder / f"letter_{i}.txt").write_text(letter(i).text(i), encoding="utf-8")
    return folder
