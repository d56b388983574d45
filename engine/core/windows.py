"""Overlapping windows over a sequence, shared by the NER and LLM detectors.

Windows never truncate: every index lies in at least one window, and consecutive windows
overlap by ``overlap`` items so entities cut at a boundary are seen whole in a neighbour.
"""

from __future__ import annotations


def plan_windows(length: int, size: int, overlap: int) -> list[tuple[int, int]]:
    if size <= 0:
        raise ValueError("window size must be positive")
    if not 0 <= overlap < size:
        raise ValueError("overlap must be in [0, size)")
    if length <= 0:
        return []
    if length <= size:
        return [(0, length)]
    step = size - overlap
    windows = []
    start = 0
    while True:
        end = min(start + size, length)
        windows.append((start, end))
        if end == length:
            return windows
        start += step
