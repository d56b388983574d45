"""The hand-written ICU notes in benchmarks/data are gold that quality.py scores against: every
span lies inside its text, names a ClearNote label and no two records share an id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.labels import Label

DATA = Path(__file__).resolve().parents[1] / "benchmarks" / "data"
SETS = sorted(DATA.glob("icu_notes_*.jsonl"))


def test_the_icu_sets_are_there() -> None:
    assert [p.name for p in SETS] == [
        "icu_notes_dev.jsonl", "icu_notes_dev10.jsonl", "icu_notes_dev100.jsonl",
        "icu_notes_dev101.jsonl", "icu_notes_dev102.jsonl", "icu_notes_dev103.jsonl",
        "icu_notes_dev104.jsonl", "icu_notes_dev105.jsonl", "icu_notes_dev106.jsonl",
        "icu_notes_dev107.jsonl", "icu_notes_dev11.jsonl",
        "icu_notes_dev12.jsonl", "icu_notes_dev13.jsonl", "icu_notes_dev14.jsonl",
        "icu_notes_dev15.jsonl", "icu_notes_dev16.jsonl", "icu_notes_dev17.jsonl",
        "icu_notes_dev18.jsonl", "icu_notes_dev19.jsonl", "icu_notes_dev2.jsonl",
        "icu_notes_dev20.jsonl", "icu_notes_dev21.jsonl", "icu_notes_dev22.jsonl",
        "icu_notes_dev23.jsonl", "icu_notes_dev24.jsonl", "icu_notes_dev25.jsonl",
        "icu_notes_dev26.jsonl", "icu_notes_dev27.jsonl", "icu_notes_dev28.jsonl",
        "icu_notes_dev29.jsonl", "icu_notes_dev3.jsonl", "icu_notes_dev30.jsonl",
        "icu_notes_dev31.jsonl", "icu_notes_dev32.jsonl", "icu_notes_dev33.jsonl",
        "icu_notes_dev34.jsonl", "icu_notes_dev35.jsonl", "icu_notes_dev36.jsonl",
        "icu_notes_dev37.jsonl", "icu_notes_dev38.jsonl", "icu_notes_dev39.jsonl",
        "icu_notes_dev4.jsonl", "icu_notes_dev40.jsonl", "icu_notes_dev41.jsonl",
        "icu_notes_dev42.jsonl", "icu_notes_dev43.jsonl", "icu_notes_dev44.jsonl",
        "icu_notes_dev45.jsonl", "icu_notes_dev46.jsonl", "icu_notes_dev47.jsonl",
        "icu_notes_dev48.jsonl", "icu_notes_dev49.jsonl", "icu_notes_dev5.jsonl",
        "icu_notes_dev50.jsonl", "icu_notes_dev51.jsonl", "icu_notes_dev52.jsonl",
        "icu_notes_dev53.jsonl", "icu_notes_dev54.jsonl", "icu_notes_dev55.jsonl",
        "icu_notes_dev56.jsonl", "icu_notes_dev57.jsonl", "icu_notes_dev58.jsonl",
        "icu_notes_dev59.jsonl", "icu_notes_dev6.jsonl", "icu_notes_dev60.jsonl",
        "icu_notes_dev61.jsonl", "icu_notes_dev62.jsonl", "icu_notes_dev63.jsonl",
        "icu_notes_dev64.jsonl", "icu_notes_dev65.jsonl", "icu_notes_dev66.jsonl",
        "icu_notes_dev67.jsonl", "icu_notes_dev68.jsonl", "icu_notes_dev69.jsonl",
        "icu_notes_dev7.jsonl", "icu_notes_dev70.jsonl", "icu_notes_dev71.jsonl",
        "icu_notes_dev72.jsonl", "icu_notes_dev73.jsonl", "icu_notes_dev74.jsonl",
        "icu_notes_dev75.jsonl", "icu_notes_dev76.jsonl", "icu_notes_dev77.jsonl",
        "icu_notes_dev78.jsonl", "icu_notes_dev79.jsonl", "icu_notes_dev8.jsonl",
        "icu_notes_dev80.jsonl", "icu_notes_dev81.jsonl", "icu_notes_dev82.jsonl",
        "icu_notes_dev83.jsonl", "icu_notes_dev84.jsonl",
        "icu_notes_dev85.jsonl", "icu_notes_dev86.jsonl", "icu_notes_dev87.jsonl",
        "icu_notes_dev88.jsonl", "icu_notes_dev89.jsonl", "icu_notes_dev9.jsonl",
        "icu_notes_dev90.jsonl", "icu_notes_dev91.jsonl", "icu_notes_dev92.jsonl",
        "icu_notes_dev93.jsonl", "icu_notes_dev94.jsonl", "icu_notes_dev95.jsonl",
        "icu_notes_dev96.jsonl", "icu_notes_dev97.jsonl", "icu_notes_dev98.jsonl",
        "icu_notes_dev99.jsonl",
        "icu_notes_heldapart.jsonl",
        "icu_notes_heldapart10.jsonl",
        "icu_notes_heldapart11.jsonl", "icu_notes_heldapart12.jsonl",
        "icu_notes_heldapart13.jsonl", "icu_notes_heldapart14.jsonl",
        "icu_notes_heldapart15.jsonl", "icu_notes_heldapart16.jsonl",
        "icu_notes_heldapart17.jsonl", "icu_notes_heldapart18.jsonl",
        "icu_notes_heldapart19.jsonl", "icu_notes_heldapart2.jsonl", "icu_notes_heldapart20.jsonl",
        "icu_notes_heldapart21.jsonl", "icu_notes_heldapart22.jsonl",
        "icu_notes_heldapart23.jsonl", "icu_notes_heldapart24.jsonl",
        "icu_notes_heldapart25.jsonl", "icu_notes_heldapart26.jsonl",
        "icu_notes_heldapart27.jsonl", "icu_notes_heldapart28.jsonl",
        "icu_notes_heldapart29.jsonl", "icu_notes_heldapart3.jsonl", "icu_notes_heldapart30.jsonl",
        "icu_notes_heldapart31.jsonl", "icu_notes_heldapart32.jsonl",
        "icu_notes_heldapart33.jsonl", "icu_notes_heldapart34.jsonl",
        "icu_notes_heldapart35.jsonl", "icu_notes_heldapart36.jsonl",
        "icu_notes_heldapart37.jsonl", "icu_notes_heldapart38.jsonl",
        "icu_notes_heldapart39.jsonl", "icu_notes_heldapart4.jsonl", "icu_notes_heldapart40.jsonl",
        "icu_notes_heldapart41.jsonl", "icu_notes_heldapart42.jsonl",
        "icu_notes_heldapart43.jsonl", "icu_notes_heldapart44.jsonl",
        "icu_notes_heldapart45.jsonl", "icu_notes_heldapart46.jsonl",
        "icu_notes_heldapart47.jsonl", "icu_notes_heldapart48.jsonl",
        "icu_notes_heldapart49.jsonl", "icu_notes_heldapart5.jsonl", "icu_notes_heldapart50.jsonl",
        "icu_notes_heldapart51.jsonl", "icu_notes_heldapart52.jsonl",
        "icu_notes_heldapart53.jsonl", "icu_notes_heldapart54.jsonl",
        "icu_notes_heldapart55.jsonl", "icu_notes_heldapart56.jsonl",
        "icu_notes_heldapart57.jsonl", "icu_notes_heldapart58.jsonl",
        "icu_notes_heldapart59.jsonl", "icu_notes_heldapart6.jsonl", "icu_notes_heldapart60.jsonl",
        "icu_notes_heldapart61.jsonl", "icu_notes_heldapart62.jsonl",
        "icu_notes_heldapart63.jsonl", "icu_notes_heldapart64.jsonl",
        "icu_notes_heldapart65.jsonl", "icu_notes_heldapart66.jsonl",
        "icu_notes_heldapart67.jsonl", "icu_notes_heldapart68.jsonl",
        "icu_notes_heldapart69.jsonl", "icu_notes_heldapart7.jsonl",
        "icu_notes_heldapart70.jsonl", "icu_notes_heldapart71.jsonl",
        "icu_notes_heldapart72.jsonl", "icu_notes_heldapart73.jsonl",
        "icu_notes_heldapart74.jsonl", "icu_notes_heldapart75.jsonl",
        "icu_notes_heldapart76.jsonl", "icu_notes_heldapart77.jsonl",
        "icu_notes_heldapart78.jsonl", "icu_notes_heldapart79.jsonl", "icu_notes_heldapart8.jsonl",
        "icu_notes_heldapart80.jsonl", "icu_notes_heldapart81.jsonl",
        "icu_notes_heldapart82.jsonl", "icu_notes_heldapart83.jsonl",
        "icu_notes_heldapart84.jsonl", "icu_notes_heldapart85.jsonl",
        "icu_notes_heldapart86.jsonl", "icu_notes_heldapart87.jsonl",
        "icu_notes_heldapart88.jsonl", "icu_notes_heldapart89.jsonl", "icu_notes_heldapart9.jsonl",
        "icu_notes_heldapart90.jsonl", "icu_notes_heldapart91.jsonl",
        "icu_notes_heldapart92.jsonl", "icu_notes_heldapart93.jsonl",
        "icu_notes_heldapart94.jsonl", "icu_notes_heldapart95.jsonl",
        "icu_notes_heldapart96.jsonl"]


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.stem)
def test_icu_gold_is_well_formed(path: Path) -> None:
    labels = {label.value for label in Label}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        text = record["text"]
        for span in record["spans"]:
            assert 0 <= span["start"] < span["end"] <= len(text), record["id"]
            assert text[span["start"]:span["end"]].strip() == text[span["start"]:span["end"]]
            assert span["label"] in labels, record["id"]


def test_icu_ids_are_unique_across_sets() -> None:
    ids = [json.loads(line)["id"] for path in SETS
           for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(ids) == len(set(ids))


def test_a_recased_view_keeps_the_gold_on_the_same_characters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """benchmarks/styles.py --recase: the mixed-case notes in one case, gold offsets intact."""
    monkeypatch.syspath_prepend(str(DATA.parent))
    from styles import recased

    records = [json.loads(line) for line in (DATA / "icu_notes_dev7.jsonl").read_text(
        encoding="utf-8").splitlines()]
    view = recased(records, "upper")
    assert view and all(r["meta"]["casing"] == "upper" and r["text"].isupper() for r in view)
    by_id = {r["id"]: r for r in records}
    for rec in view:
        original = by_id[rec["id"].removeprefix("upper-")]
        assert original["meta"]["casing"] == "mixed"
        for span in rec["spans"]:
            word = original["text"][span["start"]:span["end"]]
            assert rec["text"][span["start"]:span["end"]] == word.upper()
