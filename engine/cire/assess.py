"""CIRE for one document: align, chunk, guard every replacement, ask the judge per chunk."""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cire.align import Pair, Token, align_tokens, tokenize
from engine.cire.guard import ClinicalGuard
from engine.cire.judge import Judge
from engine.cire.lexicon import HIGH_CATEGORIES, Hit, Lexicon
from engine.cire.report import CireFlag, CireReport, FlagReason, FlagSource, Severity
from engine.core.context import RunContext
from engine.core.domain import DeidentifiedText, Document, Replacement
from engine.core.policies import Policy

STAGE = "cire"


@dataclass(frozen=True, slots=True)
class ChunkPair:
    index: int
    pairs: tuple[Pair, ...]
    original: str  # tokens joined by spaces (what the judge reads)
    deidentified: str
    differing: bool


def chunk_pairs(a: Sequence[Token], b: Sequence[Token], pairs: Sequence[Pair],
                size: int) -> list[ChunkPair]:
    if size <= 0:
        raise ValueError("chunk size must be positive")
    chunks = []
    for index, k in enumerate(range(0, len(pairs), size)):
        part = tuple(pairs[k:k + size])
        differing = any(i is None or j is None or a[i].text != b[j].text for i, j in part)
        chunks.append(ChunkPair(
            index, part, " ".join(a[i].text for i, _ in part if i is not None),
            " ".join(b[j].text for _, j in part if j is not None), differing))
    return chunks


class _Locator:
    """Maps character offsets to the chunk that holds them."""

    def __init__(self, tokens: Sequence[Token], chunk_of_token: dict[int, int]) -> None:
        self.starts = [t.start for t in tokens]
        self.tokens = tokens
        self.chunk_of_token = chunk_of_token

    def chunk(self, start: int, end: int) -> int | None:
        i = max(0, bisect.bisect_right(self.starts, start) - 1)
        while i < len(self.tokens) and self.tokens[i].start < max(end, start + 1):
            if self.tokens[i].end > start:
                return self.chunk_of_token.get(i)
            i += 1
        return None


def _overlaps(start: int, end: int, ranges: Sequence[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in ranges)


def assess(doc: Document, deid: DeidentifiedText, *, policy: Policy, judge: Judge | None = None,
           chunk_tokens: int = 20, ctx: RunContext | None = None,
           lexicon: Lexicon | None = None) -> CireReport:
    """Clinical information retention of ``deid`` against ``doc`` (CIRE, Algorithm 1)."""
    ctx = ctx or RunContext()
    a, b = tokenize(doc.text), tokenize(deid.text)
    pairs = align_tokens([t.text for t in a], [t.text for t in b])
    chunks = chunk_pairs(a, b, pairs, chunk_tokens)
    in_a = {i: pos // chunk_tokens for pos, (i, _) in enumerate(pairs) if i is not None}
    in_b = {j: pos // chunk_tokens for pos, (_, j) in enumerate(pairs) if j is not None}
    loc_a, loc_b = _Locator(a, in_a), _Locator(b, in_b)

    def chunk_of(rep: Replacement) -> int:
        found = loc_a.chunk(rep.start, rep.end)
        if found is None:
            found = loc_b.chunk(rep.output_start, rep.output_end)
        return found if found is not None else 0

    guard = ClinicalGuard(policy=policy, lexicon=lexicon)
    flags: list[CireFlag] = [
        CireFlag(f.replacement.span_id, chunk_of(f.replacement), f.reason, f.severity,
                 FlagSource.GUARD, f.detail, f.replacement.start, f.replacement.end,
                 f.replacement.output_start, f.replacement.output_end)
        for f in guard.check(doc, deid.text, deid.replacements)]
    flags += _unrecorded_edits(chunks, a, b, deid.replacements)

    if judge is not None:
        hits = guard.clinical_hits(doc.text)
        flags += _judge(judge, chunks, a, b, deid.replacements, hits, ctx)
    ctx.report(STAGE, len(chunks), len(chunks), "done")

    changed = len({f.chunk_index for f in flags})
    total = len(chunks)
    flags.sort(key=lambda f: (f.chunk_index, f.source, f.start or 0))
    return CireReport(
        document_id=doc.id, retention_score=1.0 if total == 0 else (total - changed) / total,
        flags=tuple(flags), chunks_total=total, chunks_changed=changed,
        chunks_differing=sum(c.differing for c in chunks),
        judge=judge.name if judge is not None else None)


def _unrecorded_edits(chunks: Sequence[ChunkPair], a: Sequence[Token], b: Sequence[Token],
                      replacements: Sequence[Replacement]) -> list[CireFlag]:
    """Text that changed where no replacement says it should: always worth a look."""
    inputs = [(r.start, r.end) for r in replacements]
    outputs = [(r.output_start, r.output_end) for r in replacements]
    flags = []
    for chunk in chunks:
        if not chunk.differing:
            continue
        loose = [(i, j) for i, j in chunk.pairs
                 if (i is None or j is None or a[i].text != b[j].text)
                 and not (i is not None and _overlaps(a[i].start, a[i].end, inputs))
                 and not (j is not None and _overlaps(b[j].start, b[j].end, outputs))]
        if not loose:
            continue
        ia = [a[i] for i, _ in loose if i is not None]
        jb = [b[j] for _, j in loose if j is not None]
        flags.append(CireFlag(
            None, chunk.index, FlagReason.UNRECORDED_EDIT, Severity.HIGH, FlagSource.GUARD,
            "no replacement recorded", ia[0].start if ia else None, ia[-1].end if ia else None,
            jb[0].start if jb else None, jb[-1].end if jb else None))
    return flags


def _judge(judge: Judge, chunks: Sequence[ChunkPair], a: Sequence[Token], b: Sequence[Token],
           replacements: Sequence[Replacement], hits: Sequence[Hit],
           ctx: RunContext) -> list[CireFlag]:
    serious = [(h.start, h.end) for h in hits
               if h.kind not in ("term", "year") or h.category in HIGH_CATEGORIES]
    judge.begin_document()
    flags: list[CireFlag] = []
    differing = [c for c in chunks if c.differing]
    for n, chunk in enumerate(differing):
        ctx.check()  # cancellation between judge calls
        ctx.report(STAGE, n, len(differing), f"judging chunk {chunk.index}")
        if not judge.changed(chunk.original, chunk.deidentified):
            continue
        orig = [a[i] for i, _ in chunk.pairs if i is not None]
        lo, hi = (orig[0].start, orig[-1].end) if orig else (0, 0)
        changed_tokens = [a[i] for i, j in chunk.pairs
                          if i is not None and (j is None or a[i].text != b[j].text)]
        severity = Severity.HIGH if any(_overlaps(t.start, t.end, serious)
                                        for t in changed_tokens) else Severity.LOW
        reps: list[Replacement | None] = (
            [r for r in replacements if r.start < hi and lo < r.end] if orig else [])
        for rep in reps or [None]:
            flags.append(CireFlag(
                rep.span_id if rep else None, chunk.index, FlagReason.JUDGE, severity,
                FlagSource.JUDGE, "clinically meaningful change",
                rep.start if rep else (lo if orig else None),
                rep.end if rep else (hi if orig else None),
                rep.output_start if rep else None, rep.output_end if rep else None))
    return flags
