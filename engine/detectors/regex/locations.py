"""Postal codes and street addresses (North American and European layouts)."""

from __future__ import annotations

import re

from engine.core.labels import Label
from engine.core.regions import CA_PROVINCE_CODES, US_STATE_CODES
from engine.detectors.regex.fragments import HHMM, LETTER, LOW, UP
from engine.detectors.regex.rule import RegexRule
from engine.detectors.regex.validators import (
    country_code_not_charting,
    measured_term,
    postal_code_not_gcs,
    street_not_charting,
)

L = Label.LOCATION
_CA_POSTAL = r"[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ \-]?\d[ABCEGHJ-NPRSTV-Z]\d"
# States, provinces, Puerto Rico and the armed forces' postal "states" (AA, AE, AP).
_STATES = "|".join(sorted(US_STATE_CODES | CA_PROVINCE_CODES | {"PR", "AA", "AE", "AP"}))

POSTAL_RULES: tuple[RegexRule, ...] = (
    RegexRule("postal.ca", L, rf"(?<![\w\-])({_CA_POSTAL})(?![\w\-])", 0.9,
              subtype="POSTAL_CODE", group=1, validate=postal_code_not_gcs),
    RegexRule("postal.ca_lower", L, rf"(?i:(?<![\w\-])({_CA_POSTAL})(?![\w\-]))", 0.5,
              subtype="POSTAL_CODE", group=1, validate=postal_code_not_gcs),
    RegexRule("zip.plus4", L, r"(?<![\w\-])(\d{5}-\d{4})(?![\w\-])", 0.8, subtype="ZIP", group=1),
    RegexRule("zip.after_state", L, rf"\b(?:{_STATES}),?\s+(\d{{5}}(?:-\d{{4}})?)(?![\w\-])",
              0.9, subtype="ZIP", group=1),
    RegexRule("zip.cued", L,
              r"(?i:\b(?:zip|postal\s*code|post\s*code|postcode)(?:\s*code)?\s*[:#]?\s*)"
              r"((?=[A-Za-z \-]*\d)[A-Za-z0-9][A-Za-z0-9 \-]{1,8}[A-Za-z0-9])(?![\w\-])",
              0.92, subtype="POSTAL_CODE", group=1),
    # Spanish forms: "CP: 28016", "C.P. 08907" (five digits: "CP: 8/10" is chest pain).
    RegexRule("zip.cp", L, r"\bC\.?P\.?[ \t]*:?[ \t]*(\d{5})(?![\w\-/]|\.\d)", 0.85,
              subtype="POSTAL_CODE", group=1),
)

# Particles are whole words: "do" must not match the start of "downtown".
_WORD = rf"(?:{UP}{LETTER}*\.?|(?:de|del|da|do|dos|das|la|le|du|van|von|der|di|ul\.|al\.)(?!\w))"
_SUFFIX = (r"(?:Street|St|Avenue|Ave|Av|Road|Rd|Boulevard|Blvd|Drive|Dr|Lane|Ln|Court|Ct|"
           r"Crescent|Cres|Cr|Way|Place|Pl|Terrace|Terr|Highway|Hwy|Parkway|Pkwy|Circle|Cir|"
           r"Trail|Trl|Square|Sq|Row|Close|Gardens|Gate|Grove|Heights|Hill|Park|Path|Pike|"
           r"Plaza|Point|Ridge|Run|Walk|Alley|Loop|Crossing|Crossroad|Green|Greens|Mews|View|"
           r"Vista|Estates|Landing|Line|Concession|Sideroad|Rang|Chemin|Ch|Rue|Expressway|"
           r"Freeway|Turnpike|Junction|Causeway|Esplanade|Promenade|Quay|Wharf|Bypass|Meadow|"
           r"Meadows|Manor|Glen|Harbor|Harbour|Haven|Hollow|Island|Isle|Knoll|Lakes?|Mill|"
           r"Mills|Orchard|Pass|Pines|Shore|Shores|Springs?|Stream|Summit|Track|Union|Valley|"
           r"Villa|Village|Ville|Well|Wells|Woods?)")
