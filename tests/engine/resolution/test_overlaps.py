from __future__ import annotations

from itertools import pairwise

import pytest

from engine.core.domain import Document, Source, Span, SpanStatus
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.core.windows import plan_windows
from engine.resolution.overlaps import merge_duplicates, resolve_overlaps


def span(start: int, end: int, label: Label = Label.PERSON, *, detector: str = "d@1",
         confidence: float = 0.9, status: SpanStatus = SpanStatus.CANDIDATE) -> Span:
    return Span(start, end, label, Source.RULE, detector, confidence, status)


def test_span_validates_range_and_subtype() -> None:
    with pytest.raises(ValueError):
        Span(5, 5, Label.DATE)
    with pytest.raises(ValueError):
        Span(0, 3, Label.DATE, subtype="MRN")
    assert Span(0, 3, Label.ID, subtype="MRN").subtype == "MRN"


def test_span_never_carries_text() -> None:
    assert not any("text" in name for name in Span.__dataclass_fields__)


def test_duplicates_merge_with_provenance() -> None:
    merged = merge_duplicates([span(0, 4, detector="a@1", confidence=0.5),
                               span(0, 4, detector="b@2", confidence=0.8)])
    assert len(merged) == 1
    assert merged[0].detector == "b@2" and merged[0].evidence == ("a@1",)
    assert set(merged[0].detectors) == {"a@1", "b@2"}


def test_longest_wins_and_loser_is_superseded_not_deleted() -> None:
    out = resolve_overlaps([span(0, 14, Label.DOCTOR), span(4, 14, Label.PERSON)], "longest")
    assert [(s.start, s.end, s.label, s.status) for s in out] == [
        (0, 14, Label.DOCTOR, SpanStatus.CANDIDATE),
        (4, 14, Label.PERSON, SpanStatus.SUPERSEDED),
    ]


def test_accepted_span_outranks_detectors() -> None:
    out = resolve_overlaps([span(0, 14), span(4, 8, status=SpanStatus.ACCEPTED)], "longest")
    winners = [s for s in out if s.status is not SpanStatus.SUPERSEDED]
    assert [(s.start, s.end) for s in winners] == [(4, 8)]


def test_highest_confidence_policy() -> None:
    out = resolve_overlaps([span(0, 14, confidence=0.4), span(4, 8, confidence=0.95)],
                           "highest-confidence")
    assert [(s.start, s.end) for s in out if s.status is SpanStatus.CANDIDATE] == [(4, 8)]


def test_merge_policy_covers_union() -> None:
    out = resolve_overlaps([span(0, 6, Label.LOCATION), span(4, 12, Label.LOCATION)], "merge")
    live = [s for s in out if s.status is SpanStatus.CANDIDATE]
    assert [(s.start, s.end) for s in live] == [(0, 12)]
    assert len(out) == 2  # the smaller one kept as SUPERSEDED


def test_unknown_overlap_policy() -> None:
    with pytest.raises(ValueError):
        resolve_overlaps([], "nope")


@pytest.mark.parametrize(("length", "size", "overlap"),
                         [(0, 8, 2), (5, 8, 2), (8, 8, 2), (9, 8, 2), (100, 16, 4), (33, 10, 9)])
def test_windows_cover_everything_with_overlap(length: int, size: int, overlap: int) -> None:
    windows = plan_windows(length, size, overlap)
    covered = set()
    for start, end in windows:
        assert end - start <= size
        covered.update(range(start, end))
    assert covered == set(range(length))
    for (_, end_a), (start_b, _) in pairwise(windows):
        assert end_a - start_b == overlap or end_a == length


def test_policies_decide_ages_years_and_providers() -> None:
    doc = Document.from_text("aged 92, aged 45, in 2008, Dr. Ray")
    age92, age45 = Span(0, 7, Label.AGE), Span(9, 16, Label.AGE)
    year, doctor = Span(18, 25, Label.DATE), Span(27, 34, Label.DOCTOR)
    hipaa, strict = get_policy("hipaa"), get_policy("strict")
    canadian = get_policy("canadian-referral")
    assert hipaa.is_phi(age92, doc.text) and not hipaa.is_phi(age45, doc.text)
    assert strict.is_phi(age45, doc.text) and strict.is_phi(year, doc.text)
    assert not hipaa.is_phi(year, doc.text)
    assert not canadian.is_phi(doctor, doc.text) and not canadian.is_phi(age92, doc.text)
    assert strict.is_phi(doctor, doc.text)
