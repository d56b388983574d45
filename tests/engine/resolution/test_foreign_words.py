"""A model's names that are common words of another language (a Spanish case report's field
labels and sentence starts) are dropped; names in English sentences, titled names and words of
a longer candidate stay. Synthetic text; the spans are what a model proposes."""

from __future__ import annotations

import pytest

from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.detectors.dictionary.context import common_words, english_words
from engine.detectors.dictionary.names import all_name_lists
from engine.resolution.foreign_words import common_phrase, foreign_context, foreign_document
from engine.resolution.guards import guard

P, D, H, L = Label.PATIENT, Label.DOCTOR, Label.HOSPITAL, Label.LOCATION


def _kept(text: str, proposals: list[tuple[str, Label]]) -> list[str]:
    spans = []
    for piece, label in proposals:
        start = text.index(piece)
        spans.append(Span(start, start + len(piece), label, source=Source.NER,
                          detector="ner.test"))
    kept, _ = guard(Document.from_text(text), spans)
    return [text[s.start:s.end] for s in kept]


HEADER = ("Datos asistenciales.\nFecha de nacimiento: 13/09/1955.\nPaís: España.\n"
          "Fecha de Ingreso: 23/07/2017.\nRemitido por: Dra. Estefanía Calvo Urrutia.\n")


@pytest.mark.parametrize(("text", "piece", "label"), [
    (HEADER, "Fecha", D),
    (HEADER, "Fecha de Ingreso", D),
    (HEADER, "Remitido", D),
    # "H." of "Sexo: H." ends a line: no initial before "Fecha".
    ("Edad: 53 años Sexo: H.\nFecha de Ingreso: 17/06/2016.\nMédico: Estefanía Romero.",
     "Fecha de Ingreso", D),
    ("Datos del paciente.\nNombre: Marc.\nApellidos: Garcia Prieto.\nDomicilio: Calle Mayor."
     "\nNHC: 270058.", "Apellidos", P),
    ("El paciente fue dado de alta. Durante el seguimiento las cifras de PSA ascienden.",
     "El", D),
    ("Se realizó una resonancia. En la analítica de sangre sólo destaca la anemia.", "En", D),
    ("Dada la edad del paciente, la recidiva en menos de dos años es rara.", "paciente", D),
    ("Ante la sospecha de que pudiera tratarse de un tumor se solicita una biopsia.",
     "sospecha", D),
    ("con una rápida mejoría clínica y analítica, procediéndose al alta.",
     "mejoría clínica", H),
    ("La evolución clínica hospitalaria no tuvo incidencias.", "evolución clínica", H),
])
def test_common_words_of_another_language_are_no_names(text: str, piece: str,
                                                       label: Label) -> None:
    assert _kept(text, [(piece, label)]) == []


@pytest.mark.parametrize(("text", "piece", "label"), [
    # A title before it, in Spanish or English.
    (HEADER, "Estefanía Calvo Urrutia", D),
    ("Remitido por: Dra. Bueno, servicio de urología del hospital.", "Bueno", D),
    # English sentences: an unknown word that happens to be Spanish may be a name.
    ("S: Quil reports two falls this week, no new concerns.", "Quil", P),
    ("pt's husband Bello visits daily, he is the health care proxy.", "Bello", Label.PERSON),
    # A listed name or place is never a common word ("Garcia", "Madrid").
    ("Nombre: Marc.\nApellidos: Garcia Prieto.\nNHC: 270058.", "Garcia Prieto", P),
    # A word of a longer candidate that is no common word.
    ("Servicio de Urología. Hospital Universitario de la Arrixaca, Murcia.",
     "Universitario", D),
    # A place in title case ("Virgen del Rocío") is judged by the model as before.
    ("ingresa en el Hospital Virgen del Rocío de Sevilla por dolor.", "Virgen del Rocío", H),
])
def test_names_with_evidence_or_in_english_stay(text: str, piece: str, label: Label) -> None:
    proposals = [(piece, label)]
    if piece == "Universitario":
        proposals.append(("Hospital", H))
    assert any(piece in kept for kept in _kept(text, proposals))  # "Hospital Universitario"


def test_a_persons_name_ends_before_a_common_word() -> None:
    text = ("Responsable clínico: Natalia del Valle González Correo electrónico: "
            "nvalle@example.es. Servicio de Urología.")
    kept = _kept(text, [("Natalia del Valle González", D), ("Correo", D)])
    assert kept == ["Natalia del Valle González"]


def test_rules_and_dictionaries_are_not_judged_by_it() -> None:
    text = "Durante el seguimiento las cifras de PSA ascienden."
    span = Span(0, 7, D, source=Source.RULE, detector="regex.test")
    kept, _ = guard(Document.from_text(text), [span])
    assert kept == [span]


def test_phrases_and_context() -> None:
    assert common_phrase("Fecha de Ingreso") and common_phrase("paciente")
    assert not common_phrase("Garcia") and not common_phrase("UCI")  # a name; an acronym
    assert common_phrase("la") and not common_phrase("la", place=True)  # Los Angeles?
    text = "Se solicita resonancia magnética y la paciente ingresa en planta."
    assert foreign_context(text, text.index("paciente"), text.index("paciente") + 8)
    text = "Pt's sister Paloma called, updated on plan, will visit tomorrow."
    assert not foreign_context(text, text.index("Paloma"), text.index("Paloma") + 6)


def test_the_shipped_list_holds_no_english_word_listed_name_or_place() -> None:
    words = common_words()
    first, last = all_name_lists()
    assert len(words) > 50_000
    assert not words & first and not words & last
    assert {"fecha", "remitido", "paciente", "durante"} - words == {"durante"}  # a surname
    # wordfreq's English top list was removed, Webster's lower-case words mostly remain out.
    assert len(words & english_words()) < 0.2 * len(words)


SPANISH_CASE = ("Varón de 62 años que consulta por hematuria. Se realizó una ecografía y una "
                "cistoscopia en la que se observa una lesión vesical. Durante el seguimiento las "
                "cifras de PSA ascienden. Como exploraciones complementarias se solicita una "
                "tomografía. El paciente fue dado de alta al sexto día sin incidencias.")


def test_a_spanish_document_is_foreign_and_an_english_note_is_not() -> None:
    assert foreign_document(SPANISH_CASE)
    assert not foreign_document("Pt resting comfortably, wife Rosa at bedside, updated on plan. "
                                "Durante family visited; son called, will come in tomorrow. " * 3)


def test_a_gazetteer_preposition_at_a_sentence_start_of_a_spanish_document() -> None:
    from engine.pipeline import build_pipeline

    pipeline = build_pipeline(ner=False, policy="strict")
    found = {SPANISH_CASE[s.start:s.end] for s in
             pipeline.run(Document.from_text(SPANISH_CASE)).active}
    assert "Durante" not in found and "Como" not in found
    english = "Pt seen today. Durante was at bedside, updated by RN."
    kept, _ = guard(Document.from_text(english), [
        Span(15, 22, Label.PERSON, source=Source.RULE, detector="dictionary.names@2")])
    assert [english[s.start:s.end] for s in kept] == ["Durante"]
