"""Wards and units named with a number ("back to Kessler 3", "pt on Baker 5 since 4/2", "UNIT:
PRUITT 7 MICU", "Ward 4B"): a name is an identifier of the hospital; a count, a dose or a room is
not ("Day 3", "on Levo 3", "Room 5")."""

from __future__ import annotations

from engine.core.labels import Label
from engine.detectors.regex.facilities import MOVE_TO_PLACE
from engine.detectors.regex.fragments import LETTER, UP
from engine.detectors.regex.rule import RegexRule

H = Label.HOSPITAL

# A unit named with a number ("Kessler 3", "Baker 5B"), not a dose, ratio or time after it.
_UNIT_NAME = rf"{UP}{LETTER}{{2,}}[ \t]+\d{{1,2}}[A-Za-z]?\b"
_NOT_DOSE = (r"(?![/\-:.]\d|[ \t]*(?i:mg|mcg|g\b|ml|units?|%|mmol|meq|tabs?|caps?|puffs?|l\b"
             r"|lpm|mic\b|k?cal\b|/|nc\b|np\b|nrb\b|hfnc\b|fm\b|o2\b|via\b|mask\b"
             r"|yrs?\b|years?|mos?\b|months?|wks?\b|weeks?|days?|hrs?\b|hours?|backup))")


def _named_unit(text: str) -> bool:
    """"Kessler 3", "Baker 5B": a name, not a room, bed or English word, with its number;
    nor shorthand or a drug with its dose ("back to Keppra 5", "back to ACEI 3")."""
    from engine.detectors.dictionary.context import is_english
    from engine.resolution.shorthand import is_shorthand
    from engine.resolution.terms import drug_words

    word = text.split()[0]
    return not is_english(word) and not is_shorthand(word) \
        and word.casefold() not in drug_words()


# Surnames that are also the nouns a number follows in notes ("Day 3", "Room 5", "Line 2",
# "Page 4"): a count, a stage, a bed or a room, never a ward's name. Directions stay names
# of units ("back to West 4").
_COUNTED = frozenset({
    "day", "night", "week", "month", "year", "hour", "level", "grade", "stage", "type",
    "class", "phase", "step", "room", "bed", "bay", "line", "page", "post", "part", "dose",
    "cycle", "round", "lead", "view", "score", "tier", "group", "number", "gravida", "para",
    "trial", "visit", "session", "floor", "unit", "ward", "pod", "suite", "wing", "tower",
    "station", "block", "section", "zone", "port", "box", "case", "chapter", "item", "note",
    "bag", "bottle", "can", "cup", "gate", "door", "table", "chair", "pump", "channel"})
# Where a patient is moved: "back to Baker 5", "transferred from Grant 3". Bare "to"/"at"
# ("increased to Level 3") say nothing about a place, so an English ward name needs these.
_WARD_MOVE = (r"(?i:\b(?:transfer(?:red)?\s+(?:to|from)|moved\s+(?:to|from)|admitted\s+to"
              r"|sent\s+to|back\s+(?:to|from|on)|returned?\s+(?:to|from)|d/c\s+to|discharged?\s+to"
              r"|came\s+from)[ \t]+(?:the[ \t]+)?)")
# A stay on a ward: "on Baker 5 since 4/2", "on Grant 3 overnight"; a drug or setting has a
# dose, not a stay, after it.
_STAY_AFTER = r"(?=[ \t]+(?i:since|until|till|overnight|x[ \t]?\d|for[ \t]+\d)\b)"


def _english_ward(text: str) -> bool:
    """"Baker 5", "Grant 3", "Bishop 6": a listed name that is also an English word, in title
    case, no counted noun ("Day 3", "Room 5") and no clinical word ("Levo 3", "Post 2")."""
    from engine.detectors.dictionary.names import all_name_lists
    from engine.resolution.shorthand import is_shorthand
    from engine.resolution.terms import drug_words

    word = text.split()[0]
    key = word.casefold()
    first, last = all_name_lists()
    return word.istitle() and (key in first or key in last) and key not in _COUNTED \
        and not is_shorthand(key) and key not in drug_words()


