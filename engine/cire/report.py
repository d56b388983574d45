"""CIRE results: flags and the per-document report. Records carry offsets, never text."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    HIGH = "high"  # could change diagnosis or management
    LOW = "low"  # clinically related, unlikely to change diagnosis or management


class FlagSource(StrEnum):
    JUDGE = "judge"  # the LLM judge said the chunk's clinical meaning changed
    GUARD = "guard"  # the deterministic guard matched a rule (no model)


class FlagReason(StrEnum):
    LEXICON_TERM = "lexicon_term"  # a drug, diagnosis, symptom, procedure, lab ... was replaced
    MEASUREMENT = "measurement"  # a number with a unit (vital sign, size, percentage)
    DOSE = "dose"  # a dose or dosing frequency
    LAB_VALUE = "lab_value"  # a lab test's value
    AGE = "age"  # an age the policy keeps
    YEAR = "year"  # a year the policy keeps
    UNRECORDED_EDIT = "unrecorded_edit"  # text changed where no replacement was recorded
    JUDGE = "judge"  # the judge's Yes


@dataclass(frozen=True, slots=True)
class CireFlag:
    replacement_span_id: str | None  # None when no replacement explains the change
    chunk_index: int
    reason: FlagReason
    severity: Severity
    source: FlagSource
    detail: str = ""  # a category such as "drug" or "unit"; never document text
    # Where, in the original and the de-identified text (half-open, None when empty).
    start: int | None = None
    end: int | None = None
    output_start: int | None = None
    output_end: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"replacement_span_id": self.replacement_span_id, "chunk": self.chunk_index,
                "reason": self.reason.value, "severity": self.severity.value,
                "source": self.source.value, "detail": self.detail, "start": self.start,
                "end": self.end, "output_start": self.output_start,
                "output_end": self.output_end}


@dataclass(frozen=True, slots=True)
class CireReport:
    document_id: str
    retention_score: float  # fraction of aligned chunks with no flag (meaning unchanged)
    flags: tuple[CireFlag, ...]
    chunks_total: int
    chunks_changed: int  # chunks with at least one flag
    chunks_differing: int = 0  # chunks whose tokens differ at all
    judge: str | None = None  # the judge's name, None for guard only

    def to_json(self) -> dict[str, object]:
        return {"document_id": self.document_id, "retention_score": self.retention_score,
                "chunks_total": self.chunks_total, "chunks_changed": self.chunks_changed,
                "chunks_differing": self.chunks_differing, "judge": self.judge,
                "flags": [f.to_json() for f in self.flags]}
