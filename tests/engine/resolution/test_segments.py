"""Long texts: bounded segments keep the spans a whole-text pass finds, a cancel stops inside
one long document, and a document over the size limit gets a clear error (issue 17).
Synthetic PHI only."""

from __future__ import annotations

import random
import re
from itertools import pairwise

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document
from engine.core.errors import CancelledError, DocumentTooLargeError
from engine.core.phrases import PhraseSet, normalise, phrase_pattern
from engine.core.policies import get_policy
from engine.detectors.regex import default_rule_detectors
from engine.pipeline import Pipeline, build_pipeline
from engine.resolution.segments import OVERLAP, SEGMENT_CHARS, detect_in_segments, plan_segments

NOTE = ("Patient: Marguerite Okonkwo-Lindqvist DOB 03/14/1961 MRN 4829301 seen on "
        "2023-02-11 by Dr. Tobias Vasquez-Hale at Riverside General Hospital, phone "
        "(780) 555-0142, email m.okonkwo@example.org. Stable angina; continue aspirin 81 mg. ")


def _long_text(chars: int, *, single_line: bool) -> str:
    sep = " " if single_line else "\n"
    return sep.join([NOTE] * (chars // (len(NOTE) + 1) + 1))[:chars]


def test_segments_cover_the_text_and_own_each_offset_once() -> None:
    text = _long_text(200_000, single_line=True)
    segments = plan_segments(text)
    assert len(segments) > 5
    assert segments[0].own_start == 0 and segments[-1].own_end == len(text)
    for seg, nxt in pairwise(segments):
        assert seg.end - seg.start <= SEGMENT_CHARS
        assert seg.own_end == nxt.own_start  # ownership is a partition
        assert nxt.start <= seg.end - OVERLAP  # consecutive segments overlap
        # An owned span has OVERLAP / 2 characters of context inside its segment.
        assert seg.end - seg.own_end >= OVERLAP // 2 and nxt.own_start - nxt.start >= OVERLAP // 2
        assert text[nxt.start - 1] == " "  # cut at a word boundary


def test_no_whitespace_still_cuts() -> None:
    text = "x" * 100_000
    segments = plan_segments(text)
    assert segments[-1].end == len(text) and all(s.end > s.start for s in segments)


@pytest.mark.parametrize("single_line", [True, False])
def test_segmented_detection_finds_what_a_whole_pass_finds(single_line: bool) -> None:
    pipeline = Pipeline(default_rule_detectors(), policy=get_policy("strict"))
    doc = Document.from_text(_long_text(120_000, single_line=single_line))
    ctx = RunContext()
    whole, _ = pipeline._candidates(doc, ctx)
    parts, _ = detect_in_segments(doc, ctx, pipeline._candidates, size=10_000, overlap=500)
    key = sorted((s.start, s.end, s.label, s.detector) for s in whole)
    assert sorted((s.start, s.end, s.label, s.detector) for s in parts) == key
    assert len(key) > 100


def test_cancel_inside_one_long_document() -> None:
    """A cancel raised while the third segment of a multi-MB text is being detected stops
    the document there, not after the rest of it."""
    pipeline = build_pipeline(ner=False)
    doc = Document.from_text(_long_text(2_000_000, single_line=True))
    total = len(plan_segments(doc.text))
    seen: list[int] = []
    ctx = RunContext()

    def progress(stage: str, done: int, of: int, message: str) -> None:
        if stage == "detect":
            seen.append(done)
            if done == 2:
                ctx.cancel.cancel()

    ctx = RunContext(cancel=ctx.cancel, progress=progress)
    with pytest.raises(CancelledError):
        pipeline.run(doc, ctx)
    assert seen == [1, 2] and total > 50


def test_document_over_the_limit_names_the_document() -> None:
    pipeline = build_pipeline(ner=False, max_document_chars=1_000)
    doc = Document(text="Patient Jane Roe " * 100, id="doc-42", source_path="/tmp/x/note.txt")
    with pytest.raises(DocumentTooLargeError, match=r"note.txt \(document doc-42\).*1,000"):
        pipeline.run(doc)


def test_phrase_set_counts_like_findall() -> None:
    rng = random.Random(3)
    words = ["ann", "annual", "smith", "jo", "(780) 555", "o'neil", "dr. roe", "ann smith"]
    values = [normalise(w) for w in words]
    phrases = PhraseSet(values)
    for _ in range(200):
        text = normalise(" ".join(rng.choice(words + ["x", "annsmith", "-", "(780)555"])
                                   for _ in range(30)))
        expected = {v: n for v in values if (n := len(phrase_pattern(v).findall(text)))}
        assert phrases.counts(text) == expected
        assert (phrases.search(text) is None) == (not expected)
    assert re.search("ann", "annual") and "ann" not in phrases.counts("annual")


def test_phrase_set_counts_like_findall_across_any_whitespace_and_shared_prefixes() -> None:
    # Phrases sharing long prefixes (dates, phone numbers, namesakes), text with newlines,
    # tabs and runs of blanks between their words: the same counts as each pattern alone.
    rng = random.Random(5)
    words = ["2021-03-04", "2021-03-05", "2021-03-0", "(780) 555-0142", "(780) 555-0143",
             "margaret thompson", "margaret thomas", "margaret", "dr. amelia rutherford"]
    values = [normalise(w) for w in words]
    phrases = PhraseSet(values)
    gaps = [" ", "\n", "\t", "  ", " \n "]
    for _ in range(200):
        pieces = [rng.choice(words + ["x", "thompsons", "2021-03-045"]) for _ in range(25)]
        text = "".join(p.replace(" ", rng.choice(gaps)) + rng.choice(gaps) for p in pieces)
        expected = {v: n for v in values if (n := len(phrase_pattern(v).findall(text)))}
        assert phrases.counts(text) == expected
