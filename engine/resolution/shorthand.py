"""Clinical shorthand, the word after ``pt`` and section words: what is never a name or place.

Telegraphic notes put shorthand where prose puts names: "pt cont on levo", "aline d/c'd",
"HO aware", "to OSH", "PS 10/5". Three rules hold for every detector's name, place and
facility candidates (resolution/guards.py calls them):

- after ``pt`` / ``Pt`` / ``PT`` a word is a name only with real name evidence: a listed name
  that is not an English, clinical or shorthand word; a capitalised non-word in mixed-case
  text; a following name; a title or credential;
- a single-token candidate that is clinical shorthand (resources/dictionaries/
  clinical_shorthand.txt, built from real abbreviation inventories) is no name, place or
  facility unless a strong name context says so ("Dr. Foley");
- section and document words ("Nursing Progress Note", "Medical History", "General
  Practitioner", "Department" alone) and clinics named by their service ("Pain Clinic",
  "Pulmonary Medicine Clinic") are never PHI.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.core.domain import Source, Span
from engine.core.labels import Label
from engine.detectors.dictionary.context import (
    HYPHEN_PREFIXES,
    KAREN_TITLES,
    RELATIONS,
    WORD_PREFIXES,
    clinical_words,
    has_strong_name_context,
    is_english,
    said_to_be_called,
)
from engine.detectors.dictionary.lists import sections
from engine.detectors.regex.fragments import CHILD_AGE_UNIT, SUBJECT_VERBS, YEARS_OLD
from engine.paths import resource
from engine.resolution.edges import line_around
from engine.resolution.unknown_words import unknown_name_word, verb_form

SHORTHAND_FILE = ("dictionaries", "clinical_shorthand.txt")
_PT_BEFORE = re.compile(r"(?i:(?<![\w.])pt\.?[ \t]+$)")
_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")
_ID_AFTER = re.compile(r"(?i:^[ \t]*(?:,[ \t]*)?(?:mrn|dob|d\.o\.b|\(|#|\d+[ \t]*(?:yo|y/o|years?)"
                       r"|age\b|aged\b))")
_NAME_AFTER = re.compile(r"^[ \t]+([A-Z][a-z]+(?:-[A-Z][a-z]+)?)\b")
# Headings, document kinds and roles: the words of a form, not of a person or a place.
SECTION_PHRASES = (
    "nursing progress note", "progress note", "progress notes", "nursing note",
    "discharge summary", "consult note", "operative note", "medical history",
    "past medical history", "past surgical history", "family history", "social history",
    "history of present illness", "review of systems", "physical exam", "physical examination",
    "general practitioner", "family physician", "family doctor", "primary care physician",
    "attending physician", "referring physician", "house officer", "department", "dept",
    "emergency department", "medical ward", "ward", "unit", "floor", "assessment", "plan",
    "impression", "chief complaint", "allergies", "medications", "progress", "nursing",
    "outside hospital", "hospital", "clinic", "medical records", "health records",
)
_SECTION = re.compile(
    r"(?i:(?<![\w])(?:" + "|".join(sorted((re.escape(p).replace(r"\ ", r"[ \t]+")
                                          for p in SECTION_PHRASES), key=len, reverse=True))
    + r")(?![\w]))")


@lru_cache(maxsize=1)
def _vocabulary() -> dict[str, frozenset[str]]:
    from engine.core.errors import ConfigError

    try:
        raw = resource(*SHORTHAND_FILE).read_text(encoding="utf-8")
    except OSError as exc:  # a packaging error: fail closed
        raise ConfigError("the clinical shorthand list is missing") from exc
    return {name: frozenset(map(str.casefold, body))
            for name, body in sections(raw, "clinical shorthand list")}


def shorthand_words() -> frozenset[str]:
    """The shipped shorthand vocabulary (inventories and ICU words), casefolded."""
    vocabulary = _vocabulary()
    return vocabulary.get("INVENTORY", frozenset()) | vocabulary.get("ICU", frozenset())


def icu_words() -> frozenset[str]:
    """Lines, devices, vent modes and generic places: never an institution, even after
    a movement word ("to OSH", "weaned to PSV")."""
    return _vocabulary().get("ICU", frozenset())


def icu_word_no_name(word: str) -> bool:
    """An ICU word no name list holds and no institution's name ends with ("stepdown",
    "noc"; not "foley", nor the "VNA" of "Hollin County VNA")."""
    from engine.detectors.dictionary.names import is_listed_name

    key = word.strip().casefold()
    return key in icu_words() and key not in _KINDS_OF_INSTITUTION and not is_listed_name(key)


_KINDS_OF_INSTITUTION = frozenset({"vna", "ltac", "ltach", "snf", "rehab", "nh"})


def is_shorthand(word: str) -> bool:
    key = word.strip().strip(".,:;").casefold().replace("’", "'")
    return key in shorthand_words() or key in clinical_words()


def is_prefixed_word(word: str) -> bool:
    """A prefix and a word or abbreviation, as charted run together ("REDOSE", "PREOP",
    "reeval", "posttx"): no acronym or name, although no dictionary holds it."""
    key = word.casefold()
    head, hyphen, rest = key.partition("-")
    if hyphen and head in HYPHEN_PREFIXES and len(rest) >= 2:
        return clinical_or_english(rest)  # "PT re-eval requested", "ot/pt co-treat"
    return any(key.startswith(prefix) and len(key) - len(prefix) >= 2
               and clinical_or_english(key[len(prefix):]) for prefix in WORD_PREFIXES)


def clinical_or_english(word: str) -> bool:
    return is_english(word) or is_shorthand(word)  # is_shorthand covers the clinical words


def listed_name(word: str) -> bool:
    """A listed first name or surname that is no English word and no shorthand ("Dimauro",
    not "fem" or "Will")."""
    from engine.detectors.dictionary.names import all_name_lists

    first, last = all_name_lists()
    key = word.casefold()
    return (key in first or key in last) and not is_english(key) and not is_shorthand(key)


def named_word(word: str) -> bool:
    """A listed name ("Baker", "Delphine") or a word no list knows ("Mcnaught"); not an
    English or shorthand word that no name list holds ("intubated")."""
    from engine.detectors.dictionary.names import is_listed_name

    key = word.casefold()
    if is_listed_name(key):
        return not is_shorthand(key)
    return not is_english(key) and not is_shorthand(key)


# The patient's age or a relative clause right after a name: "PT MCNAUGHT, 74F", "Pt
# Ostergaard is 46 yo", "re: pt benny holcomb who came in fri", "pt le van sang (83)", "PT YENG
# HER, 6 DAY OLD M".
_AGE_AFTER = re.compile(r"(?i:,?[ \t]+(?:(?:is|was)[ \t]+)?(?:an?[ \t]+)?\d{1,3}[ \t]*"
                        rf"(?:-?[ \t]*(?:{YEARS_OLD}|years?|yrs?)\b|s?[ \t]*[mf]\b"
                        rf"|-?[ \t]*{CHILD_AGE_UNIT}[ \t\-]+old\b)"
                        r"|[ \t]+\(\d{1,3}(?:[ \t]*(?:yo|y/o|[mf])\b\)?|\))|,?[ \t]+who\b"
                        r"|,[ \t]+\d{1,2},)")  # "pt tou vang, 52, injured in kitchen fire"


def _mixed_case_line(text: str, pos: int) -> bool:
    letters = [c for c in line_around(text, pos, pos) if c.isalpha()]
    return any(c.islower() for c in letters) and any(c.isupper() for c in letters)


# Given names, an initial, then the age after a surname: "PT ALLRED, NEPHI J  67 M".
_GIVEN_THEN_AGE = re.compile(r",[ \t]*(?:[^\W\d_][\w'’\-]*\.?[ \t]+){0,2}[^\W\d_][\w'’\-]*\.?"
                             + _AGE_AFTER.pattern)
# A surname with an Irish or Italian particle: "D'AMBROSIO", "o'halloran" (not "d'c").
_PARTICLE_SURNAME = re.compile(r"(?i:[do]['’][^\W\d_]{4,})")
_INITIAL_THEN_WORD = re.compile(r"[^\W\d_]\.[ \t]?([^\W\d_][\w'’\-]{2,})")


# The day of a stay after the name: "pt taufa pod 1 cabg", "PT MOISE, HD 3".
_STAY_DAY_AFTER = re.compile(r"(?i:,?[ \t]+(?:pod|hd|pid)[ \t]*#?[ \t]*\d{1,2}\b)")


def age_after(text: str, pos: int) -> bool:
    """The patient's age right after ``pos``: "PT MCNAUGHT, 74F", "pt le van sang (83)", "30S M",
    "vega, teodoro (74 yo, hd 9"."""
    return bool(_AGE_AFTER.match(text, pos) or _GIVEN_THEN_AGE.match(text, pos))


def has_name_evidence(text: str, start: int, end: int) -> bool:
    """Real evidence that ``text[start:end]`` is a name, beyond sitting in name position."""
    from engine.detectors.dictionary.names import is_listed_name

    if has_strong_name_context(text, start, end):
        return True
    words = _WORD.findall(text[start:end])
    if not words:
        return False
    if any(listed_name(w) for w in words):
        return True
    mixed = _mixed_case_line(text, start)
    if mixed and any(w[0].isupper() and not w.isupper() and (
            not is_english(w) and not is_shorthand(w) or listed_uncommon_name(w))
            for w in words):
        return True  # "Pt Ruth awake": a capital where charting writes none, on a name
    if len(words) == 1 and words[0].casefold() in KAREN_TITLES:
        rest = _TWO_WORDS_AFTER.match(text, end)  # a model's "saw" apart from "ler wah 58 m"
        if rest and age_after(text, rest.end()):
            return True
    karen = len(words) > 1 and words[0].casefold() in KAREN_TITLES
    if age_after(text, end) and all(
            is_listed_name(w) or named_word(w) or not is_shorthand(w) and not verb_form(w)
            for w in (words[1:] if karen else words)):
        return True  # "PT RUTHERFORD, DELPHINE, 63 YO F", "pt le van sang (83)"
    if karen and words[0].casefold() != "saw" \
            and not any(is_shorthand(w) or verb_form(w) for w in words[1:]):
        return True  # "pt naw hser moo s/p trach"; "pt saw neuro" only with an age after
    if len(words) == 1 and _PARTICLE_SURNAME.fullmatch(words[0]) \
            and not is_english(words[0][2:]):
        return True  # "PT D'AMBROSIO, ALS W/ CHRONIC VENT"
    initial = _INITIAL_THEN_WORD.fullmatch(text, start, end)
    if initial and (listed_name(initial.group(1))
                    or unknown_name_word(initial.group(1), is_shorthand)):
        return True  # "pt h. fujimoto on floor": an initial and a surname, not "pt c. diff"
    if _STAY_DAY_AFTER.match(text, end) and all(
            named_word(w) or not is_english(w) and not is_shorthand(w) and not verb_form(w)
            for w in words):
        return True  # "pt taufa pod 1": not "pt extubated pod 1", "pt stable hd 3"
    if len(words) == 1 and not mixed and unknown_name_word(words[0], is_shorthand):
        return True  # "pt kowalski pod 2", "PT OSTERGAARD IS 46": no word, no misspelt one
    unknown = [w for w in words if len(w) > 2 and not is_english(w) and not is_shorthand(w)
               and not verb_form(w)]  # not "pt re-evaluated"
    if len(unknown) >= 2 or any("-" in w for w in unknown) or unknown and _ID_AFTER.match(
            text[end:end + 12]):
        return True  # "xanthippe okonkwo", "okonkwo-breckenridge", "zebulon, 72 yo"
    if len(words) == 2 and not mixed and all(_plain_noun(w) for w in words) \
            and not all(is_english(w) for w in words):
        return True  # "pt hollis creel slept", "pt opal grimsby a&ox1-2": given + family
    if _surname_comma_given(text[start:end]):
        return True  # "pt machar, james (goes by jok)": not "pt sedated, rose"
    following = _NAME_AFTER.match(text[end:end + 30])
    return bool(following and mixed and listed_name(following.group(1)))


_SURNAME_COMMA_GIVEN = re.compile(r"([^\W\d_]{3,}),[ \t]*([^\W\d_]{2,})")


def _surname_comma_given(covered: str) -> bool:
    """"machar, james": a word no common, clinical or shorthand list holds, a comma and a
    listed given name, the order a chart writes a name in."""
    from engine.detectors.dictionary.names import all_name_lists

    pair = _SURNAME_COMMA_GIVEN.fullmatch(covered)
    return pair is not None and _plain_noun(pair.group(1)) \
        and pair.group(2).casefold() in all_name_lists()[0]


_TWO_WORDS_AFTER = re.compile(r"[ \t]+[^\W\d_]{2,}(?:[ \t]+[^\W\d_]{2,})?")


def _plain_noun(word: str) -> bool:
    """A word of three letters or more that no shorthand, verb form or common word is."""
    from engine.detectors.dictionary.stopwords import common_words

    key = word.casefold()
    return len(key) >= 3 and key.isalpha() and not is_shorthand(key) and not verb_form(key) \
        and key not in common_words() and key not in clinical_words()


# The verb of a patient named after "pt" ("PT NOEL REMAINS INTUBATED"); the rule
# regex.name's name.pt_subject proposes the same.
_VERB_AFTER = re.compile(rf"[ \t]+(?i:{SUBJECT_VERBS})\b")


def listed_uncommon_name(text: str) -> bool:
    """A listed first name or surname that is no common, clinical or shorthand word: "Noel",
    not "Still", "Intubated", "Foley"."""
    from engine.detectors.dictionary.names import all_name_lists
    from engine.detectors.dictionary.stopwords import common_words

    key = text.casefold()
    first, last = all_name_lists()
    return (key in first or key in last) and key not in common_words() \
        and key not in clinical_words() and not is_shorthand(key)


# Adverbs the surname lists hold ("More", "Still"): "pt more awake", "PT STILL HAS".
_ADVERBS = frozenset({"more", "less", "still", "now", "also", "then", "just", "again", "much",
                      "even", "only", "yet", "already"})


def _listed_subject(covered: str) -> bool:
    """A listed name, common word or not ("Noel", "Baker"), or a word no list knows ("PT
    WHITEFOOT SLEPT"), that is no clinical or shorthand word, no verb's form, no modal ("PT
    MAY CONT TO NEED") and no adverb ("pt more awake")."""
    from engine.detectors.dictionary.names import MODALS, compound_surnames, is_listed_name

    key = covered.strip().casefold()
    if tuple(key.split()) in compound_surnames():
        return True  # "PT BEAR ROBE IS A/OX1-2"
    return key not in MODALS and key not in _ADVERBS \
        and (is_listed_name(key) or named_word(key) and not verb_form(key)) \
        and key not in clinical_words() and not is_shorthand(key)


# Whose relative called: "pt wollman's daughter-in-law rebecca" (the possessive in the span or
# after it).
_KIN_AFTER = re.compile(rf"(?:['’]s)?[ \t]+(?i:{RELATIONS})\b")


def after_pt_without_name(text: str, span: Span) -> bool:
    """A candidate right after ``pt`` that has no name evidence ("pt cont", "pt trached")."""
    if not _PT_BEFORE.search(text[max(0, span.start - 6):span.start]):
        return False
    if _VERB_AFTER.match(text, span.end) and _listed_subject(text[span.start:span.end]):
        return False  # "PT NOEL REMAINS INTUBATED", "PT BAKER HAD A FAIR NIGHT": the subject
    covered = text[span.start:span.end]
    if (covered.endswith(("'s", "’s")) or text.startswith(("'s", "’s"), span.end)) \
            and _KIN_AFTER.match(text, span.end):
        return False  # "pt wollman's daughter-in-law": a family's name
    return not has_name_evidence(text, span.start, span.end)


def shorthand_alone(text: str, span: Span) -> bool:
    """A single-token candidate that is clinical shorthand, without a strong name context."""
    covered = text[span.start:span.end].strip()
    if not covered or any(c.isspace() for c in covered) or not is_shorthand(covered):
        return False
    if span.source is Source.RULE and span.label is Label.HOSPITAL:
        # A rule proposed it after "to"/"from": the movement is context for an acronym the
        # inventories know in another sense ("transfer to CMC"), not for an ICU word or a
        # unit, scan or study a patient is sent to ("sent to hida", "to pacu", "to CT").
        key = covered.strip(".").casefold()
        if key in icu_words() or key in clinical_words():
            return True
        # Shorthand in lower case has no capitals to say it is a name, and shorthand with a
        # number after it is a dose or a score ("back to ASA 81", "sent to abx"): only a
        # transfer makes either a place ("transfer to cmc", "transferred to CMC 4/2").
        before = text[max(0, span.start - 32):span.start]
        if key in shorthand_words() and _CAUSE_BEFORE.search(before):
            return True  # "failure from AECOPD", "Injuries (from MVC": a cause, no place
        return key in shorthand_words() and (covered.islower() or bool(
            _NUMBER_AFTER.match(text, span.end))) and not _TRANSFER_BEFORE.search(before)
    if said_to_be_called(text, span.start):
        return False  # 'PREFERS TO BE CALLED "PEG"', "Pt, who goes by Peg"
    if icu_word_no_name(covered):
        return True  # "PER NOC RN": a credential after makes no name of the night shift
    line_start = text.rfind("\n", 0, span.start) + 1
    if _FAMILY_HISTORY.match(text, line_start):
        return True  # "FHx: father MI in his 60s": what the relative had, not who
    return not has_strong_name_context(text, span.start, span.end)


_FAMILY_HISTORY = re.compile(r"[ \t]*(?i:fhx|fh|family[ \t]+(?:hx|history))\b")


# A clinic named by its service ("the Pulmonary Medicine Clinic", "sent for Pain Clinic
# referral", "seen in Orthopedic Clinic"): what the clinic does, not which one it is. A name
# before the service ("Lakeside Pain Clinic") leaves the span outside these words.
_SERVICES = (r"hf|chf|ep|copd|ckd|esrd|ibd|hiv|id|tb|cf|ms|als|pd|dm|htn|ob|gyn|ent"
             r"|pain|pulmonary|pulmonology|respiratory|chest|medicine|medical|orthop(?:a)?edics?"
             r"|cardiology|cardiac|heart|failure|oncology|cancer|hematology|dialysis|renal"
             r"|kidney|wound|diabetes|diabetic|endocrine|endocrinology|sleep|allergy|asthma"
             r"|maintenance|methadone|addiction|outpatient|family|internal|general|surgical"
             r"|surgery|urology|neurology|psychiatry|psychiatric|mental|behavioral|health"
             r"|dermatology|rheumatology|gastroenterology|gi|liver|hepatology|transplant"
             r"|fracture|spine|headache|memory|fertility|anticoagulation|anticoag|coumadin|lipid"
             r"|vascular|breast|prenatal|antenatal|pediatric|paediatric|geriatric|sports"
             r"|eye|ent|travel|infectious|disease|diseases|urgent|care|walk-in|primary"
             r"|physical|therapy|rehabilitation|occupational|speech|hearing|foot|podiatry"
             r"|endo|vasc|cards|pulm|onc|neuro|nephro|nephrology|ortho|psych|derm|rheum|uro"
             r"|heme|burn|trauma|stroke|epilepsy|nutrition|support|device|pacemaker|dental"
             r"|neurodevelopmental|developmental|birth|birthing"
             r"|dentistry|joint|multidisciplinary|head|neck|radiation|thyroid|bariatric|ostomy"
             r"|colorectal|hemophilia|sickle[ \t]+cell"
             r"|village|tribal|rural|satellite|mobile|outreach|troop"  # where a generic one stands
             r"|occ|splint")  # "referred to Occ Health", "ot splint clinic"
# "Head and Neck Surgery Clinic", "Radiation Oncology / Dental Oncology Joint Clinic"
_SERVICE_WORD = re.compile(rf"(?i:{_SERVICES})")


def service_word(word: str) -> bool:
    """A word that names what a clinic or team does ("Bariatric", "travel", "ENT")."""
    return bool(_SERVICE_WORD.fullmatch(word))


_SERVICE_CLINIC = re.compile(
    rf"(?i:(?<![\w\-])(?:(?:{_SERVICES})(?:[ \t]+(?:and|&)[ \t]+|[ \t]*/[ \t]*|[ \t]+)){{1,5}}"
    r"(?:clinic|service|team|floor|step-?down|ward|health)(?![\w\-]))")  # "TO ENT STEP-DOWN"
# A dose, score or range ("to SBP 180-200"), not a date (4/2).
_NUMBER_AFTER = re.compile(r"[ \t]*\d+(?:[ \t]*-[ \t]*\d+)?(?![\d/\-.])")
_CAUSE_BEFORE = re.compile(r"(?i:\b(?:failure|injur(?:y|ies)|shock|arrest|bleed(?:ing)?|sepsis"
                           r"|trauma|fx|fractures?|distress|exacerbation|pain|s/p|2/2|d/t"
                           r"|due[ \t]+to|secondary[ \t]+to)[ \t(:,]*(?:from[ \t(]*)?$)")
_TRANSFER_BEFORE = re.compile(r"(?i:\btransfer(?:red)?[ \t]+(?:to|from)[ \t]+(?:the[ \t]+)?)$")
_HEAD_WORDS = frozenset({"hospital", "clinic", "department", "dept", "ward", "unit"})
# "Hospital de Manises", "Hospital 12 de Octubre", "Clinic of Ames": a head word with a name.
_NAMED_AFTER = re.compile(r"[ \t]+(?:(?:de|del|of|la|las|los|le|du|di|the)[ \t]+){0,2}[A-Z0-9]")


def section_ranges(text: str) -> list[tuple[int, int]]:
    """Where section, document and role words stand in ``text`` (not a head word that
    begins a facility's name)."""
    return [m.span() for m in _SECTION.finditer(text)
            if not (m.group().casefold() in _HEAD_WORDS and _NAMED_AFTER.match(text, m.end()))
            ] + [m.span() for m in _SERVICE_CLINIC.finditer(text)]


def within_section_words(span: Span, ranges: list[tuple[int, int]]) -> bool:
    """Every letter of the span lies in section words ("Progress" of "Nursing Progress Note",
    "Department" alone)."""
    return any(a <= span.start and span.end <= b for a, b in ranges)


# Orders to reach a clinician ("Page MD prn", "Notify HO if SBP < 90"): the capitalised verb
# in name position is no name, though "Page" and "Call" are listed surnames.
_CONTACT_VERBS = frozenset({"page", "call", "notify", "inform", "contact", "consult", "update",
                            "alert", "tell", "ask", "text", "phone", "email", "message"})
_CLAUSE_START = re.compile(r"(?:(?:^|[\n.;:!?]|[\n(][ \t]*[-*•\d.)]+)[ \t]*"
                           r"|(?i:\b(?:will|to|pls|please|may|then))[ \t]+)\Z")  # "WILL PAGE MD"
_CLINICIAN_AFTER = re.compile(r"(?i:[ \t]+(?:md|do|ho|rn|np|pa|dr|team|resident|provider"
                              r"|physician|doctor|on[ \t]+call)\b)")


def contact_order(text: str, span: Span) -> bool:
    """A contact verb that opens a clause, before a clinician word: an order, not a name."""
    return text[span.start:span.end].casefold() in _CONTACT_VERBS \
        and bool(_CLINICIAN_AFTER.match(text, span.end)) \
        and bool(_CLAUSE_START.search(text[max(0, span.start - 12):span.start]))
