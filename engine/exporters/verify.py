"""Re-check exported output: no accepted (or still-candidate) original string may be
extractable from it more often than it occurs in the original *outside* every span (a
drug dose "45" elsewhere in the letter is not a leak of the age "45").

Errors name span ids, labels and pages — never the string itself."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.core.context import RunContext
from engine.core.domain import ACTIVE_STATUSES, Document, Span
from engine.core.errors import ExportVerificationError
from engine.core.phrases import MIN_PHRASE_LEN, PhraseSet
from engine.core.phrases import normalise as normalize

LIVE = ACTIVE_STATUSES


def live_spans(spans: Iterable[Span]) -> list[Span]:
    return [s for s in spans if s.status in LIVE]


class Needles:
    """The originals to look for (one span named per distinct string), searched together
    so a check costs time linear in the text checked, not texts x originals."""

    def __init__(self, doc: Document, spans: Sequence[Span]) -> None:
        self.spans: dict[str, Span] = {}
        for span in live_spans(spans):
            value = normalize(doc.slice(span))
            if len(value) >= MIN_PHRASE_LEN:
                self.spans.setdefault(value, span)
        self.phrases = PhraseSet(self.spans)

    def __len__(self) -> int:
        return len(self.spans)


def needles(doc: Document, spans: Sequence[Span]) -> Needles:
    return Needles(doc, spans)


def masked_original(doc: Document, spans: Sequence[Span], start: int = 0,
                    end: int | None = None) -> str:
    """The original text (or a slice) with every live span blanked out, normalised."""
    end = len(doc.text) if end is None else end
    parts: list[str] = []
    pos = start
    for span in sorted(live_spans(spans), key=lambda s: s.start):
        lo, hi = max(span.start, pos), min(span.end, end)
        if lo >= hi:
            continue
        parts += [doc.text[pos:lo], "\x00" * (hi - lo)]
        pos = hi
    parts.append(doc.text[pos:end])
    return normalize("".join(parts))


def find_leaks(output: str, allowed_text: str, checks: Needles,
               ctx: RunContext | None = None) -> list[Span]:
    poll = ctx.check if ctx is not None else None
    found = checks.phrases.counts(normalize(output), poll)
    if not found:
        return []
    allowed = checks.phrases.counts(allowed_text, poll) if allowed_text else {}
    return [checks.spans[value] for value, count in found.items()
            if count > allowed.get(value, 0)]


def raise_leaks(what: str, leaks: Sequence[tuple[Span, str]]) -> None:
    if not leaks:
        return
    detail = "; ".join(f"span {s.id} ({s.label.value}){where}" for s, where in leaks[:10])
    more = f" and {len(leaks) - 10} more" if len(leaks) > 10 else ""
    raise ExportVerificationError(
        f"{what}: {len(leaks)} redacted string(s) still extractable, file deleted: "
        f"{detail}{more}")


def verify_text_output(output: str, doc: Document, spans: Sequence[Span], what: str, *,
                       ctx: RunContext | None = None) -> None:
    checks = needles(doc, spans)
    leaks = find_leaks(output, masked_original(doc, spans), checks, ctx)
    raise_leaks(what, [(s, "") for s in leaks])


def verify_no_strings(output: str, forbidden: Iterable[str], what: str, *,
                      ctx: RunContext | None = None) -> None:
    """``output`` holds none of ``forbidden`` (whole words, as documents are checked): for
    reports written beside the documents, which must not name what the key links (source
    file names, patient ids). The error counts them and never quotes one."""
    phrases = PhraseSet({normalize(s) for s in forbidden})
    if not len(phrases):
        return
    found = phrases.counts(normalize(output), ctx.check if ctx is not None else None)
    if found:
        raise ExportVerificationError(
            f"{what}: {len(found)} string(s) of a source file name found, file deleted")
