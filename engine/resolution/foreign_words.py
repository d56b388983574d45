"""Common words of other languages are no names, and lower-case ones no places.

The shipped model learned names from English text. In a Spanish case report it takes field
labels and sentence-initial words for clinicians ("Fecha de Ingreso:", "Remitido por:",
"Servicio", "En", "Se") and lower-case clinical words for names and facilities ("paciente",
"drenaje", "mejoría clínica"): about half of its false spans on MEDDOCAN's development set.
A model's name is dropped when every word is a common word of Spanish, Portuguese, French,
Italian or German (resources/dictionaries/common_words.txt: no English words, listed names or
places) or a function word of theirs, with no title before it, among words of that language
("S: Quil reports two falls" is English, where an unknown word may be a name); a place or
facility only when it is also written in lower case ("cuadro clínico"; "Virgen del Rocío"
stays). A word that
continues a place or facility which is no common word stays too ("Hospital Universitario").
English words are left to the English rules, so "Will" and "Hope" are judged as before.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.detectors.dictionary.context import common_words, has_strong_name_context, is_english
from engine.detectors.dictionary.names import is_listed_name

# Articles, prepositions and pronouns too short or too English to list ("en", "la", "se").
_FUNCTION_WORDS = frozenset({
    "de", "del", "la", "las", "los", "el", "en", "se", "su", "sus", "al", "lo", "le", "les",
    "y", "e", "o", "u", "un", "una", "por", "con", "sin", "du", "des", "et", "di", "il",
    "der", "die", "das", "und", "da", "do", "dos", "em", "na", "nas", "nos", "es", "que",
    "para", "fue", "ha",
    # French ("PHARMACIE FERMÉE DURANT LE CONGÉ", "LOYER PAYÉ AU MOIS")
    "au", "aux", "à", "ou", "sur", "pour", "dans", "avec", "chez", "par", "pas", "ne",
    # prepositions and conjunctions that are also listed names ("Durante", "Ante", "Como")
    "durante", "ante", "como", "tras", "según", "mediante", "hacia", "hasta", "desde", "entre",
    "sobre", "pero", "aunque", "cuando", "donde", "porque", "pues", "muy", "más"})
_WORD = re.compile(r"[^\W\d_]+")
# Titles of other languages before a name: "Dra. Estefanía Romero", "Sr. Bueno".
_TITLE_BEFORE = re.compile(r"(?i:\b(?:dra|sra|srta|sr|dña|doña|don|dott|dottssa|mme|mlle|herr"
                           r"|frau)\.?[ \t]*)$")


def common_phrase(covered: str, *, place: bool = False, caseless: bool = False) -> bool:
    """Every word is a listed common word or a function word, at least one is listed when
    ``place`` (a lone "la" may be Los Angeles), and none is in capitals (an acronym) unless
    the line has no case ("PHARMACIE FERMÉE DURANT LE CONGÉ")."""
    words = _WORD.findall(covered)
    if not words or not caseless and any(w.isupper() and len(w) > 1 for w in words):
        return False
    listed = common_words()
    keys = [w.casefold() for w in words]
    if not all(k in listed or k in _FUNCTION_WORDS for k in keys):
        return False
    return not place or any(k in listed for k in keys)


@lru_cache(maxsize=4)  # one document at a time is judged; the cache holds its text
def foreign_document(text: str) -> bool:
    """Most of the document's words are another language's (a Spanish case report: 4.6 to 34
    such words per English word over MEDDOCAN's development set; English notes: under 1)."""
    foreign, english = _tally(_WORD.findall(text[:20_000]))
    return foreign >= 20 and foreign >= 2 * english


def _tally(words: list[str]) -> tuple[int, int]:
    listed = common_words()
    foreign = english = 0
    for word in words:
        key = word.casefold()
        if key in listed or key in _FUNCTION_WORDS:
            foreign += 1
        elif is_english(word):
            english += 1
    return foreign, english


def function_words_only(covered: str) -> bool:
    words = _WORD.findall(covered)
    return bool(words) and all(w.casefold() in _FUNCTION_WORDS for w in words)


def foreign_context(text: str, start: int, end: int) -> bool:
    """The document or the words around the span are mostly another language's: "S: Quil
    reports two falls" is an English sentence, where an unknown capitalised word may well be
    a name."""
    if foreign_document(text):
        return True
    words = _WORD.findall(text[max(0, start - 60):start])[-4:] \
        + _WORD.findall(text[end:end + 60])[:4]
    foreign, english = _tally(words)
    return foreign >= 2 and foreign > english


def titled(text: str, start: int, end: int) -> bool:
    """A title before it, in English or another language."""
    return bool(_TITLE_BEFORE.search(text[max(0, start - 12):start])) \
        or has_strong_name_context(text, start, end)


_OPENING = re.compile(r"[\"“(][^\"“”()\n]*\Z")
_CLOSING = re.compile(r"[^\"“”()\n]*[\"”)]")


def quoted_foreign(text: str, start: int, end: int) -> bool:
    """Inside a short quotation or bracket of another language ('takes "la pastilla para el
    azúcar"', '"SE ME ACELERA EL CORAZÓN"', "Dr. Montemayor (medicina interna)"): the
    patient's or a colleague's own words; a listed name there stays."""
    opening = _OPENING.search(text, max(0, start - 60), start)
    closing = _CLOSING.match(text, end, min(len(text), end + 60))
    if opening is None or closing is None:
        return False
    quoted = _WORD.findall(text[opening.start() + 1:closing.end() - 1])
    if text[opening.start()] == "(" and (len(quoted) < 2 or not text[start:end].islower()):
        return False  # "San Fernando (Cádiz)", "(e.g. Briarcliff)": a place, a name
    listed = common_words()
    if len(quoted) > 10 or any(is_listed_name(w) and w.casefold() not in _FUNCTION_WORDS
                               and w.casefold() not in listed
                               for w in _WORD.findall(text[start:end])):
        return False
    foreign, english = _tally(quoted)
    return foreign >= 1 and foreign >= 2 * english


# A translation in brackets right after the quotation: '"hindi ako makahinga" (I can't
# breathe)', 'PT REPORTS "MASAKIT ANG TIYAN" (STOMACH HURTS)'.
_GLOSS_AFTER = re.compile(r"[ \t]*\(([^()\n]{3,80})\)")


def glossed_quotation(text: str, start: int, end: int) -> bool:
    """Inside a quotation of the patient's or family's own language that the chart translates
    in brackets after it: their words, not a name, unless the translation repeats the word
    ('"nasaan si Maria" (where is Maria)')."""
    opening = _OPENING.search(text, max(0, start - 80), start)
    closing = _CLOSING.match(text, end, min(len(text), end + 80))
    if opening is None or closing is None or text[opening.start()] == "(" \
            or text[closing.end() - 1] == ")":
        return False
    gloss = _GLOSS_AFTER.match(text, closing.end())
    if gloss is None or len(_WORD.findall(text[opening.end():closing.end()])) < 2:
        return False  # one quoted word may be a nickname: '"Bea" (his wife)'
    translation = [w for w in _WORD.findall(gloss.group(1)) if len(w) > 1]
    if sum(is_english(w) for w in translation) < max(2, len(translation) // 2 + 1):
        return False  # "(Pip per family)" is no translation
    said = {w.casefold() for w in translation}
    return not any(w.casefold() in said for w in _WORD.findall(text[start:end]))
