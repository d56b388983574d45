"""A training corpus dir mixing generated documents with text nobody generated.

``train --corpus DIR`` reads ``train.jsonl.gz`` and ``dev.jsonl`` from the result:
- the generated corpus (``engine.training.corpus``), distilled from the teacher as ever;
- ``--gold-only FILE``: hand-written notes with gold spans, written once per ``--casings``
  entry (the same note as written, lower- and upper-cased: real exports come in all three),
  their ``meta.style`` set so that ``train --gold-only-style`` teaches them their gold alone;
- ``--extra FILE``: other text with gold (MEDDOCAN's training split, say), learned like the
  generated documents: its gold and the teacher's soft labels;
- ``--teacher-only FILE``: text whose gold is not used (``meta.teacher_only``): the student
  learns the teacher's soft labels on it, so a fine-tune on one kind of text keeps what the
  teacher knew of another (Spanish case reports and their names, say).

    python -m engine.training.mix_corpus --out DIR --generated GEN \
        --gold-only benchmarks/data/icu_notes_dev.jsonl --casings as_is,as_is,lower,upper \
        --teacher-only meddocan_train.jsonl
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

GOLD_ONLY_STYLE = "icu_handwritten_dev"
_CASE: dict[str, Callable[[str], str]] = {"as_is": str, "lower": str.lower, "upper": str.upper}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    opener: Any = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def recased(docs: list[dict[str, Any]], casings: list[str], style: str) -> Iterator[dict]:
    """Each note once per casing; a casing that would move an offset (rare Unicode) is skipped."""
    for k, casing in enumerate(casings):
        for d in docs:
            text = _CASE[casing](d["text"])
            if len(text) != len(d["text"]):
                continue
            meta = {**d.get("meta", {}), "style": style, "casing": casing}
            yield {"id": f"{d['id']}#{k}", "text": text, "spans": d["spans"], "meta": meta}


def teacher_only(docs: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for d in docs:
        meta = {**d.get("meta", {}), "teacher_only": True}
        yield {"id": d["id"], "text": d["text"], "spans": [], "meta": meta}


def generated_split(gen: Path, split: str) -> Path:
    return next(p for p in (gen / f"{split}.jsonl", gen / f"{split}.jsonl.gz") if p.exists())


def mix(args: argparse.Namespace) -> dict[str, int]:
    docs = read_jsonl(generated_split(args.generated, "train"))
    counts = {"generated": len(docs)}
    for path in args.gold_only:
        extra = list(recased(read_jsonl(path), args.casings.split(","), GOLD_ONLY_STYLE))
        counts[f"gold_only:{path.name}"] = len(extra)
        docs += extra
    for path in args.extra:
        extra = read_jsonl(path)
        counts[f"extra:{path.name}"] = len(extra)
        docs += extra
    for path in args.teacher_only:
        extra = list(teacher_only(read_jsonl(path)))
        counts[f"teacher_only:{path.name}"] = len(extra)
        docs += extra
    random.Random(args.seed).shuffle(docs)  # train reorders gold-only rows itself
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = args.out / "train.jsonl.gz.tmp"
    with gzip.open(tmp, "wt", encoding="utf-8") as fh:
        for d in docs:
            fh.write(json.dumps(d, ensure_ascii=False) + "\n")
    tmp.replace(args.out / "train.jsonl.gz")
    dev = generated_split(args.generated, "dev")
    shutil.copyfile(dev, args.out / dev.name)
    (args.out / "mix.json").write_text(json.dumps(counts, indent=2))
    return counts


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--generated", type=Path, required=True, help="an engine.training.corpus dir")
    ap.add_argument("--gold-only", type=Path, action="append", default=[])
    ap.add_argument("--casings", default="as_is,as_is,lower,upper")
    ap.add_argument("--extra", type=Path, action="append", default=[])
    ap.add_argument("--teacher-only", type=Path, action="append", default=[])
    ap.add_argument("--seed", type=int, default=13)
    print(json.dumps(mix(ap.parse_args(argv))))


if __name__ == "__main__":
    main()