_NAMED_STREET = (r"(?:Street|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Way|Court|Terrace"
                 r"|Parkway|Pkwy|Highway|Hwy|Turnpike|Pike)")
# European street words as prefixes or glued suffixes ("Via Roma 131", "Kiannonkatu 98").
_PREFIX = (r"(?:Via|Viale|Piazza|Corso|Largo|Rua|Avenida|Av\.|Calle|Carrer|Paseo|Camino|"
           r"C/|Avda\.?|Plaza|Pza\.|Ctra\.?|Carretera|Traves[íi]a|Ronda|Glorieta|Urb\.|"
           r"Travessa|Praça|Rue|Boulevard|Chemin|Allée|Place|Strada|Ulica|ul\.|al\.|Aleja|"
           r"Plac|Πλατεία|Οδός|Leoforos|Odos)")
_GLUED = (rf"{UP}{LOW}*(?:katu|tie|kuja|polku|väylä|veien|vegen|vei|gata|gatan|vägen|väg|gränd|"
          r"vej|gade|straße|strasse|str\.|weg|laan|straat|gracht|plein|gasse|platz|allee|ring|"
          r"damm|út|utca|tér|körút|ulica|iela|tee|gatve|cesta|ulice|náměstí|trida|třída|"
          r"bulevar|sokak|caddesi|sok\.|cad\.)")
# A house number may take a letter ("12B"), never the "s" of a decade ("HR 90s-110s ST").
_HOUSE = r"\d{1,6}(?:[A-Za-z](?<!0s))?(?:[\-/]\d{1,5}(?:[A-Za-z](?<!0s))?)?"
_UNIT = (r"(?:[,\s]+(?:Apt|Apartment|Suite|Ste|Unit|Flat|Room|Rm|Floor|Fl|Bldg|Building|#)\.?"
         r"\s*#?\s*[\w\-]{1,6})")
_EU_WORD = (r"(?:Strasse|Straße|Str\.|Weg|Gasse|Platz|Allee|Laan|Straat|Gata|Gatan|Vej|Vei|"
            r"Veien|Utca|út|útja|utca|tér|Ulica|Iela|Tee|Katu|Tie)")
_P_WORD = rf"(?:{_WORD}|{LOW}+)"  # after a street prefix: "rue de la Paix", "ul. Narewska"
# Three or more blanks separate form fields ("HCN - 6266 944 227    Visit # 62788627").
_GAP = r"[ \t]{1,2}(?![ \t])"
_NOT_UNIT = r"(?![ \t]*(?i:mg|mcg|ml|units?|tabs?|caps?|times|x\b|%|mmhg|kg|lbs?|cm|mm)\b)"
# A street prefix needs a house number before or after it, or a name ending in a capitalised
# word ("rue de la Paix"): a lower-case "place in the world" is no street once re-cased.
_NUMBER_AFTER = rf"(?:,?[ \t]+{_HOUSE}\b\.?)"  # "Via Roma 131", "rua mina, 50"
_STREET = (rf"(?:(?:{_HOUSE}[ \t]+){{1,2}}{_PREFIX}(?:[ \t]+{_P_WORD}){{1,4}}{_NUMBER_AFTER}?"
           rf"|{_PREFIX}(?:[ \t]+{_P_WORD}){{0,3}}[ \t]+{UP}{LETTER}*\.?{_NUMBER_AFTER}?"
           rf"|{_PREFIX}(?:[ \t]+{_P_WORD}){{1,4}}{_NUMBER_AFTER}"
           # a suffix's full stop that ends the line ends the sentence: "lives at 47 orchard
           # hill rd.⏎core temp 32.1"
           rf"|(?:{_HOUSE}{_NOT_UNIT}[ \t]+){{1,2}}(?:{_WORD}[ \t]+){{1,4}}{_SUFFIX}\b"
           r"(?:\.(?![ \t]*(?:\n|$)))?"
           rf"|(?:{_HOUSE}[ \t]+)?(?:{_WORD}[ \t]+){{0,2}}{_GLUED}\.?[ \t]+{_HOUSE}\b\.?"
           rf"|(?:{_HOUSE}[ \t]+)?(?:{_P_WORD}[ \t]+){{1,3}}{_EU_WORD}\.?[ \t]+{_HOUSE}\b\.?"
           # the word before the second number is a name, no particle ("2006 con cifras de 6"),
           # nor a side ("MCA velocities R 142 L 118")
           rf"|\d{{3,6}}[ \t]+(?:{_P_WORD}[ \t]+){{0,3}}{UP}{LETTER}+\.?[ \t]+"
           rf"\d{{1,5}}[A-Za-z]?\b(?![.,]\d)\.?{_NOT_UNIT}"  # not "jevity 1.2"
           rf"|(?:{_HOUSE}{_GAP}){{1,2}}(?:{_WORD}{_GAP}){{0,3}}{_WORD}(?={_UNIT})"
           r"|P\.?\s?O\.?\s+Box\s+\d{1,6}"
           r"|(?:PSC|Unit|CMR)\s+\d{3,5},?\s+Box\s+\d{3,5}|USN[SV]\s+[A-Z][a-z]+|USCGC\s+[A-Z][a-z]+)")
