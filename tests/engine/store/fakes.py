"""Small stand-ins for the pipeline, surrogator, loader and exporters, so the store tests
run without models and before the other packages land. Module-level functions only:
batch workers (spawned processes) import them by name."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from engine.core.context import RunContext
from engine.core.domain import (
    DeidentifiedText,
    DetectionResult,
    Document,
    Replacement,
    Source,
    Span,
    SpanStatus,
)
from engine.core.labels import Label
from engine.project import ExportJob, Services

_RULES: tuple[tuple[re.Pattern[str], Label, str | None], ...] = (
    (re.compile(r"(?<=Patient: )[A-Z][a-z]+ [A-Z][a-z]+"), Label.PATIENT, None),
    (re.compile(r"(?<=Dr\. )[A-Z][a-z]+"), Label.DOCTOR, None),
    (re.compile(r"(?<=DOB: )\d{4}-\d{2}-\d{2}"), Label.DATE, "DOB"),
    (re.compile(r"(?<!DOB: )\b\d{4}-\d{2}-\d{2}\b"), Label.DATE, None),
    (re.compile(r"(?<=MRN: )\d{6,8}"), Label.ID, "MRN"),
    (re.compile(r"\b\d{3}-\d{3}-\d{4}\b"), Label.PHONE, None),
)


class FakeSession:
    def __init__(self, config: Any, mapping: Any | None) -> None:
        self.config = config
        self.mapping = mapping
        self.secret: bytes = getattr(config, "secret", b"k")

    def detect(self, doc: Document, ctx: RunContext | None = None) -> DetectionResult:
        if "FAIL-DETECTOR" in doc.text:
            from engine.core.errors import DetectorError

            raise DetectorError("fake.rules@1", "unexpected ValueError")
        spans = [Span(m.start(), m.end(), label, Source.RULE, "fake.rules@1", subtype=sub)
                 for rx, label, sub in _RULES for m in rx.finditer(doc.text)]
        spans.sort(key=lambda s: (s.start, s.end))
        return DetectionResult(doc.id, tuple(spans), ("fake.rules@1",), "strict")

    def _shift(self, patient: str) -> int:
        digest = hmac.new(self.secret, f"date\x1f{patient}".encode(), hashlib.sha256).digest()
        return int.from_bytes(digest[:4], "big") % 365 + 1

    def _surrogate(self, patient: str, span: Span, original: str) -> str:
        iso = re.search(r"\d{4}-\d{2}-\d{2}", original)
        if span.label is Label.DATE and iso:
            original = iso.group()
            d = date.fromisoformat(original) + timedelta(days=self._shift(patient))
            return d.isoformat()
        key = original.casefold()
        if self.mapping is not None:
            known = self.mapping.get(patient, span.label.value, key)
            if known is not None:
                return known
        rng = random.Random()
        if span.label in (Label.PATIENT, Label.DOCTOR):
            value = " ".join(rng.choice(["Alda", "Brin", "Corvo", "Dace", "Elm", "Fenn",
                                         "Gorse", "Hale"]) + str(rng.randint(10, 99))
                             for _ in original.split())
        else:
            value = "".join(str(rng.randint(0, 9)) if c.isdigit() else c for c in original)
        if self.mapping is not None:
            self.mapping.put(patient, span.label.value, key, value)
        return value

    def deidentify(self, doc: Document, spans: Sequence[Span], *,
                   patient: str = "default") -> DeidentifiedText:
        out: list[str] = []
        reps: list[Replacement] = []
        pos = 0
        length = 0
        for span in sorted(spans, key=lambda s: s.start):
            if span.start < pos or span.status not in (SpanStatus.CANDIDATE,
                                                        SpanStatus.ACCEPTED):
                continue
            out.append(doc.text[pos:span.start])
            length += span.start - pos
            value = self._surrogate(patient, span, doc.text[span.start:span.end])
            reps.append(Replacement(span.id, span.start, span.end, span.label, length,
                                    length + len(value), span.subtype))
            out.append(value)
            length += len(value)
            pos = span.end
        out.append(doc.text[pos:])
        return DeidentifiedText(doc.id, "".join(out), tuple(reps), self.config.mode)


def fake_session_factory(config: Any, mapping: Any | None) -> FakeSession:
    return FakeSession(config, mapping)


def text_loader(path: Path, *, password: str | None = None) -> Document:
    from engine.core.errors import EmptyDocumentError, UnsupportedFormatError

    if path.suffix.lower() not in (".txt", ".text", ".md"):
        raise UnsupportedFormatError(path, "not a text file")
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        raise EmptyDocumentError(path, "the file is empty")
    return Document(text=text, source_path=str(path))


def write_txt(job: ExportJob, path: Path) -> None:
    path.write_text(job.deid.text, encoding="utf-8")


def write_json(job: ExportJob, path: Path) -> None:
    path.write_text(json.dumps({"id": job.document.id, "replacements": [
        [r.start, r.end, r.label.value, r.output_start, r.output_end]
        for r in job.deid.replacements]}), encoding="utf-8")


FAKE_SERVICES = Services(session_factory=fake_session_factory, loader=text_loader,
                         writers={"txt": write_txt, "json": write_json})


@dataclass(frozen=True)
class Letter:
    patient: str
    mrn: str
    dob: str
    visit: str
    phone: str
    doctor: str

    def text(self, n: int = 0) -> str:
        return (f"Referral letter {n}\nPatient: {self.patient}\nDOB: {self.dob}\n"
                f"MRN: {self.mrn}\nSeen on {self.visit} by Dr. {self.doctor}. "
                f"Call {self.phone}.\nAssessment: stable angina, continue ramipril.\n")


def letter(i: int) -> Letter:
    rng = random.Random(i)
    first = rng.choice(["Maris", "Tobin", "Quilla", "Perrin", "Odile", "Nestor"])
    last = rng.choice(["Vantreight", "Oakhollow", "Brisbane", "Lindqvist", "Marchetti"])
    return Letter(f"{first} {last}", f"{rng.randint(1000000, 9999999)}",
                  f"19{rng.randint(30, 99)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}",
                  f"2023-0{rng.randint(1, 9)}-2{rng.randint(0, 8)}",
                  f"780-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}",
                  rng.choice(["Okonkwo", "Haldane", "Sorensen"]))
