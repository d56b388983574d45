"""Issue 15, scope 3: spans never cross a blank line, whichever detector proposed them. The
pipeline's guards (engine.resolution.boundaries.split_at_blank_lines) split every candidate there,
so a signature block's doctor and the next paragraph cannot become one span."""

from __future__ import annotations

import re

import pytest

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.detectors.base import DetectorSpec
from engine.pipeline import Pipeline, build_pipeline
from engine.resolution.boundaries import split_at_blank_lines
from tests.markers import needs_ner

TEXT = ("Kind regards,\nDr. Ellery Marlo\n\n  \nJohn Quill was seen in clinic.\n\n"
        "Plan: MRN 44512\n\n07 as above.")
BLANK = re.compile(r"\n\s*\n")


class SpanningDetector:
    """A detector whose spans run over blank lines, as a model's or a loose rule's can."""

    def __init__(self, source: Source) -> None:
        self.spec = DetectorSpec(id=f"test.spanning.{source.value.lower()}", version=1,
                                 source=source)
        self.source = source

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        text = doc.text
        doctor = text.index("Dr. Ellery")
        mrn = text.index("44512")
        return [Span(doctor, text.index(" was seen"), Label.DOCTOR, source=self.source,
                     detector=self.spec.qualified, confidence=0.9),
                Span(mrn, text.index(" as above"), Label.ID, source=self.source,
                     detector=self.spec.qualified, confidence=0.9)]


@pytest.mark.parametrize("source", [Source.NER, Source.RULE])
def test_no_pipeline_span_crosses_a_blank_line(source: Source) -> None:
    pipeline = Pipeline([SpanningDetector(source)], policy=get_policy("strict"))
    result = pipeline.run(Document.from_text(TEXT))
    found = sorted((TEXT[s.start:s.end], s.label) for s in result.active)
    assert found == sorted([("Dr. Ellery Marlo", Label.DOCTOR), ("John Quill", Label.DOCTOR),
                            ("44512", Label.ID), ("07", Label.ID)])
    assert len({s.id for s in result.spans}) == len(result.spans)


def test_split_keeps_a_span_without_a_blank_line_and_drops_blank_pieces() -> None:
    text = "Dr. Ellery\nMarlo\n\n\n"
    span = Span(0, len(text), Label.DOCTOR, source=Source.NER)
    pieces = split_at_blank_lines(text, span)
    assert [(p.start, p.end) for p in pieces] == [(0, len("Dr. Ellery\nMarlo"))]
    assert pieces[0].id == span.id
    whole = Span(0, 16, Label.DOCTOR)
    assert split_at_blank_lines(text, whole) == [whole]  # a single line break is not blank


@needs_ner
def test_real_detectors_with_ner_never_cross_a_blank_line() -> None:
    pipeline = build_pipeline(ner=True, policy="strict")
    texts = [
        "Thank you,\n\nDr. Ellery Marlo\n\nCordelia Ashworth\n\nLarkspur Clinic\n\n",
        "Seen by DR ELLERY MARLO\n\nBARTHOLOMEW RAVENSWORTH MRN 99887766\n\n"
        "Toronto\n\nOntario\n\n2024-03-01\n\n",
        "cc: Dr. Marlo\n\n\nRosalind Blackthorne\n \nWhitby General Hospital",
    ]
    for text in texts:
        result = pipeline.run(Document.from_text(text))
        assert result.active
        for span in result.spans:
            assert not BLANK.search(text[span.start:span.end]), text[span.start:span.end]