# Continuation lines: city / state / country / postal code, at most three.
_CONT_LINE = (rf"(?:{UP}{LETTER}*(?:[ \t\-]+(?:{UP}{LETTER}*|de|del|la|sur|upon|on))*\.?"
              rf"(?:,?[ \t]*(?:{_STATES}))?(?:,?[ \t]+(?:{_CA_POSTAL}|\d{{4,5}}(?:-\d{{3,4}})?))?"
              rf"|(?:[AF]PO|DPO)[ \t]+A[AEP][ \t]+\d{{5}}|{_CA_POSTAL}|\d{{4,5}})")

_STREET_WORD = re.compile(rf"(?i:{_SUFFIX}|{_PREFIX}|Apt|Apartment|Suite|Ste|Unit|Flat|Room|Rm"
                          rf"|Floor|Fl|Bldg|Building|Box|[NSEW]|NE|NW|SE|SW|{_STATES})")


_CLOCK_FIRST = re.compile(rf"[ \t]*{HHMM}\b")
_EARLY_CLOCK_FIRST = re.compile(r"[ \t]*0\d[0-5]\d\b")  # a clock no US house number is
_PHONE_FIRST = re.compile(r"\d{3}[\-.]\d{4}\b")
# A sentence ends inside the span ("VVI 50 BACKUP. CT X2"): a period after an English word of
# five letters or more; after a shorter word it marks an abbreviation ("Calle Gral. Rey, 2",
# "Avda. Prof. Martín Lagos") and after a name or a number the end of a line of an address.
_SENTENCE_END = re.compile(r"([^\W\d_]{5,})\.[ \t]+(?=[^\W\d_])")
# Words of a clause, never of a street's name ("6H POST OP IF CT", "1620 for SBP 78").
_CLAUSE_WORDS = frozenset({"if", "when", "then", "after", "before", "with", "per", "for",
                           "was", "is", "will", "because", "since", "until", "while",
                           # a dose's frequency: "RIFAXIMIN 550 BID. NOW WEST HAVEN 1"
                           "bid", "tid", "qid", "qhs", "qd", "prn",
                           # a list of dates ("October 2008 as well as November 2008")
                           "as", "well", "also", "than",
                           # a relative clause ('wants "a place where they speak spanish"')
                           "where", "who", "which", "they", "we"})


