"""One split of MEDDOCAN (shared/data, CC BY 4.0) as ClearNote training text: its 22 labels
mapped to ClearNote's (``engine.core.labels.map_label``; labels with no counterpart dropped).
Model version 5 learned the training split; the development split stays for evaluation.

    python -m engine.training.meddocan train OUT.jsonl
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engine.core.labels import map_label
from engine.paths import shared_data_dir

MEDDOCAN_FILE = "meddocan_train_dev.jsonl"


def meddocan_docs(split: str) -> list[dict[str, object]]:
    docs = []
    with (shared_data_dir() / MEDDOCAN_FILE).open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if f"/{split}/" not in rec["id"]:
                continue
            spans = [{"start": s["start"], "end": s["end"], "label": label.value}
                     for s in rec["spans"] if (label := map_label(s["label"])) is not None]
            docs.append({"id": rec["id"], "text": rec["text"], "spans": spans,
                         "meta": {"style": "meddocan", "casing": "mixed"}})
    return docs


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("split", choices=["train", "dev"])
    ap.add_argument("out", type=Path)
    args = ap.parse_args(argv)
    docs = meddocan_docs(args.split)
    args.out.write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs),
                        encoding="utf-8")
    print(f"{len(docs)} documents")


if __name__ == "__main__":
    main()
