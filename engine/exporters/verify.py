"""Re-check exported output: no accepted (or still-candidate) original string may be
extractable from it more often than it occurs in the original *outside* every span (a
drug dose "45" elsewhere in the letter is not a leak of the age "45").

Errors name span ids, labels and pages — never the string itself."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.core.domain import ACTIVE_STATUSES, Document, Span
from engine.core.phrases import MIN_PHRASE_LEN, phrase_pattern
from engine.core.phrases import normalise as normalize
from engine.core.errors import ExportVerificationError

LIVE = ACTIVE_STATUSES


def live_spans(spans: Iterable[Span]) -> list[Span]:
    return [s for s in spans if s.status in LIVE]


@dataclass(frozen=True)
class Needle:
    span: Span
    pattern: re.Pattern[str]


def needles(doc: Document, spans: Sequence[Span]) -> list[Needle]:
    out: list[Needle] = []
    seen: set[str] = set()
    for span in live_spans(spans):
        value = normalize(doc.slice(span))
        if len(value) < MIN_PHRASE_LEN or value in seen:
            continue
        seen.add(value)
        out.append(Needle(span, phrase_pattern(value)))
    return out


def masked_original(doc: Document, spans: Sequence[Span], start: int = 0,
                    end: int | None = None) -> str:
    """The original text (or a slice) with every live span blanked out, normalised."""
    end = len(doc.text) if end is None else end
    chars = list(doc.text[start:end])
    for span in live_spans(spans):
        for i in range(max(span.start, start), min(span.end, end)):
            chars[i - start] = "\x00"
    return normalize("".join(chars))


def find_leaks(output: str, allowed_text: str, checks: Sequence[Needle]) -> list[Span]:
    out_norm = normalize(output)
    leaks: list[Span] = []
    for needle in checks:
        found = len(needle.pattern.findall(out_norm))
        if found and found > len(needle.pattern.findall(allowed_text)):
            leaks.append(needle.span)
    return leaks


def raise_leaks(what: str, leaks: Sequence[tuple[Span, str]]) -> None:
    if not leaks:
        return
    detail = "; ".join(f"span {s.id} ({s.label.value}){where}" for s, where in leaks[:10])
    more = f" and {len(leaks) - 10} more" if len(leaks) > 10 else ""
    raise ExportVerificationError(
        f"{what}: {len(leaks)} redacted string(s) still extractable, file deleted: "
        f"{detail}{more}")


def verify_text_output(output: str, doc: Document, spans: Sequence[Span], what: str) -> None:
    checks = needles(doc, spans)
    leaks = find_leaks(output, masked_original(doc, spans), checks)
    raise_leaks(what, [(s, "") for s in leaks])
