"""Builds one synthetic document: text pieces appended with gold spans recorded by offset."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from engine.core.labels import Label
from engine.training.phi import keep_len


@dataclass
class Builder:
    """Appends text pieces and records gold spans; OCR noise applied per piece."""

    rng: random.Random
    noise: float = 0.0  # probability of an OCR edit per piece
    parts: list[str] = field(default_factory=list)
    spans: list[dict[str, object]] = field(default_factory=list)
    pos: int = 0
    # Not written out: what tests check spans and hard negatives against.
    values: list[str] = field(default_factory=list)  # each span's value as inserted
    negatives: list[tuple[int, int]] = field(default_factory=list)  # measurement/time ranges

    def _render(self, text: str) -> str:
        if self.noise and self.rng.random() < self.noise and len(text) > 2:
            text = ocr_noise(text, self.rng)
        return text

    def add(self, text: str) -> None:
        text = self._render(text)
        self.parts.append(text)
        self.pos += len(text)

    def neg(self, text: str) -> None:
        """A hard negative (vitals, lab string, time, dose): unlabelled, kept noise-free."""
        self.negatives.append((self.pos, self.pos + len(text)))
        self.parts.append(text)
        self.pos += len(text)

    @staticmethod
    def recase_piece(text: str, mode: str) -> str:
        return keep_len(text, str.upper if mode == "upper" else str.lower)

    def phi(self, text: str, label: Label, subtype: str | None = None) -> None:
        text = self._render(text).strip()
        if not any(c.isalnum() for c in text):
            return
        span: dict[str, object] = {
            "start": self.pos,
            "end": self.pos + len(text),
            "label": label.value,
        }
        if subtype:
            span["subtype"] = subtype
        self.spans.append(span)
        self.values.append(text)
        self.parts.append(text)
        self.pos += len(text)

    @property
    def text(self) -> str:
        return "".join(self.parts)


_OCR_SWAPS = (
    ("l", "1"),
    ("1", "l"),
    ("O", "0"),
    ("0", "O"),
    ("rn", "m"),
    ("m", "rn"),
    ("e", "c"),
    ("S", "5"),
    ("I", "l"),
    ("B", "8"),
    ("a", "o"),
    ("i", "í"),
    ("cl", "d"),
    (",", "."),
)


def ocr_noise(text: str, rng: random.Random) -> str:
    """One OCR-style edit: confusable swap, merged or split token, dropped or doubled char."""
    op = rng.random()
    if op < 0.5:
        a, b = rng.choice(_OCR_SWAPS)
        idx = [m.start() for m in re.finditer(re.escape(a), text)]
        if idx:
            i = rng.choice(idx)
            return text[:i] + b + text[i + len(a) :]
        return text
    i = rng.randrange(1, len(text) - 1)
    if op < 0.65:  # merge: drop a space
        sp = [m.start() for m in re.finditer(" ", text)]
        return text[: (j := rng.choice(sp))] + text[j + 1 :] if sp else text
    if op < 0.8:  # split a word
        return text[:i] + " " + text[i:] if text[i - 1].isalpha() and text[i].isalpha() else text
    if op < 0.9:
        return text[:i] + text[i + 1 :]
    return text[:i] + text[i] + text[i:]
