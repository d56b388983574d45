"""The learned resolver: deterministic, recall first, refuses what it cannot do safely."""

from __future__ import annotations

import json
import random
import time

import pytest

from engine.core.domain import Document, Source, Span, SpanStatus
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.resolution.learned import DIMENSIONS, LearnedResolver, protected, span_features
from engine.resolution.learned_training import ReviewedDocument, train_resolver
from engine.resolution.resolver import Resolver

ACCEPTED, REJECTED = SpanStatus.ACCEPTED, SpanStatus.REJECTED
SURNAMES = ("Brava", "Venhol", "Torquil", "Skadori", "Melvash", "Triolk", "Zanrue", "Fengald")


def _span(text: str, word: str, label: Label, status: SpanStatus, *, after: int = 0,
          detector: str = "dictionary.names@2", source: Source = Source.DICTIONARY,
          confidence: float = 0.6, subtype: str | None = None) -> Span:
    start = text.index(word, after)
    return Span(start, start + len(word), label, source=source, detector=detector,
                confidence=confidence, status=status, subtype=subtype)


def _document(index: int, rng: random.Random, *, shifted: bool = False) -> ReviewedDocument:
    """A note whose patient names are PHI (accepted) and whose device eponyms are not
    (rejected): the reviewer's pattern the resolver should learn."""
    name = rng.choice(SURNAMES)
    lines = [f"Seen patient {name} today.", "Uses the Foley daily.", "Plan: check the Doppler.",
             f"Called patient {name} again.", "Kept the Hickman clean."]
    if shifted:  # a kind of span that only this document's reviewer accepted
        lines += [f"Quoted Omniref{k} in notes." for k in range(12)]
    text = "\n".join(lines) + "\n"
    spans = [_span(text, name, Label.PATIENT, ACCEPTED, detector="ner@4", source=Source.NER,
                   confidence=0.9),
             _span(text, name, Label.PATIENT, ACCEPTED, after=text.index("Called"),
                   detector="ner@4", source=Source.NER, confidence=0.9),
             _span(text, "Foley", Label.PERSON, REJECTED),
             _span(text, "Doppler", Label.LOCATION, REJECTED, detector="dictionary.locations@1"),
             _span(text, "Hickman", Label.PERSON, REJECTED)]
    if shifted:
        spans += [_span(text, f"Omniref{k}", Label.OTHER, ACCEPTED, detector="regex.other@1",
                        source=Source.RULE, confidence=0.3) for k in range(12)]
    else:
        text += "Quoted the Omniref here.\n"
        spans.append(_span(text, "Omniref", Label.OTHER, REJECTED, detector="regex.other@1",
                           source=Source.RULE, confidence=0.3))
    return ReviewedDocument(Document.from_text(text, id=f"doc{index:03d}"), tuple(spans))


def _examples(n: int, *, seed: int = 0, shifted: int | None = None) -> list[ReviewedDocument]:
    rng = random.Random(seed)
    return [_document(i, rng, shifted=i == shifted) for i in range(n)]


def test_learns_the_reviewers_pattern_and_keeps_recall_under_cv() -> None:
    outcome = train_resolver(_examples(60))
    assert outcome.resolver is not None, outcome.reason
    assert outcome.decisions == 60 * 6 and outcome.documents == 60
    cv = outcome.cv
    assert cv is not None
    assert cv.span_recall >= 0.99
    assert cv.rejected_dropped > 0
    assert cv.token_precision_after is not None and cv.token_precision_before is not None
    assert cv.token_precision_after > cv.token_precision_before
    # Applied to a new note: the eponyms go, the patient stays.
    new = _document(999, random.Random(7))
    kept, dropped = outcome.resolver.recover(new.doc, [s.with_status(SpanStatus.CANDIDATE)
                                                      for s in new.spans])
    assert {new.doc.slice(s) for s in dropped} >= {"Foley", "Hickman"}
    assert all(s.label is Label.PATIENT for s in kept if s.source is Source.NER)
    assert sum(s.label is Label.PATIENT for s in kept) == 2


def test_training_is_deterministic_and_ignores_the_order_of_documents() -> None:
    examples = _examples(50)
    first = train_resolver(examples).resolver
    again = train_resolver(list(reversed(examples))).resolver
    assert first is not None and again is not None
    assert json.dumps(first.to_dict(), sort_keys=True) == json.dumps(again.to_dict(),
                                                                      sort_keys=True)


def test_round_trip_through_json_is_exact() -> None:
    resolver = train_resolver(_examples(50)).resolver
    assert resolver is not None
    text = json.dumps(resolver.to_dict(), sort_keys=True)
    back = LearnedResolver.from_dict(json.loads(text))
    assert back == resolver
    assert json.dumps(back.to_dict(), sort_keys=True) == text
    assert "Brava" not in text and "Foley" not in text  # no text, only hashed features
    with pytest.raises(ValueError, match="version"):
        LearnedResolver.from_dict({**resolver.to_dict(), "version": 99})
    with pytest.raises(ValueError, match="not a learned resolver"):
        LearnedResolver.from_dict({"weights": []})
    with pytest.raises(ValueError, match="malformed"):
        LearnedResolver.from_dict({**resolver.to_dict(), "weights": [[-1, 0.5]]})
    with pytest.raises(ValueError, match="finite"):
        LearnedResolver.from_dict({**resolver.to_dict(), "bias": float("nan")})


