"""What a project learned never drops a protected span; the local vocabulary drops rejected
words only where they were rejected (issue 25)."""

from __future__ import annotations

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span, SpanStatus
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.pipeline import build_pipeline
from engine.profile import (
    CorpusStats,
    Decision,
    EntrySource,
    ListEntry,
    PhiKind,
    VocabEntry,
    build_profile,
)
from engine.resolution.protect import is_protected
from engine.resolution.resolver import Resolver
from engine.resolution.vocabulary import LocalVocabulary


class DropEverything:
    """A learned recoverer gone wrong: it says nothing is PHI."""

    def recover(self, doc: Document, spans: list[Span]) -> tuple[list[Span], list[Span]]:
        return [], list(spans)


TEXT = "Foley seen 03/14/2021, SSN 123-45-6789, card 4111 1111 1111 1111, cont abx, code 123-45"


def _span(text: str, word: str, label: Label, **kw: object) -> Span:
    start = TEXT.index(word) if text is TEXT else text.index(word)
    return Span(start, start + len(word), label, **kw)  # type: ignore[arg-type]


def _candidates() -> list[Span]:
    return [
        _span(TEXT, "Foley", Label.PATIENT, source=Source.NER),
        _span(TEXT, "03/14/2021", Label.DATE, source=Source.RULE),
        _span(TEXT, "123-45-6789", Label.ID, source=Source.RULE, subtype="SSN"),
        _span(TEXT, "4111 1111 1111 1111", Label.ID, source=Source.RULE,
              subtype="CREDIT_CARD"),
        _span(TEXT, "cont", Label.PERSON, source=Source.NER),
        _span(TEXT, "123-45", Label.ID, source=Source.NER),
    ]


def test_a_learned_recoverer_never_drops_dictionary_validated_id_or_date_spans() -> None:
    doc = Document.from_text(TEXT)
    resolver = Resolver(get_policy("strict"), learned=(DropEverything(),),
                        protected_terms=frozenset({"foley"}))
    kept, dropped = resolver._learned_recover(DropEverything(), doc, _candidates())  # noqa: SLF001
    assert [doc.slice(s) for s in kept] == ["Foley", "03/14/2021", "123-45-6789",
                                            "4111 1111 1111 1111"]
    assert [doc.slice(s) for s in dropped] == ["cont", "123-45"]
    # The same rule in settle(), for deciders (a learned resolver).
    settled = Resolver(get_policy("strict"), deciders=(DropEverything(),),
                       protected_terms=frozenset({"foley"})).settle(doc, _candidates())
    active = [s for s in settled if s.status is SpanStatus.CANDIDATE]  # "123-45" lost
    assert sorted(doc.slice(s) for s in active) == sorted(
        ["Foley", "03/14/2021", "123-45-6789", "4111 1111 1111 1111"])


def test_protection_needs_a_checksum_and_a_date_that_parses() -> None:
    doc = Document.from_text("SSN 000-12-3456 on 13/45/2021")
    bad_ssn = _span(doc.text, "000-12-3456", Label.ID, source=Source.RULE, subtype="SSN")
    bad_date = _span(doc.text, "13/45/2021", Label.DATE, source=Source.RULE)
    assert not is_protected(doc, bad_ssn, frozenset())
    assert not is_protected(doc, bad_date, frozenset())


def test_the_shipped_allowlist_is_not_bound_by_the_rule() -> None:
    doc = Document.from_text(TEXT)
    resolver = Resolver(get_policy("strict"), recoverers=(DropEverything(),),
                        protected_terms=frozenset({"foley"}))
    kept, _ = resolver.screen(doc, _candidates())
    assert kept == []


def test_vocabulary_drops_in_the_same_family_and_context_only() -> None:
    vocab = LocalVocabulary.from_entries([
        VocabEntry("foley", Label.PATIENT, EntrySource.REVIEW, "plain"),
        VocabEntry("aline", Label.PATIENT, EntrySource.CORPUS, "plain")])
    doc = Document.from_text("foley draining. Mr. Foley asked. Foley Street. aline out. "
                             "Aline RN here")
    text = doc.text
    at = [text.index(w) for w in ("Foley asked", "Foley Street", "Aline RN")]
    spans = [_span(text, "foley", Label.PATIENT),
             Span(at[0], at[0] + 5, Label.PATIENT), Span(at[1], at[1] + 5, Label.LOCATION),
             _span(text, "aline", Label.PERSON), Span(at[2], at[2] + 5, Label.DOCTOR)]
    kept, dropped = vocab.recover(doc, spans)
    assert [doc.slice(s) for s in dropped] == ["foley", "aline"]
    # "Mr. Foley" (name context), "Foley" as a place, "Aline" as staff: kept.
    assert [(doc.slice(s), s.label) for s in kept] == [
        ("Foley", Label.PATIENT), ("Foley", Label.LOCATION), ("Aline", Label.DOCTOR)]


def test_a_profile_in_the_pipeline_finds_listed_names_and_drops_rejected_words() -> None:
    profile = build_profile(
        [Decision("Bruce", Label.PATIENT, False), Decision("bruce", Label.PERSON, False)],
        [ListEntry("Quilla Lindqvist", PhiKind.PATIENT)], CorpusStats())
    text = "Bruce walked with PT. Lindqvist's daughter visited; QUILLA LINDQVIST stable."
    plain = build_pipeline(ner=False).run(Document.from_text(text), RunContext())
    learned = build_pipeline(ner=False, profile=profile).run(Document.from_text(text))
    assert "Lindqvist's" not in {text[s.start:s.end] for s in plain.active}
    found = {text[s.start:s.end]: s.label for s in learned.active}
    assert found.get("Lindqvist's") is Label.PATIENT or found.get("Lindqvist") is Label.PATIENT
    assert found.get("QUILLA LINDQVIST") is Label.PATIENT
    # Rejected as a name: no longer proposed as one ("Bruce" the place is another family).
    def names(result: object) -> list[str]:
        return [text[s.start:s.end] for s in result.spans  # type: ignore[attr-defined]
                if s.label in (Label.PATIENT, Label.PERSON, Label.DOCTOR)]

    assert "Bruce" in names(plain) and "Bruce" not in names(learned)
