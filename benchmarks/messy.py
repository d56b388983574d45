"""Messy-text report: the shared dev sets rewritten the way EHR exports look.

Styles: ``original``, ``upper`` (ALL CAPS), ``lower`` and ``telegraphic`` (articles and
sentence punctuation stripped, gold offsets carried along). Per style and set:

- token precision / recall (generous: a token counts when any span touches it) where the set
  has complete gold (presidio_research_synth, any ``--extra`` JSONL), name recall on aci_bench;
- numeric tokens touched: the share of numeric tokens outside gold PHI that a span covers
  (a rewritten ABG or dose is a clinical error);
- punctuation-only spans: spans without a letter or digit (must be 0).

Used by ``benchmarks/quality.py --messy``; an extra split is any JSONL of
``{"id", "text", "spans": [{"start", "end", "label"}]}`` (the corpus generator's format).
"""

from __future__ import annotations

import collections
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.domain import Document
from engine.core.labels import Label, map_label

WORD = re.compile(r"\w+|[^\w\s]")
_ARTICLE = re.compile(r"(?i)\b(?:the|a|an)\b[ \t]?")
_PUNCT = re.compile(r"[.,;:!?](?=\s|$)")


@dataclass(frozen=True)
class Record:
    id: str
    text: str
    gold: tuple[tuple[int, int, str], ...]  # (start, end, raw label)


def restyle(record: Record, style: str) -> Record:
    """The record in ``style``; gold offsets follow the text (spans never lose PHI chars)."""
    if style == "original":
        return record
    if style in ("upper", "lower"):
        text = record.text.upper() if style == "upper" else record.text.lower()
        if len(text) == len(record.text):
            return Record(record.id, text, record.gold)
        return record  # a case mapping that changes length (ß): keep the original
    if style != "telegraphic":
        raise ValueError(f"unknown style {style!r}")
    drop = bytearray(len(record.text))
    for pattern in (_ARTICLE, _PUNCT):
        for m in pattern.finditer(record.text):
            drop[m.start():m.end()] = b"\x01" * (m.end() - m.start())
    for start, end, _ in record.gold:  # PHI characters always stay
        drop[start:end] = b"\x00" * (end - start)
    new_pos = []
    out = []
    for i, ch in enumerate(record.text):
        new_pos.append(len(out))
        if not drop[i]:
            out.append(ch)
    new_pos.append(len(out))
    gold = tuple((new_pos[s], new_pos[e], label) for s, e, label in record.gold)
    return Record(record.id, "".join(out), gold)


def read_records(path: Path) -> list[Record]:
    with path.open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [Record(str(r["id"]), r["text"],
                   tuple((s["start"], s["end"], s["label"]) for s in r.get("spans", [])))
            for r in rows]


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    numeric: int = 0
    numeric_touched: int = 0
    punct_spans: int = 0
    names: int = 0
    names_found: int = 0
    touched_numbers: collections.Counter[str] = field(default_factory=collections.Counter)

    def line(self, has_gold: bool, names_only: bool) -> str:
        parts = []
        if has_gold and not names_only:
            p = self.tp / max(self.tp + self.fp, 1)
            r = self.tp / max(self.tp + self.fn, 1)
            parts.append(f"token P {p:.3f} R {r:.3f}")
        if names_only:
            parts.append(f"name recall {self.names_found}/{self.names} = "
                         f"{self.names_found / max(self.names, 1):.4f}")
        parts.append(f"numeric touched {self.numeric_touched}/{self.numeric} = "
                     f"{self.numeric_touched / max(self.numeric, 1):.2%}")
        parts.append(f"punctuation-only spans {self.punct_spans}")
        return "  ".join(parts)


def score(detect: Callable[[Document], Iterable[tuple[int, int]]], records: list[Record],
          *, phi: Callable[[str], bool], names_only: bool = False) -> Tally:
    tally = Tally()
    for record in records:
        text = record.text
        spans = list(detect(Document.from_text(text, id=record.id)))
        covered = bytearray(len(text))
        for start, end in spans:
            covered[start:end] = b"\x01" * (end - start)
            if not any(c.isalnum() for c in text[start:end]):
                tally.punct_spans += 1
        gold = bytearray(len(text))
        for start, end, label in record.gold:
            if phi(label):
                gold[start:end] = b"\x01" * (end - start)
            if names_only and label.startswith("PATIENT"):
                tally.names += 1
                tally.names_found += all(covered[start:end])
        for m in WORD.finditer(text):
            predicted = any(covered[m.start():m.end()])
            is_gold = any(gold[m.start():m.end()])
            if not names_only:
                tally.tp += predicted and is_gold
                tally.fp += predicted and not is_gold
                tally.fn += is_gold and not predicted
            if any(c.isdigit() for c in m.group()) and not is_gold:
                tally.numeric += 1
                if predicted:
                    tally.numeric_touched += 1
                    tally.touched_numbers[m.group()] += 1
    return tally


def phi_filter(phi_labels: frozenset[Label]) -> Callable[[str], bool]:
    def is_phi(raw: str) -> bool:
        try:
            label = map_label(raw)
        except ValueError:
            return False
        return label is not None and label in phi_labels
    return is_phi


STYLES = ("original", "upper", "lower", "telegraphic")


def report(detect: Callable[[Document], Iterable[tuple[int, int]]], data: Path,
           phi_labels: frozenset[Label], extra: Iterable[Path] = (), show: int = 0) -> None:
    is_phi = phi_filter(phi_labels)
    sets: list[tuple[str, list[Record], bool, bool]] = [
        ("presidio_research_synth", read_records(data / "presidio_research_synth.jsonl"), True,
         False),
        ("aci_bench_train_valid", read_records(data / "aci_bench_train_valid.jsonl"), True, True),
        ("mts_dialog_sections", read_records(data / "mts_dialog_sections.jsonl"), False, False),
    ]
    sets += [(path.stem, read_records(path), True, False) for path in extra]
    print("== messy text (styles: " + ", ".join(STYLES) + ")")
    for name, records, has_gold, names_only in sets:
        print(f"-- {name} ({len(records)} docs)")
        for style in STYLES:
            tally = score(detect, [restyle(r, style) for r in records], phi=is_phi,
                          names_only=names_only)
            print(f"   {style:<12} {tally.line(has_gold, names_only)}")
            for token, count in tally.touched_numbers.most_common(show):
                print(f"      touched number {token!r} x{count}")