def street_without_shorthand(text: str) -> bool:
    """A street whose words hold no ICU charting word ("2 PIV. MEDIASTINAL CT", "0123 DEFIB
    200J", "Camino ICP 14-22" are charting); street words ("St", "Hwy", "Apt") are not
    counted. The wider shorthand inventories hold street words of other languages ("de",
    "la") and military addresses ("PSC", "APO")."""
    from engine.detectors.dictionary.context import is_english
    from engine.resolution.shorthand import icu_words, is_shorthand

    if _PHONE_FIRST.match(text):
        return False  # "(615) 555-0148 not home line": a phone's last seven digits
    if _DISTANCE_FIRST.match(text):
        return False  # "150 MILES EACH WAY": how far, not where; "1u PRBC": how much; "x 3
        # days. ct head neg": how long
    if _VASCULAR_LINE.search(text):
        return False  # "events: 1400 art line damped waveform": a catheter, not a road
    if _EARLY_CLOCK_FIRST.match(text) and len(re.findall(r"\d+", text)) == 1:
        return False  # "0500 STAT CT: STABLE", an hourly entry; "0104 Hafnarstraeti 5" stays
    if _DATE_CLOCK_FIRST.match(text):
        return False  # "4/22 0430 HONOR WALK FROM UNIT TO OR": a day and a time, an event
    if not street_not_charting(text) or _CLOCK_FIRST.match(text) and not any(
            _STREET_WORD.fullmatch(word) for word in re.findall(r"[^\W\d_]{2,}", text)):
        return False  # "0130 Glucose 58", "2100 PULSUS 8": a clock, then what was measured
    if _ENGLISH_PLACE.fullmatch(text) and all(
            is_english(word) or is_shorthand(word) for word in re.findall(r"[^\W\d_]+", text)[1:]):
        return False  # "place new line", "IR TO PLACE PERC DRAIN": an order
    if any(is_english(m.group(1)) and not _STREET_WORD.fullmatch(m.group(1))
           for m in _SENTENCE_END.finditer(text)) \
            or any(w.casefold() in _CLAUSE_WORDS for w in re.findall(r"[^\W\d_]+", text)):
        return False
    return not any(_charting_word(word, icu_words())
                   for word in re.findall(r"[^\W\d_]{2,}", text))


def address_not_prose(text: str) -> bool:
    """What follows "address -" holds a number or a word no English or shorthand list holds,
    not only words ("permanent address - no accessible home to d/c to, so snf vs ipr")."""
    from engine.detectors.dictionary.context import is_english
    from engine.resolution.shorthand import is_shorthand

    return any(c.isdigit() for c in text) or not all(
        len(w) < 3 or is_english(w) or is_shorthand(w) for w in re.findall(r"[^\W\d_]+", text))


_DISTANCE_FIRST = re.compile(r"\d+(?:\.\d+)?[ \t]*(?i:miles?|mi|km|kilometers?|blocks?"
                             r"|hours?|hrs?|minutes?|mins?|days?|weeks?|wks?|months?"
                             r"|u|units?)\b")  # a transfusion: "Given TXA 1g, 1u PRBC."
_DATE_CLOCK_FIRST = re.compile(r"\d{1,2}/\d{1,2}[ \t]+(?:[01]\d|2[0-3])[0-5]\d\b")
_VASCULAR_LINE = re.compile(r"(?i:\b(?:art|arterial|a|central|picc|mid|iv|cvc|hd|dialysis|pa)"
                           r"[ \t\-]+line\b)")
# A street prefix that is an English verb and noun, with only English words and numbers after.
_ENGLISH_PLACE = re.compile(r"(?i:place)\b[^\n]*")
_UNITS = frozenset({"mmhg", "mg", "mcg", "ml", "cc", "kg", "meq", "mmol", "units", "iu", "fr"})


def _charting_word(word: str, icu: frozenset[str]) -> bool:
    """An ICU word or its plural ("PLACE PIVS"), a unit ("5-8 MMHG. LINE") or a lab or drug
    of the clinical lexicon ("FERRITIN 4800"); never a street word."""
    if _STREET_WORD.fullmatch(word):
        return False
    key = word.casefold()
    if key in icu or len(key) > 3 and key.endswith("s") and key[:-1] in icu or key in _UNITS:
        return True  # not "Calle Les Glories" ("le": lower extremity)
    return measured_term(word)


