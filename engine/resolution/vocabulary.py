"""LocalVocabulary: the project's own clinical language, learned from its reviewer and its
corpus (a profile's vocabulary entries), as a Recoverer after the shipped allowlist.

A candidate is dropped when its text is a vocabulary entry and it stands where the entry was
learned: the same label family ("Foley" rejected as a name says nothing about a street) and
the same kind of context ("plain", or "name": a title, cue, initial or credential beside it,
so "Mr. Foley" stays a name when only "foley" in plain prose was rejected). Corpus entries
apply to PATIENT and PERSON candidates only: staff names and wards recur across patients,
and the corpus does not decide them. Text-based, so it works per segment on raw candidates.
The Resolver keeps what engine.resolution.protect protects.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.core.domain import Document, Span
from engine.core.labels import Label
from engine.detectors.dictionary.context import has_name_context
from engine.profile.build import FAMILIES
from engine.profile.model import EntrySource, VocabEntry, normal_key

_CORPUS_LABELS = frozenset({Label.PATIENT, Label.PERSON})


def context_kind(doc: Document, span: Span) -> str:
    """"name" where the text around the span says it is a person's name, else "plain"."""
    return "name" if has_name_context(doc.text, span.start, span.end) else "plain"


@dataclass(frozen=True)
class LocalVocabulary:
    # normalised text -> the (family or "corpus", context kind) pairs it is clinical in
    where: dict[str, frozenset[tuple[str, str]]]

    @classmethod
    def from_entries(cls, entries: Iterable[VocabEntry]) -> LocalVocabulary:
        where: dict[str, set[tuple[str, str]]] = {}
        for e in entries:
            family = "corpus" if e.source is EntrySource.CORPUS else FAMILIES.get(e.label)
            if family is not None:
                where.setdefault(normal_key(e.text), set()).add((family, e.context))
        return cls({k: frozenset(v) for k, v in where.items()})

    def is_clinical(self, doc: Document, span: Span) -> bool:
        places = self.where.get(normal_key(doc.slice(span)))
        if not places:
            return False
        family = FAMILIES.get(span.label)
        if family is None:
            return False
        context = context_kind(doc, span)
        if (family, context) in places:
            return True
        return span.label in _CORPUS_LABELS and ("corpus", context) in places

    def recover(self, doc: Document, spans: list[Span]) -> tuple[list[Span], list[Span]]:
        kept: list[Span] = []
        dropped: list[Span] = []
        for span in spans:
            (dropped if self.is_clinical(doc, span) else kept).append(span)
        return kept, dropped
