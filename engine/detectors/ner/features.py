"""Tag vocabulary and word-shape features shared by training and the ONNX runtime.

The packaged encoders are uncased, so capitalisation (a strong cue for names) is lost in
the token ids. Each token gets the shape of the *word* it belongs to, fed to the model as a
second input (``shape_ids``) and embedded beside the encoder output before the head.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.labels import Label

ENTITY_LABELS: tuple[str, ...] = tuple(label.value for label in Label)
TAGS: tuple[str, ...] = ("O", *(f"{p}-{lab}" for lab in ENTITY_LABELS for p in ("B", "I")))

# Shape classes. 0 is reserved for special tokens and padding.
SHAPE_SPECIAL, SHAPE_LOWER, SHAPE_TITLE, SHAPE_UPPER, SHAPE_INITIAL = 0, 1, 2, 3, 4
SHAPE_DIGIT, SHAPE_ALNUM, SHAPE_PUNCT, SHAPE_MIXED, SHAPE_OTHER = 5, 6, 7, 8, 9
N_SHAPES = 10


def word_shape(word: str) -> int:
    if not word:
        return SHAPE_SPECIAL
    letters = [c for c in word if c.isalpha()]
    has_digit = any(c.isdigit() for c in word)
    if not letters:
        return SHAPE_DIGIT if has_digit else SHAPE_PUNCT
    if has_digit:
        return SHAPE_ALNUM
    cased = [c for c in letters if c.isupper() or c.islower()]
    if not cased:
        return SHAPE_OTHER  # scripts without case (CJK, Arabic, ...)
    if all(c.islower() for c in cased):
        return SHAPE_LOWER
    if all(c.isupper() for c in cased):
        return SHAPE_INITIAL if len(letters) == 1 else SHAPE_UPPER
    if cased[0].isupper() and all(c.islower() for c in cased[1:]):
        return SHAPE_TITLE
    return SHAPE_MIXED


def shape_ids(
    text: str, offsets: Sequence[tuple[int, int]], word_ids: Sequence[int | None]
) -> list[int]:
    """Shape of the pre-tokenised word each token belongs to (one id per token)."""
    bounds: dict[int, tuple[int, int]] = {}
    for (s, e), w in zip(offsets, word_ids, strict=True):
        if w is None:
            continue
        lo, hi = bounds.get(w, (s, e))
        bounds[w] = (min(lo, s), max(hi, e))
    cache: dict[int, int] = {}
    out = []
    for w in word_ids:
        if w is None:
            out.append(SHAPE_SPECIAL)
            continue
        if w not in cache:
            s, e = bounds[w]
            cache[w] = word_shape(text[s:e])
        out.append(cache[w])
    return out


def encode_text(tokenizer: object, text: str) -> tuple[list[int], list[tuple[int, int]], list[int]]:
    """Token ids, character offsets and shape ids of ``text`` without special tokens.

    ``tokenizer`` is a ``tokenizers.Tokenizer`` with truncation and padding disabled.
    """
    enc = tokenizer.encode(text, add_special_tokens=False)  # type: ignore[attr-defined]
    offsets = [tuple(o) for o in enc.offsets]
    return list(enc.ids), offsets, shape_ids(text, offsets, enc.word_ids)