def test_below_the_minimum_number_of_decisions_the_default_is_kept() -> None:
    outcome = train_resolver(_examples(10))
    assert outcome.resolver is None
    assert outcome.decisions == 60
    assert "at least 200" in outcome.reason
    with pytest.raises(ValueError, match="2 folds"):
        train_resolver(_examples(10), folds=1)


def test_refused_when_cross_validation_shows_recall_would_drop() -> None:
    # One reviewer's document accepts a kind of span (12 of them) that every other document
    # rejects: a resolver trained elsewhere drops them, and CV sees it.
    outcome = train_resolver(_examples(40, shifted=3))
    assert outcome.resolver is None
    assert outcome.cv is not None and outcome.cv.span_recall < 0.99
    assert outcome.reason.startswith("refused") and "0.99" in outcome.reason


def test_refused_when_it_would_change_nothing() -> None:
    # Identical candidates, 70 % accepted at random: nothing tells the rejected ones apart.
    rng = random.Random(3)
    examples = []
    for i in range(50):
        text = "Seen Foley today.\n" * 6
        spans = tuple(Span(at, at + 5, Label.PERSON, source=Source.DICTIONARY,
                           detector="dictionary.names@2", confidence=0.6,
                           status=ACCEPTED if rng.random() < 0.7 else REJECTED)
                      for at in (k * 18 + 5 for k in range(6)))
        examples.append(ReviewedDocument(Document.from_text(text, id=f"d{i}"), spans))
    outcome = train_resolver(examples)
    assert outcome.resolver is None
    assert outcome.reason == ("refused: under cross-validation the learned resolver dropped "
                              "no rejected candidate, so it would change nothing")


def _dropping_everything() -> LearnedResolver:
    return LearnedResolver.from_arrays([0.0] * DIMENSIONS, -20.0, 0.5, {})


def test_protected_spans_are_never_dropped() -> None:
    text = "Seen 12/03/2021, SSN 123-45-6789, code 53-320, Foley. Ingreso.\n"
    doc = Document.from_text(text)
    date = _span(text, "12/03/2021", Label.DATE, SpanStatus.CANDIDATE,
                 detector="regex.date@1", source=Source.RULE)
    ssn = _span(text, "123-45-6789", Label.ID, SpanStatus.CANDIDATE, detector="regex.ssn@1",
                source=Source.RULE, subtype="SSN")
    code = _span(text, "53-320", Label.DATE, SpanStatus.CANDIDATE, detector="ner@4",
                 source=Source.NER)
    foley = _span(text, "Foley", Label.PERSON, SpanStatus.CANDIDATE)
    word = _span(text, "Ingreso", Label.DATE, SpanStatus.CANDIDATE, detector="ner@4",
                 source=Source.NER)  # a model's DATE with no date in it
    bad_ssn = Span(date.start, date.end, Label.ID, source=Source.RULE, subtype="SSN")
    assert protected(doc, date) and protected(doc, ssn)
    assert not any(protected(doc, s) for s in (code, foley, word, bad_ssn))
    kept, dropped = _dropping_everything().recover(doc, [date, ssn, code, foley, word])
    assert kept == [date, ssn]
    assert dropped == [code, foley, word]


def test_decider_in_the_resolver_drops_only_undecided_spans() -> None:
    text = "Uses the Foley; Hickman out.\n"
    doc = Document.from_text(text)
    undecided = _span(text, "Foley", Label.PERSON, SpanStatus.CANDIDATE)
    decided = _span(text, "Hickman", Label.PERSON, SpanStatus.ACCEPTED)
    resolver = Resolver(policy=get_policy("strict"), deciders=(_dropping_everything(),))
    assert resolver.settle(doc, [undecided, decided]) == [decided]


def test_features_are_hashed_into_the_declared_dimensions() -> None:
    example = _examples(1)[0]
    for span in example.spans:
        features = span_features(example.doc, span)
        assert all(0 <= index < DIMENSIONS for index, _ in features)
        assert features == span_features(example.doc, span)


def test_scoring_takes_microseconds_per_span() -> None:
    resolver = train_resolver(_examples(50)).resolver
    assert resolver is not None
    examples = _examples(200, seed=1)
    spans = [(e.doc, [s.with_status(SpanStatus.CANDIDATE) for s in e.spans]) for e in examples]
    started = time.perf_counter()
    for doc, candidates in spans:
        resolver.recover(doc, candidates)
    per_span = (time.perf_counter() - started) / sum(len(c) for _, c in spans)
    assert per_span < 500e-6  # about 50 µs on the 2-core CI machine; generous for load
