"""Which candidates stand right beside a span: a word of a longer name or place is judged with
its neighbours ("tavish general", "la" of "de la Cerna 27"), a generic place without them
("transfer w/ regional center")."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain

from engine.core.domain import Span
from engine.core.labels import NAME_LABELS, Label
from engine.resolution.generic_places import all_generic
from engine.resolution.shorthand import icu_word_no_name, is_shorthand

Beside = dict[Label, list[tuple[int, int]]]
WORD_LABELS = NAME_LABELS | {Label.LOCATION, Label.HOSPITAL, Label.OTHER}


def by_label(spans: list[Span]) -> Beside:
    out: Beside = {}
    for span in spans:
        if span.label in WORD_LABELS:
            out.setdefault(span.label, []).append((span.start, span.end))
    return out


def adjacent(text: str, span: Span,
             ranges: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The candidates of ``ranges`` right beside ``span``: at most two blanks between."""
    for start, end in ranges:
        if start >= span.end:
            gap = text[span.end:start]
        elif end <= span.start:
            gap = text[end:span.start]
        else:
            continue  # overlapping, or the span itself
        if len(gap) <= 2 and gap.strip(" \t") == "":
            yield start, end


def part_of_a_longer_name(text: str, span: Span, beside: Beside) -> bool:
    """Another candidate of the same label right beside it, that is no shorthand itself:
    "la" of "de la Cerna 27", "As" of "As Xubias" are words of a longer name; an ICU word
    after one is not ("KELLAND 5 STEPDOWN"), nor is the house officer before one."""
    covered = text[span.start:span.end]
    if span.label is Label.DOCTOR and covered in ("ho", "HO"):
        return False  # the house officer before a name: "ho ferreira-quinn at bs", "HO Brandt"
    after = icu_word_no_name(covered)
    return any(not is_shorthand(text[start:end]) and not (after and end <= span.start)
               for start, end in adjacent(text, span, beside.get(span.label, ())))


def named(beside: Beside) -> Beside:
    """The candidates that could go on a place's name ("[step-down] tmrw": a date is none)."""
    return {label: ranges for label, ranges in beside.items()
            if label in NAME_LABELS or label in (Label.HOSPITAL, Label.LOCATION)}


def beside_a_name(text: str, span: Span, beside: Beside) -> bool:
    """A candidate beside a generic place that is no generic place itself ("Hospital San
    Rafael"; not "family strawberry farm shed", proposed word by word)."""
    return any(not all_generic(text, start, end)
               for start, end in adjacent(text, span, chain.from_iterable(
                   named(beside).values())))


def beside_any(text: str, span: Span, beside: Beside) -> bool:
    """Another word candidate right beside it: a word of a longer name or place."""
    return any(True for _ in adjacent(text, span, chain.from_iterable(beside.values())))