def _ward_name(text: str) -> bool:
    """"on Kessler 3", "Kessler 3 RN": without a movement word only a listed name in title
    case that is no English or clinical word, never a drug, vent mode or count ("on Levo 3",
    "on CPAP 10", "on POD 2", "on day 3")."""
    from engine.detectors.dictionary.names import all_name_lists
    from engine.resolution.shorthand import is_shorthand

    word = text.split()[0]
    key = word.casefold()
    first, last = all_name_lists()
    return word.istitle() and (key in first or key in last) and _named_unit(text) \
        and not is_shorthand(key)


def _unit_aside(text: str) -> bool:
    """"(Bayard 2)" after "vent unit": a name in title case, no common, clinical or drug word
    ("(Levo 3)", "(Day 2)")."""
    from engine.detectors.dictionary.stopwords import common_words
    from engine.resolution.shorthand import is_shorthand
    from engine.resolution.terms import drug_words

    word = text.split()[0]
    key = word.casefold()
    return word.istitle() and key not in common_words() and key not in _COUNTED \
        and not is_shorthand(key) and key not in drug_words()


WARD_RULES: tuple[RegexRule, ...] = (
    # "back to Kessler 3", "transferred to St. Agnes"
    RegexRule("facility.named_unit", H, rf"{MOVE_TO_PLACE}({_UNIT_NAME}){_NOT_DOSE}", 0.6, group=1,
              validate=_named_unit),
    # "pt on Kessler 3 since 4/2", "Kessler 3 RN aware"
    RegexRule("facility.ward_on", H, rf"(?i:\bon[ \t]+)({_UNIT_NAME}){_NOT_DOSE}", 0.55,
              group=1, validate=_ward_name),
    RegexRule("facility.ward_staff", H,
              rf"(?<![\w.])({_UNIT_NAME})(?=[ \t]+(?:RN|rn|charge|nurse|staff|team)\b)", 0.55,
              group=1, validate=_ward_name),
    RegexRule("facility.ward_staff_word", H,
              rf"(?<![\w.])({_UNIT_NAME})(?=[ \t]+(?:RN|rn|charge|nurse|staff)\b)", 0.55,
              group=1, validate=_english_ward),
    # A unit's name in parentheses after what it is: "beds in vent unit (Bayard 2)", "cath lab
    # (Ostrander 2)".
    RegexRule("facility.ward_aside", H,
              rf"(?i:\b(?:unit|floor|lab|ward|icu|service|rehab|stepdown|step-down)[ \t]+)"
              rf"\(({_UNIT_NAME})\)", 0.55, group=1, validate=_unit_aside),
    # A header's unit field: "UNIT: PRUITT 7 MICU", "Ward: Bayard 2".
    RegexRule("facility.unit_field", H,
              rf"(?i:\b(?:unit|ward|loc|location)[ \t]*:[ \t]*)({_UNIT_NAME}){_NOT_DOSE}", 0.55,
              group=1, validate=_unit_aside),
    # Wards named by an English word: only where a patient moves to or stays on them.
    RegexRule("facility.ward_word_moved", H, rf"{_WARD_MOVE}({_UNIT_NAME}){_NOT_DOSE}", 0.55,
              group=1, validate=_english_ward),
    RegexRule("facility.ward_word_on", H,
              rf"(?i:\bon[ \t]+)({_UNIT_NAME}){_NOT_DOSE}{_STAY_AFTER}", 0.5, group=1,
              validate=_english_ward),
    RegexRule("facility.ward", H, r"(?i:\b(ward[ \t]+(?:\d{1,2}[A-Za-z]?|[A-Z]\d?)))(?![\w/])",
              0.6, group=1),  # not "on postnatal ward w/ partner"
)
