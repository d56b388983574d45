from __future__ import annotations

import random

from engine.cire.align import GAP, _full, align_tokens, hirschberg, tokenize
from engine.cire.align import _score as score


def _total(a: list[str], b: list[str], pairs: list[tuple[int | None, int | None]]) -> int:
    return sum(GAP if i is None or j is None else score(a[i], b[j]) for i, j in pairs)


def _valid(a: list[str], b: list[str], pairs: list[tuple[int | None, int | None]]) -> None:
    assert [i for i, _ in pairs if i is not None] == list(range(len(a)))
    assert [j for _, j in pairs if j is not None] == list(range(len(b)))


def test_tokenize_offsets() -> None:
    toks = tokenize("Mary  Olsen,\n54 y/o")
    assert [(t.text, t.start, t.end) for t in toks] == [
        ("Mary", 0, 4), ("Olsen,", 6, 12), ("54", 13, 15), ("y/o", 16, 19)]


def test_substitution_preferred_over_gap_pairs() -> None:
    a = "the patient Mary Olsen takes lisinopril".split()
    b = "the patient Jane Doe takes lisinopril".split()
    pairs = align_tokens(a, b)
    assert pairs == [(k, k) for k in range(6)]


def test_deletion_and_insertion() -> None:
    a = "takes ferric maltol capsules".split()
    b = "takes maltol capsules daily".split()
    pairs = align_tokens(a, b)
    _valid(a, b, pairs)
    assert (1, None) in pairs and (None, 3) in pairs


def test_hirschberg_is_optimal_like_full_dp() -> None:
    rng = random.Random(7)
    vocab = list("abcdef")
    for _ in range(30):
        a = [rng.choice(vocab) for _ in range(rng.randint(0, 90))]
        b = [rng.choice(vocab) for _ in range(rng.randint(0, 90))]
        fast = hirschberg(a, b)
        _valid(a, b, fast)
        assert _total(a, b, fast) == _total(a, b, _full(a, b))


def test_long_notes_align_fast() -> None:
    a = [f"w{i % 500}" for i in range(20000)]
    b = list(a)
    for k in range(0, 20000, 400):
        b[k] = "[NAME]"
    pairs = align_tokens(a, b)
    _valid(a, b, pairs)
    assert len(pairs) == 20000
