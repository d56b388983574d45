"""Clinical things a model takes for names or places, judged whoever proposed them.

- A species after its genus's name or initial, or before its group: "strep intermedius",
  "Rickettsia rickettsii", "H. influenzae", "(milleri group)".
- An eponym before a procedure, a sign or a disease is no person: "IVOR-LEWIS ESOPHAGECTOMY",
  "Hunt Hess score".
- A place's name on a device, formula or rule is no place: "Blakemore/Minnesota tube", "jones
  splint", the Parkland formula in a line about fluids; a "chair van" is no person.
- A word that ends in a drug's stem (the USAN/INN stems) is a drug, not a name: "MILRINONE",
  "imipenem", "cefepime". No list of drugs is complete; the stems name the classes.
- A graft's notation is no name: "LIMA-LAD", "SVG-OM1" (a vessel joined to a vessel), nor two
  colours of secretions joined ("white-tan").
"""

from __future__ import annotations

import re

from engine.core.domain import Span
from engine.core.labels import Label
from engine.detectors.dictionary.context import has_strong_name_context
from engine.detectors.regex.staff import MICROBES
from engine.resolution.edges import line_around
from engine.resolution.shorthand import listed_name

_PROCEDURE_AFTER = re.compile(
    r"(?i:^(?:[ \t\-]+(?!(?:on|in|at|to|of|for|from|by|with|the|a|an|and|or|per|his|her)\b)"
    r"[A-Z][A-Za-z]+)?[ \t]+(?:[a-z]+(?:ectomy|otomy|ostomy|plasty|scopy|pexy"
    r"|graphy)|procedure|operation"
    r"|repair|maneuver|manoeuvre|syndrome|disease|sign|reflex|test|score|scale|grade"
    r"|classification|criteria|tube|catheter|stocking|esophagectomy|waves?|formula|pads?|valve"
    r"|pericardial|ring|bed(?![ \t]*#?\d)|mattress)\b)")  # not "PT RABINOVICH BED 12"


# A species after its genus, or its group: "strep intermedius", "(milleri group)".
_GENUS_BEFORE = re.compile(r"(?i:\b(?:strep|streptococcus|staph|staphylococcus|[a-z]\.)[ \t]*\Z)")
_GROUP_AFTER = re.compile(r"[ \t]+(?i:group|grp)\b")
_SPECIES_AFTER = re.compile(rf"[ \t]+(?:{'|'.join(sorted(MICROBES))})\b")
_GENUS = re.compile(r"[A-Z][a-z]{3,}[ \t]+\Z")  # "Rickettsia rickettsii"
_GENUS_INITIAL = re.compile(r"(?:\A|\s)[A-Z]\.\Z")  # "H." of "H. influenzae"


def species(text: str, span: Span) -> bool:
    """A species named after its genus or before its group, whoever proposed it."""
    covered = text[span.start:span.end].strip()
    genus, _, epithet = covered.rpartition(" ")
    if genus[:1].isupper() and " " not in genus and epithet.islower() and epithet in MICROBES:
        return True  # "Rickettsia rickettsii": the genus and its species
    if _SPECIES_AFTER.match(text, span.end) and (covered[:1].isupper() and " " not in covered
                                                 or _GENUS_INITIAL.search(covered)):
        return True  # "Rickettsia" before its species; "Micro: BAL H. influenzae"
    return covered.casefold() in MICROBES and (
        bool(_GENUS_BEFORE.search(text[max(0, span.start - 16):span.start]))
        or covered.islower() and bool(_GENUS.search(text, max(0, span.start - 24), span.start))
        or bool(_GROUP_AFTER.match(text, span.end)))


def eponym(text: str, span: Span) -> bool:
    return bool(_PROCEDURE_AFTER.match(text[span.end:span.end + 24])) \
        and not has_strong_name_context(text, span.start, span.end)