ADDRESS_RULES: tuple[RegexRule, ...] = (
    # No comparison or price before the house number ("MAP <60 AGAIN WILL PLACE", "~$60 EACH
    # WAY"), nor a bed's cue ("RM 3 FRIESEN CT OUT": the room's patient and a scan); a ">" that
    # opens a line quotes a letter (">228 Ringvej 144").
    RegexRule("address.street", L,
              rf"(?<![\w\-/.#<=~+$])(?<![ \t\w]>)"
              r"(?<!\b(?i:rm)[ \t])(?<!\b(?i:bed)[ \t])(?<!\b(?i:room)[ \t])(?<!\b(?i:bay)[ \t])"
              # nor a grade or stage ("GRADE 3 SPLEEN LAC. CT PLACED")
              r"(?<!\b(?i:grade)[ \t])(?<!\b(?i:stage)[ \t])(?<!\b(?i:class)[ \t])"
              rf"({_STREET}{_UNIT}*"
              rf"(?:(?:,[ \t]*|[ \t]*\n[ \t>]*)(?:{_CONT_LINE})(?=[ \t]*(?:[,\n.;)?]|$))){{0,3}})",
              0.8, subtype="STREET", group=1, validate=street_without_shorthand),
    # "Address: ..." announces the rest of the line (and continuation lines).
    RegexRule("address.cued", L,
              rf"(?i:\b(?:(?:home|mailing|billing|street|postal|current|new)\s+)?address(?:es)?\s*"
              rf"(?:is|:|-)\s*(?:it\s+is\s+)?)((?:[^\W_]|\d)[^\n]{{2,80}}?"
              rf"(?:[ \t]*\n[ \t>]*(?:{_CONT_LINE})){{0,3}})(?=[ \t]*(?:\n|$|\.(?:\s|$)|[?!;]))",
              0.75, subtype="ADDRESS", group=1, validate=address_not_prose),
    RegexRule("address.lives_at", L,
              rf"(?i:\b(?:lives|living|resides|residing|located|live|moved|sent|send|mail|ship|"
              rf"deliver(?:ed)?|return|drops?\s+you\s+off)\s+(?:at|to)\s+)({_STREET}{_UNIT}*)",
              0.8, subtype="STREET", group=1),
    # "... Finland 38524" at the end of an address block.
    RegexRule("address.country_code", L,
              rf"(?m:(?<=[ \t])((?:{UP}{LETTER}+[ \t]+){{0,2}}{UP}{LETTER}{{2,}}"
              rf"(?:[ \t]+\({UP}{LETTER}+\))?"
              rf"[ \t]+\d{{4,5}})[ \t]*(?=$|[?,]))", 0.5, subtype="POSTAL_CODE", group=1,
              validate=country_code_not_charting),
    # A street without a house number where someone is, lives or crashed: "at the bank on
    # Centre Street", "LOST APT ON OLD MILL RD" (read through the cased view). Whole street words
    # only: "Dr" and "St" are titles as often.
    RegexRule("address.street_named", L,
              rf"(?i:\b(?:on|off|at|near|onto)[ \t]+(?:the[ \t]+)?)"
              rf"((?:{UP}{LETTER}+[ \t]+){{1,3}}{_NAMED_STREET})\b", 0.55, subtype="STREET",
              group=1, validate=street_not_charting),
    # Roads by number where something happened: "MVC ON ROUTE 128", "hit on rt 9", "off I-93".
    RegexRule("address.route", L,
              r"(?i:\b(?:on|off|along|near|at|from|via|onto)[ \t]+(?:the[ \t]+)?)"
              r"((?i:route|rte\.?|rt\.?|hwy\.?|highway|interstate|i-)[ \t]?\d{1,3}"
              r"[A-KM-Za-km-z]?)\b"  # "Route 1A", not the "L" of "RT 2L NC"
              r"(?![ \t]*(?i:l\b|lpm|liters?|%|mg|mcg|cm|fr\b|french|x\b|/))", 0.55,
              subtype="STREET", group=1),
    # "1127 Pelham Terrace, Dorrance MA 02190": the town and the state before a ZIP code.
    RegexRule("address.town_state", L,
              rf"(?<![\w\-])((?:{UP}[a-z]+[ \t]){{1,3}}(?:{_STATES}))"
              rf"(?=,?[ \t]+\d{{5}}(?:-\d{{4}})?\b)",
              0.6, subtype="CITY", group=1),
    RegexRule("address.unit", L,
              r"\b((?:Apt|Apartment|Suite|Ste|Unit)\.?\s*#?\s*\d{1,5}[A-Za-z]?)\b", 0.6,
              subtype="STREET", group=1),
)
