"""Words that are no name by what stands beside them: a word before a clinician's role or
credential ("Covering MD", "Chest PT", "report given to floor RN", "PER RN"), a word after a
possessive ("pending review by their don")."""

from __future__ import annotations

import re

from engine.core.domain import Span
from engine.detectors.dictionary.context import is_english
from engine.detectors.dictionary.names import all_name_lists, is_listed_name
from engine.detectors.regex.fragments import ICU_UNIT, POST_WORDS
from engine.resolution.edges import in_caseless_line
from engine.resolution.shorthand import clinical_or_english, is_shorthand, service_word

ROLE_AFTER = re.compile(r"[ \t]+(?:MD|PT|OT|RN|NP|PA|RT|SLP|md|pt|rn|np"
                        r"|(?i:fellow|attending|resident|intern))\b")  # "d/w burn fellow"
_FIELD_COLON = re.compile(r"[ \t]*:")
TITLE_BEFORE = re.compile(r"(?i:\b(?:dr|drs|doctor|prof|mr|mrs|ms|miss|dra)\.?[ \t]*)\Z")
# Units whose nurse or resident is meant ("UPDATED BY NICU RN", "picu fellow"): "Nicu" is also
# a first name, so the lists do not decide.
_UNITS = frozenset("ed er l&d ob".split())  # and the ICUs
_ICU = re.compile(ICU_UNIT)
_PER_END = re.compile(r"(?i:(?<![^ \t/])(?:per|via)\Z)")
_NEXT_WORD = re.compile(r"[ \t]+([A-Za-z']+)")
# Names take no possessive or article: "their don" (director of nursing), "her witness"; not
# "a", which is also Spanish "to" ("a Juan").
DETERMINERS = "an|his|her|their|my|your|our|its"
# "the" too for a name: in 3,010 hand-written dev notes no name came right after "the" ("THE
# GRANTHI AT THEIR GURDWARA"), while a place takes it ("resides at the pines").
_DETERMINER_BEFORE = re.compile(rf"(?i:(?<![\w'’])(?:{DETERMINERS}|the)[ \t]+\Z)")


def english_word_before_a_role(text: str, span: Span) -> bool:
    """"Covering MD Dr. Wexler", "Chest PT q4h": an English word that no list names, before a
    credential or a role, describes the clinician or the therapy. Written in lower case in a
    line that has case it does so even when a list names it ("given to floor RN")."""
    covered = text[span.start:span.end].strip()
    role = ROLE_AFTER.match(text, span.end)
    if " " in covered or not role or _FIELD_COLON.match(text, role.end()) \
            or TITLE_BEFORE.search(text[max(0, span.start - 8):span.start]):
        return False  # "ATTENDING: FEIST   RESIDENT: OYELARAN": the next field's label
    key = covered.casefold()
    if key in POST_WORDS or key in _UNITS or _ICU.fullmatch(key) or service_word(key):
        return True  # "report given to day rn", "Day RN and charge RN aware", "NICU RN",
        # "d/w burn fellow"
    if not is_english(covered):
        return False
    from engine.detectors.regex.staff import signs_the_note

    if signs_the_note(text, span.start, span.end):
        return False  # "FEIST ATTENDING" closing the note: who signed it
    first, last = all_name_lists()
    if covered.islower():  # a listed one only when it is charting too ("floor", not "shah")
        return not in_caseless_line(text, span.start) \
            and (key not in first and key not in last or is_shorthand(key))
    return covered[:1].isupper() and key not in first and key not in last


def per_before_a_role(text: str, span: Span) -> bool:
    """"PER RN", "Q4 PER RT", "1MG/MIN PER NP DUBOIS": a name ending in "per" before a role or
    an ordinary word is the preposition (in ALL CAPS "Per" is also a first name); before a
    name ("per Olsen") the name is the one it names."""
    if not _PER_END.search(text[span.start:span.end]):
        return False
    after = _NEXT_WORD.match(text, span.end)
    return bool(ROLE_AFTER.match(text, span.end)) \
        or bool(after and clinical_or_english(after.group(1)))


def determiner_before_a_name(text: str, span: Span) -> bool:
    """A model's one-word name right after a possessive, "an" or "the" ("by their don")."""
    covered = text[span.start:span.end]
    return covered.isalpha() and bool(_DETERMINER_BEFORE.search(text[max(0, span.start - 8):
                                                                   span.start]))


# A street's "Dr." (Drive) before the next sentence: "9640 W Sage Canyon Dr. Report to ...".
_STREET_DRIVE_BEFORE = re.compile(r"\b\d{1,6}[ \t]+(?:[NSEW]\.?[ \t]+)?(?:[A-Z][a-z]+[ \t]+){1,3}"
                                  r"Dr\.[ \t]+\Z")


def street_before_title(text: str, span: Span) -> bool:
    """A word no name list holds after a street address's "Dr.", which is no doctor's title
    there ("44 Elm Dr. Smith" may still be Dr. Smith)."""
    return bool(_STREET_DRIVE_BEFORE.search(text, max(0, span.start - 60), span.start)) \
        and not any(is_listed_name(w) for w in text[span.start:span.end].split())
