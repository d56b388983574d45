"""A sign-out list's patient by bed: "Bed 2 – Kealoha, COPD/pna", "BED 4 - FENWICK (83M)", a
two-word tribal surname "RM 4 - OLD ELK - DKA, GAP CLOSED". The name stands between the bed and a
comma, a bracket, a dash or a colon; the sign-out detector (dictionary/signout.py) reads the
items that give age and sex after the name."""

from __future__ import annotations

from engine.core.labels import Label
from engine.detectors.regex.compound_names import COMPOUND_SURNAME
from engine.detectors.regex.fragments import BED
from engine.detectors.regex.name_checks import word_or_listed_name
from engine.detectors.regex.rule import RegexRule


def bed_list_name(text: str) -> bool:
    """"Bed 2 – Kealoha,", "BED 21 - LUTHER BAPTISTE:": each word a listed name or a non-word,
    no prefixed word ("Bed 12 – post-arrest,", "Bed 4 - septic shock:")."""
    from engine.resolution.shorthand import is_prefixed_word

    return all(word_or_listed_name(w) and not is_prefixed_word(w.replace("-", ""))
               and not any(c.isdigit() for c in w)  # "bed 10 - ex-lap pod0"
               for w in text.split())  # "BED 21 - LUTHER BAPTISTE:", not "Bed 4 - septic shock:"


BED_LIST_RULES: tuple[RegexRule, ...] = (
    RegexRule("name.bed_list", Label.PATIENT,
              rf"(?im:^[ \t]*(?:\d{{1,2}}[.)][ \t]*)?{BED}"
              r"(?:[ \t]*[–—\-:][ \t]*|[ \t]+(?=[^\W\d_][\w'’\-]+(?:[ \t]+-[ \t]|:))))"
              r"([^\W\d_][\w'’\-]+(?:[ \t]+[^\W\d_][\w'’\-]+)?)"
              r"(?=[ \t]*[,(–—:]|[ \t]+-[ \t]|[ \t]+\d{1,3}%)",  # "bed 3 hershberger: hd 5"
              0.55, group=1, validate=bed_list_name, on_view=False),
    # A two-word tribal surname: "RM 4 - OLD ELK - DKA, GAP CLOSED", "bed 5 - two bulls f dka".
    RegexRule("name.compound_bed_list", Label.PATIENT,
              rf"(?im:^[ \t]*{BED}[ \t]*[–—\-:][ \t]*({COMPOUND_SURNAME})"
              r"(?=[ \t]*[,(–—:]|[ \t]+-[ \t]|[ \t]+(?:\d{1,3}[ \t]?)?[MFmf]\b))", 0.6, group=1,
              on_view=False),
)
