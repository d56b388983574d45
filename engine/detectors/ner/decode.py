"""Window stitching and BIO decoding: token probabilities -> character spans."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.resolution.edges import trim

# entity-first decoding: a token is PHI while P(O) is below this (a manifest may raise it)
DEFAULT_O_THRESHOLD = 0.5


@dataclass(frozen=True, slots=True)
class TokenEntity:
    first: int  # token index, inclusive
    last: int  # token index, inclusive
    label: str
    confidence: float


def stitch(n_tokens: int, windows: list[tuple[int, int]], probs: list[np.ndarray]) -> np.ndarray:
    """One probability row per token, taken from the window where the token is most central.

    ``probs[k]`` has one row per token of ``windows[k]`` (special tokens already removed).
    """
    if not windows:
        return np.zeros((0, 0), dtype=np.float32)
    n_tags = probs[0].shape[-1]
    out = np.zeros((n_tokens, n_tags), dtype=np.float32)
    best = np.full(n_tokens, -1, dtype=np.int64)
    for (a, b), p in zip(windows, probs, strict=True):
        idx = np.arange(a, b)
        centrality = np.minimum(idx - a, b - 1 - idx)
        better = centrality > best[a:b]
        out[a:b][better] = p[better]
        best[a:b][better] = centrality[better]
    if (best < 0).any():
        raise ValueError("windows do not cover every token")
    return out


def tag_matrix(
    tags: tuple[str, ...], labels: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(label_of_tag (T,), begin mask (T,), aggregation (T, L+1)); label 0 is O."""
    index = {lab: i + 1 for i, lab in enumerate(labels)}
    lab_of = np.array([0 if t == "O" else index[t[2:]] for t in tags], dtype=np.int64)
    begin = np.array([t.startswith("B-") for t in tags])
    agg = np.zeros((len(tags), len(labels) + 1), dtype=np.float32)
    agg[np.arange(len(tags)), lab_of] = 1.0
    return lab_of, begin, agg


def decode_bio(
    probs: np.ndarray, tags: tuple[str, ...], labels: tuple[str, ...], *,
    entity_first: bool = False, o_threshold: float = DEFAULT_O_THRESHOLD,
) -> list[TokenEntity]:
    """Entities from per-token tag probabilities (lenient BIO: a stray I- opens an entity).

    The label of a token is the argmax of probabilities summed per label (B- plus I-); with
    ``entity_first`` a token is PHI when P(O) < ``o_threshold`` and then takes the likeliest
    label, so a name whose mass is split between PATIENT and PERSON is not handed to O. A
    new entity starts where the label changes or where B- outweighs I- for the same label.
    Confidence is the mean label probability over the entity's tokens.
    """
    if probs.shape[0] == 0:
        return []
    _, begin, agg = tag_matrix(tags, labels)
    lab_p = probs @ agg  # (N, L+1)
    if entity_first:
        lab = np.where(lab_p[:, 0] < o_threshold, lab_p[:, 1:].argmax(-1) + 1, 0)
    else:
        lab = lab_p.argmax(-1)
    b_p = probs @ (agg * begin[:, None])
    i_p = lab_p - b_p
    out: list[TokenEntity] = []
    start = -1
    for i in range(len(lab) + 1):
        cur = int(lab[i]) if i < len(lab) else 0
        is_begin = i < len(lab) and cur != 0 and b_p[i, cur] > i_p[i, cur]
        if start >= 0 and (cur != int(lab[start]) or is_begin):
            k = int(lab[start])
            conf = float(lab_p[start:i, k].mean())
            out.append(TokenEntity(start, i - 1, labels[k - 1], conf))
            start = -1
        if start < 0 and cur != 0:
            start = i
    return out


def to_char_span(text: str, offsets: list[tuple[int, int]], ent: TokenEntity) -> tuple[int, int]:
    """Character range of an entity, widened to whole words (a name tagged on its first
    word piece is replaced entirely), then trimmed of leading/trailing space and punctuation.

    An entity with no letter or digit (a lone "/", "." or "@" the model tagged) comes back
    empty (``end <= start``): the caller drops it.
    """
    s, e = offsets[ent.first][0], offsets[ent.last][1]
    while s > 0 and text[s - 1].isalnum() and text[s].isalnum():
        s -= 1
    while e < len(text) and text[e].isalnum() and text[e - 1].isalnum():
        e += 1
    return trim(text, s, e)
