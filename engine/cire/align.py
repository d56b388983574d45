"""Token alignment of an original and a de-identified text.

Needleman–Wunsch, made cheap for long notes: difflib anchors the (long) identical runs, and
only the gaps between anchors are aligned, with Hirschberg's linear-memory recursion when a
gap is large. De-identification edits are local, so the gaps are small in practice.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

MATCH, MISMATCH, GAP = 2, -1, -1  # a substitution (-1) beats a deletion + insertion (-2)
_FULL_DP_CELLS = 4096
_TOKEN = re.compile(r"\S+")

Pair = tuple[int | None, int | None]  # (index in original, index in de-identified)


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    start: int
    end: int


def tokenize(text: str) -> list[Token]:
    """Whitespace tokens with character offsets (the paper splits on spaces)."""
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def align_tokens(a: Sequence[str], b: Sequence[str]) -> list[Pair]:
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    pairs: list[Pair] = []
    ia = ib = 0
    for block in matcher.get_matching_blocks():
        pairs += [(ia + i if i is not None else None, ib + j if j is not None else None)
                  for i, j in hirschberg(a[ia:block.a], b[ib:block.b])]
        pairs += [(block.a + k, block.b + k) for k in range(block.size)]
        ia, ib = block.a + block.size, block.b + block.size
    return pairs


def _score(x: str, y: str) -> int:
    return MATCH if x == y else MISMATCH


def _last_row(a: Sequence[str], b: Sequence[str]) -> list[int]:
    prev = [j * GAP for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        cur = [i * GAP] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = max(prev[j - 1] + _score(a[i - 1], b[j - 1]), prev[j] + GAP, cur[j - 1] + GAP)
        prev = cur
    return prev


def _full(a: Sequence[str], b: Sequence[str]) -> list[Pair]:
    n, m = len(a), len(b)
    score = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        score[i][0] = i * GAP
    for j in range(m + 1):
        score[0][j] = j * GAP
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            score[i][j] = max(score[i - 1][j - 1] + _score(a[i - 1], b[j - 1]),
                              score[i - 1][j] + GAP, score[i][j - 1] + GAP)
    pairs: list[Pair] = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and score[i][j] == score[i - 1][j - 1] + _score(a[i - 1], b[j - 1]):
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif i > 0 and score[i][j] == score[i - 1][j] + GAP:
            pairs.append((i - 1, None))
            i -= 1
        else:
            pairs.append((None, j - 1))
            j -= 1
    return pairs[::-1]


def hirschberg(a: Sequence[str], b: Sequence[str]) -> list[Pair]:
    """Optimal global alignment in O(len(a) + len(b)) memory."""
    if not a:
        return [(None, j) for j in range(len(b))]
    if not b:
        return [(i, None) for i in range(len(a))]
    if len(a) == 1 or len(b) == 1 or len(a) * len(b) <= _FULL_DP_CELLS:
        return _full(a, b)
    mid = len(a) // 2
    left = _last_row(a[:mid], b)
    right = _last_row(a[mid:][::-1], b[::-1])
    split = max(range(len(b) + 1), key=lambda j: left[j] + right[len(b) - j])
    head = hirschberg(a[:mid], b[:split])
    tail = hirschberg(a[mid:], b[split:])
    return head + [(i + mid if i is not None else None, j + split if j is not None else None)
                   for i, j in tail]