# A place's name on a device, formula or rule ("Blakemore/Minnesota tube", "bulky jones
# splint", "Rogers authority"), and the burn formula in a line about fluids.
_THING_AFTER = re.compile(r"(?i:[ \t]+(?:tube|splint|formula|dressing|catheter|drain|spray"
                          r"|authority|criteria|protocol|classification|maneuver|bolt|nomogram)\b)")
_FLUIDS_LINE = re.compile(r"(?i:\b(?:fluids?|resusc?\w*|tbsa|lr|ml|cc|kg|burns?)\b"
                          r"|\d[ \t]*l\b)")  # "Total 19.1 L = 1.2x Parkland"


_VAN = re.compile(r"(?i:(?:chair|wheelchair|w/c|facility|transport|medical|the)[ \t]+van\b"
                  r"|van[ \t]+(?:transport|ride|booked)\b)")


def named_thing(text: str, span: Span) -> bool:
    """A device, vehicle or formula named like a place or a person, whoever proposed it as
    either ("Minnesota tube", "chair van booked", "Resusc per Parkland")."""
    covered = text[span.start:span.end].strip()
    if " " in covered:
        return False
    if _THING_AFTER.match(text, span.end) and span.label is Label.LOCATION:
        return True
    if covered.casefold() == "van" and any(
            m.start() <= span.start < m.end() for m in _VAN.finditer(
                text, max(0, span.start - 12), span.end + 12)):
        return True  # "chair van booked", "re: van transport"
    return covered.casefold() == "parkland" \
        and bool(_FLUIDS_LINE.search(line_around(text, span.start, span.end)))


# USAN/INN stems, long enough that no listed name ends in one (checked against names.txt).
_DRUG_STEM = re.compile(
    r"(?i:[a-z]{2,}(?:mycin|micin|cillin|cycline|floxacin|penem|conazole|nidazole|ovir|navir"
    r"|ximab|zumab|tinib|pril|sartan|olol|statin|dipine|parin|xaban|gatran|platin|rubicin|taxel"
    r"|tecan|fiban|tidine|prazole|setron|triptan|zepam|zolam|barbital|profen|coxib|oxetine"
    r"|ipramine|triptyline|peridol|apine|codone|morphone|terol|sonide|olone|asone|semide"
    r"|thiazide|rinone|ephrine|dronate|gliptin|glitazone|gliflozin|lukast|phylline|curonium"
    r"|triaxone|epime|azolin|vancin|bactam|fungin|umab|buvir|previr|asvir|parib|ciclib"
    r"|glutide|pamil|tiazem)|cef[a-z]{4,}|ceph[a-z]{4,})")
_VESSELS = frozenset({"lima", "rima", "svg", "ima", "lad", "rca", "om", "om1", "om2", "om3",
                      "pda", "lcx", "cx", "diag", "d1", "d2", "ramus", "plb", "pl", "rpda"})

_COLOURS = frozenset({"white", "tan", "yellow", "green", "brown", "gray", "grey", "red", "pink",
                      "black", "clear", "bloody", "blood", "tinged", "frothy", "thick", "thin",
                      "creamy", "purulent", "serous", "serosanguinous", "sanguinous", "amber",
                      "cloudy", "light", "dark", "straw", "rust", "maroon", "coffee"})


def drug_by_its_stem(text: str, span: Span) -> bool:
    covered = text[span.start:span.end].strip(".,")
    return bool(_DRUG_STEM.fullmatch(covered)) and not listed_name(covered) \
        and not has_strong_name_context(text, span.start, span.end)


def graft_notation(text: str, span: Span) -> bool:
    """"LIMA-LAD", "SVG-OM1": a vessel joined to a vessel; "white-tan", "pink-frothy": a
    colour joined to a colour or a texture (secretions, drainage, stool)."""
    parts = _dashed_word(text, span).casefold().split("-")
    return len(parts) >= 2 and (all(p in _VESSELS for p in parts)
                                or all(p in _COLOURS for p in parts)) \
        and not has_strong_name_context(text, span.start, span.end)  # "Dr. Green-White"


def _dashed_word(text: str, span: Span) -> str:
    start, end = span.start, span.end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "-"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "-"):
        end += 1
    return text[start:end]
