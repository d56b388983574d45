"""Telegraphic forms a model takes for identifiers, judged for model spans only.

- A side and a device or a body part is no name: "R fem sheath", "R RADIAL ALINE", "Bilat LE".
  The words after the side are shorthand or English words, none a listed name that is neither
  ("R. Dimauro" keeps its surname; "R fem" has none).
- In an ALL CAPS line an English word is no name by its capital, after an initial too ("L.
  TRACHEA MIDLINE"), nor a species after its genus's initial ("C. GLABRATA").
- A capitalised English word that starts a sentence is no name or place by its capital alone:
  "Dialyzes at DaVita", "Community rehab visit", "Made DNR". It stays with a listed name or
  place, name context, a subject's verb after it ("Bra reports swelling"), or a candidate
  beside it ("Hospital San Rafael").
- Sizes, post-operative days, list numbers and shift hours are no IDs or places: "POD #2",
  "Trach #8 portex", "#28 fr ct", "#7 Social:", "npn 19-07".
- A span that cuts a shorthand word is no name or place: "PaO" of "PaO2", "JP" of "JP1".
- A mood after a relation is no name ("DAUGHTER CALM", "son tearful"); "may" before what one
  may do is no month ("Son may call"); a lone letter that is no initial is no name ("min A
  for supine"; "j. fenn", "w trioss" keep theirs).

Species, eponyms, named devices, drugs by their stems and graft notation: clinical_things.py.
"""

from __future__ import annotations

import re

from engine.core.domain import Source, Span
from engine.core.labels import NAME_LABELS, Label
from engine.detectors.dictionary.context import (
    english_words,
    has_name_context,
    has_strong_name_context,
    is_english,
)
from engine.detectors.dictionary.locations import one_word_places
from engine.detectors.dictionary.names import all_name_lists, is_listed_name
from engine.detectors.regex.fragments import (
    BED_BEFORE,
    CREDENTIAL_WORDS,
    HHMM,
    KIN_TITLES,
    PAGER_WORDS,
    YEARS_OLD,
)
from engine.detectors.regex.staff import MICROBES
from engine.detectors.regex.towns import HOME_BEFORE
from engine.resolution.edges import line_around
from engine.resolution.model_numbers import THE_BEFORE
from engine.resolution.places import FACILITY_HEADS
from engine.resolution.roles import TITLE_BEFORE
from engine.resolution.shorthand import age_after, icu_words, is_shorthand, listed_name

_ROLES = frozenset({"ho", "md", "rn", "np", "pa", "sw", "rt", "dr", "pt", "ot", "cm"})
_SIDES = frozenset({"r", "l", "rt", "lt", "bilat", "b/l", "bil", "left", "right"})
_SENTENCE_START = re.compile(r"(?:\A|[.!?;:][ \t]+|\n[ \t]*|[-–][ \t]+)\Z")
_SUBJECT_VERB_AFTER = re.compile(
    r"(?i:^[ \t]+(?:reports?|states?|denies|says|said|is|was|has|had|feels|complains|c/o|notes"
    r"|agrees|wants|asks|called|visited|aware)\b)")
_SIZE_BEFORE = re.compile(r"(?i:(?:\b(?:pod|hd|icu\s*day|trach|ett|ngt|ogt|size|fr|french"
                          r"|jp|ct)[ \t]*#?|^[ \t]*#|\n[ \t]*#)[ \t]*\Z)")
_SIZE_AFTER = re.compile(r"(?i:^[ \t]*(?:fr\b|french|portex|shiley|bivona|cuffed|uncuffed|ett\b"
                         r"|tissue|valve|mosaic|pericardial|mechanical"
                         r"|mm\b|cm\b|@[ \t]*(?:the[ \t]+)?(?:lip|teeth|gum|nare)))")
# A number, a size with its unit, "1 s" of "POD#1 s/p": what a day or a size leaves.
_SMALL_NUMBER = re.compile(r"(?i:#?\d{1,2}(?:\.\d)?(?:-\d{1,2})?"
                           r"(?:[ \t]*(?:fr|s)\b(?:[ \t]+\w{1,3})?)?)")
# "2217 Code team arrived": a clock time that opens an entry, no identifier.
_CLOCK_ENTRY = re.compile(HHMM)
_ENTRY_BEFORE = re.compile(r"(?:\A|[.;:!?\n][ \t]*|[ \t]{2,})\Z")
# "npn 19-07", "NSG NOTE 1900-0700": the hours of a shift.
_SHIFT = re.compile(r"(?i:(?:[01]?\d|2[0-3])(?:[0-5]\d)?(?:[ap]m?)?[ \t]?-[ \t]?"
                    r"(?:[01]?\d|2[0-3])(?:[0-5]\d)?(?:[ap]m?)?)")
_SHIFT_BEFORE = re.compile(r"(?i:\b(?:npn|nsg|nursing|note|shift|progress|rn|rt|events|icu|micu"
                           r"|sicu|ccu|csru|cvicu|tsicu|nicu|picu|ccu)\b[^\n]{0,12}\Z)")
# A title, a credential or a role alone is nobody's name: "Fr.", "LICSW", "Chaplain".
_TITLES = CREDENTIAL_WORDS | frozenset({
    "fr", "father", "rev", "reverend", "sister", "chaplain", "trooper", "officer",
    "atty", "attorney", "pca", "dean", "resident", "intern", "fellow",
    "attending", "liaison", "pastor", "chaplaincy", "perfusionist", "pharmacist",
    "dietitian", "dietician", "det", "detective", "sgt", "lt", "cpl",
    # clergy of a mosque: "IMAM HAS BEEN VISITING DAILY", "family's imam, Sheikh"
    "imam", "sheikh", "shaykh",
    # a courtesy title before the name ("likes to be called Miss Dot")
    "mr", "mrs", "ms", "miss", "mx"})
# Elders and pastors of the family's language beside its kin words ("pt's older sister
# (kupuna)", "Kahu"); not those that are given names too (Lola, Tutu).
_ELDERS = frozenset({"kupuna", "kahu"})
_WEEKDAY_WORD = re.compile(r"(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tues?|weds?|thurs?"
                           r"|fri|sat|sun)")
_WEEKDAY_BEFORE = re.compile(r"(?i:\b(?:on|come|coming|until|till|by|since|next|last|this|before"
                             r"|after|from|thru|through)[ \t]+\Z)")
_WEEKDAY_AFTER = re.compile(r"(?i:^[ \t]+(?:am|pm|a\.m\.|p\.m\.|morning|afternoon|evening|night"
                            r"|noc)\b)")
_COUNTER_AFTER = re.compile(r"#\d")
_NAME_GOES_ON = re.compile(r"^[ \t]+([A-Z][^\W\d_]+)")  # "Armada Navalón"


def side_and_device(text: str, span: Span) -> bool:
    words = text[span.start:span.end].split()
    return len(words) >= 2 and words[0].casefold() in _SIDES \
        and all(is_shorthand(w) or w.strip(".,").casefold() in english_words()
                for w in words[1:]) \
        and not any(listed_name(w.strip(".,")) for w in words[1:]) \
        and not has_name_context(text, span.start, span.end)  # "R DAVIES, RN"


def capital_of_a_sentence(text: str, span: Span, beside: bool) -> bool:
    covered = text[span.start:span.end]
    if beside or " " in covered or not covered[:1].isupper() or covered.isupper() \
            or not _SENTENCE_START.search(text[max(0, span.start - 3):span.start]):
        return False
    first, last = all_name_lists()
    key = covered.casefold()
    return is_english(covered) and key not in first and key not in last \
        and key not in one_word_places() \
        and not has_name_context(text, span.start, span.end) \
        and not _SUBJECT_VERB_AFTER.match(text[span.end:span.end + 16]) \
        and not _surname_after(text, span.end)


def _surname_after(text: str, end: int) -> bool:
    after = _NAME_GOES_ON.match(text[end:end + 30])
    return after is not None and not is_english(after.group(1))


def size_or_day(text: str, span: Span) -> bool:
    covered = text[span.start:span.end]
    if _SHIFT.fullmatch(covered) and text[span.start - 1:span.start] not in ("-", "/") \
            and _SHIFT_BEFORE.search(text[max(0, span.start - 24):span.start]):
        return True  # not the "7-13" of "2121-7-13"
    return bool(_SMALL_NUMBER.fullmatch(covered)) and bool(
        _SIZE_BEFORE.search(text[max(0, span.start - 10):span.start])
        or _SIZE_AFTER.match(text[span.end:span.end + 12]))


_INITIAL = re.compile(r"[A-Z]\.[ \t]?(?=[A-Z]{4})")
# What a patient does or is, or has: "weaning", "tremulous", "tearful", "urosepsis".
_STATE_OR_ACT = re.compile(r"(?:ing|ed|ous|ful|ive|sis|itis|emia|ic|al)$")


_AFFECTS = frozenset(("tearful teary calm calmer upset anxious angry appropriate supportive"
                      " agreeable tired emotional distraught crying grateful appreciative"
                      " pleasant concerned worried frustrated overwhelmed hopeful relieved"
                      " receptive sad scared quiet asleep").split())
# "may" before what one may do: the modal, not the month ("Son may call", "pt/wife may page").
_MODAL_MAY = re.compile(r"(?i:may)[ \t]+(?i:be|call|page|need|have|go|come|require|want|not"
                        r"|also|still|benefit|return|visit|take|get|leave|stay|try|use|ask"
                        r"|bring|continue|resume|start|stop|feel|eat|drink|transfer|d/c|dc)\b")


_INITIAL_OF = re.compile(r"\.[ \t]*[A-Za-z][A-Za-z'’\-]+")
_SLASH_NAME = re.compile(r"/[A-Z][a-z]")
_WORD_AFTER = re.compile(r"[ \t]+([^\W\d_]{3,})")
_WORD_BEFORE = re.compile(r"([^\W\d_]{3,})[ \t]+\Z")


_MODAL_NAMES = frozenset({"may", "will"})  # names that are modals too
# "will" before a verb's bare form, in lower case or capitals: "will dangle", "WILL NEED"; not
# before a preposition, nor a verb in the third person or the past ("Will about", "will said").
_WILL_DOES = re.compile(r"(?:will|WILL)[ \t]+(?!(?i:about|and|at|in|to|with|re|from|for|on|or"
                        r"|is|was|has|had|did|does|the|a|an|but|as|of|by|too|also|later|soon|today"
                        r"|tonight|tomorrow|here|there|now|then)\b)"
                        r"[^\W\d_]+(?<![sS])(?<!(?i:ed))(?<!(?i:ing))\b")
_MAY_OR_MAY_NOT = re.compile(r"(?i:may[ \t]+or[ \t]+may[ \t]+not)\b")
# After the month: "May of 2003", "may and june", "may twelfth", "May 5".
_MONTH_GOES_ON = re.compile(r"(?i:of|and|or|to|thru|through|until|till|til|vs|the|this|last"
                            r"|next|first|second|third|\w+th|twenty\w*|thirty\w*)")


def modal_verb(text: str, span: Span) -> bool:
    """"Son may call", "Pt is a veteran - may qualify for VA", "wife may benefit", "will
    dangle at 0700": an English verb after "may" or "will" makes it the modal."""
    covered = " ".join(text[span.start:span.end].casefold().split())
    if covered.endswith(" may") and covered[:-4].isdigit() \
            and _MODAL_MAY.match(text, span.end - 3):
        return True  # "rt aware bed 6 may need intubation": no sixth of May
    if covered in ("may", "may or may") and _MAY_OR_MAY_NOT.match(text, span.start):
        return True  # "MAY OR MAY NOT RECOVER"
    first = covered.split(" ")[0]
    if first not in _MODAL_NAMES or covered.count(" ") > 1:
        return False
    if first == "may" and _MODAL_MAY.match(text, span.start):
        return True  # "Son may call", "PT/WIFE MAY PAGE" (May Page is a name too)
    if covered != first:
        return False
    if first == "will" and not _WILL_DOES.match(text, span.start):
        return False  # "spoke with Will about the plan", "will says": the name
    after = _WORD_AFTER.match(text, span.end)
    if after is None or not is_english(after.group(1)) \
            or _MONTH_GOES_ON.fullmatch(after.group(1)):
        return False
    if after.group(1).islower():
        return True
    line = line_around(text, span.start, span.end)  # "MAY QUALIFY"; "MAY BAKER" is a name
    return line.upper() == line and not is_listed_name(after.group(1))


def lone_letter(text: str, span: Span) -> bool:
    """A model's name that is one letter ("min [A] for supine", "CALL W/ ?[S.]", "[s]/p"),
    with no title before it ("Dr. A reviewed")."""
    covered = text[span.start:span.end].strip().rstrip(".")
    if len(covered) != 1 or not covered.isalpha() \
            or TITLE_BEFORE.search(text[max(0, span.start - 8):span.start]):
        return False
    at = text.index(covered, span.start) + 1
    if _INITIAL_OF.match(text, at) or _SLASH_NAME.match(text, at):
        return False  # "j. fenn dpt", "C/Antonio Filpo": an initial, a street's
    after = _WORD_AFTER.match(text, at)
    before = _WORD_BEFORE.search(text[max(0, span.start - 30):span.start])
    return not any(m and not is_english(m.group(1)) and not is_shorthand(m.group(1))
                   for m in (after, before))  # "w trioss", "Silvia J Křenová"


def _english_words_in_capitals(text: str, span: Span, covered: str) -> bool:
    """"HO PAGED STAT": a name of English words in capitals, none a listed name or place,
    with nothing around it that says name."""
    words = [w.casefold() for w in covered.split()]
    return all(len(w) >= 3 and w.isalpha() and is_english(w) and not is_listed_name(w)
               and w not in one_word_places() for w in words) \
        and not has_name_context(text, span.start, span.end)


def english_word_in_capitals(text: str, span: Span, caseless: bool) -> bool:
    """In an ALL CAPS line every word has a capital (in a lower-case line none): an English
    word there is no name or place by its case ("ADMITTED W/ UROSEPSIS", "ON ROUNDS", "while
    skateboarding"), unless it is a listed name or place or has name context ("WIFE ROSE",
    "DR BAKER")."""
    covered = text[span.start:span.end]
    initial = _INITIAL.match(covered)  # "L. TRACHEA MIDLINE", "C. GLABRATA" (a species)
    if initial:
        covered = covered[initial.end():]
        if caseless and covered.casefold() in MICROBES:
            return True
    if caseless and " " in covered.strip() and covered.isupper() and span.label in NAME_LABELS:
        return _english_words_in_capitals(text, span, covered)
    # Three-letter words are parts of place names and nicknames ("OLD MILL RD", "DEB").
    if not caseless or " " in covered or len(covered) < 4 \
            or not (covered.isupper() or covered.islower()) or not is_english(covered):
        return False  # two letters stay: "AL", "OH" of an address
    first, last = all_name_lists()
    key = covered.casefold()
    if key in _AFFECTS:
        return True  # "DAUGHTER CALM", "son tearful": a mood after a relation, not a name
    before = text[max(0, span.start - 30):span.start]
    if covered.islower() and not _STATE_OR_ACT.search(key):
        # lower-case notes name places and people with plain words: "from hollin", "gull",
        # "wife dot", "be called walt"; a lost name weighs more than "info on meal vouchers"
        return False
    if span.label in NAME_LABELS and _BED_BEFORE.search(before) and age_after(text, span.end):
        return False  # "BED 6 BOWLING 39 F": a bed's patient by age and sex
    if in_a_nickname_slot(text, span):
        return False  # 'PT IS A 38 YO M "SKEETER"', 'CANTRELL, LONNIE ("HOSS")': what he goes by
    if key in first or key in last or key in one_word_places() or HOME_BEFORE.search(before) \
            or span.label in (Label.LOCATION, Label.HOSPITAL) and THE_BEFORE.search(before) \
            or span.label is Label.LOCATION and _FACILITY_COMMA_BEFORE.search(before):
        return False  # "LIVES IN RYE", "RESIDES AT THE PINES", "COMMUNITY HOSPITAL, TOWER"
    # A relation word before is name context: "HUSBAND WALT", "MOTHER OPAL", "GIRLFRIEND DOT"
    # are names more often than "DAUGHTER CALM" is a mood.
    return not has_name_context(text, span.start, span.end)


# A sign-out's bed before its patient: "BED 6 ", "RM 12 - ".
_BED_BEFORE = re.compile(BED_BEFORE)
# A quote opened after the patient's age and sex or after a surname and given name.
_NICKNAME_SLOT = re.compile(rf"(?:\b\d{{1,3}}[ \t]*{YEARS_OLD}[ \t]*[MFmf]"
                            r"|([^\W\d_]{2,}),[ \t]*([^\W\d_]{2,}))[ \t]*\(?[ \t]*[\"“]\Z")


def in_a_nickname_slot(text: str, span: Span) -> bool:
    """A name in quotes after the patient's age and sex or after the surname and given name:
    what the patient goes by ('PT IS A 38 YO M "SKEETER"', 'SALINAS, REFUGIO ("CUCO")'), though
    it is an English or a Spanish word; not what is said after words ('anxious overnight,
    repeating "hindi ako makahinga"')."""
    if span.label not in NAME_LABELS or text[span.end:span.end + 1] not in ('"', "”"):
        return False
    slot = _NICKNAME_SLOT.search(text, max(0, span.start - 40), span.start)
    return slot is not None and (slot.group(1) is None or any(
        is_listed_name(word) or not is_english(word) for word in slot.group(1, 2)))


# A facility's name and a comma: the town it stands in follows.
_FACILITY_COMMA_BEFORE = re.compile(rf"(?i:\b(?:{'|'.join(FACILITY_HEADS)})[ \t]*,[ \t]*\Z)")


def section_letter(text: str, span: Span) -> bool:
    """"A: Propofol off" (assessment), "P: wean": a letter that heads a section."""
    covered = text[span.start:span.end]
    return len(covered) == 1 and covered.isalpha() and text[span.end:span.end + 1] == ":"


def title_alone(text: str, span: Span) -> bool:
    """A title or role alone, or a kin word of the family's language alone ("lives w/ abuela",
    "KAHU ARRIVES TO PRAY": grandmother, pastor)."""
    key = text[span.start:span.end].strip(" .,").casefold()
    return key in _TITLES or key in KIN_TITLES or key in _ELDERS


def weekday_as_a_name(text: str, span: Span) -> bool:
    """"TRANSFER TO FLOOR THURSDAY" as a hospital, "will come Sun" as a surname: a weekday
    (a model's whole weekday name, or an abbreviation in a date's context)."""
    covered = text[span.start:span.end].strip(" .,")
    if not _WEEKDAY_WORD.fullmatch(covered) or has_strong_name_context(text, span.start,
                                                                        span.end):
        return False
    return covered.casefold().endswith("day") and span.source is not Source.RULE \
        or bool(_WEEKDAY_BEFORE.search(text[max(0, span.start - 12):span.start])
                or _WEEKDAY_AFTER.match(text[span.end:span.end + 12]))


# A timed entry goes on after a dash: "OPO called per policy 2215 - not a candidate".
_ENTRY_AFTER = re.compile(r"[ \t]+-[ \t]+[^\W\d_]")


def clock_entry(text: str, span: Span) -> bool:
    """A clock that opens a line or sentence, or goes on after a dash: a timed entry."""
    return bool(_CLOCK_ENTRY.fullmatch(text[span.start:span.end])) \
        and (bool(_ENTRY_BEFORE.search(text[max(0, span.start - 3):span.start]))
             or bool(_ENTRY_AFTER.match(text, span.end)))


_ANALYTES = frozenset("na cl ca mg phos po4 hco3 bun cr glu hgb hct plt wbc inr ptt".split())


def shorthand_in_a_name(text: str, span: Span) -> bool:
    """"METFORMIN HELD", "R. ZOSYN", "and ho.", "Low Na diet": an ICU word, an analyte or a drug
    among the words and no word that is only a name ("John Held" has "John")."""
    words = [w.strip(".,;:") for w in text[span.start:span.end].split()]
    if len(words) < 2:
        return False
    if words[0].casefold() in _ROLES:  # "ho bonnet", "HO Brandt": a role and a surname
        words = words[1:]
    if len(words) > 1 and words[-1].casefold() in PAGER_WORDS:  # "MD ON: NGO PGR 4-1176"
        words = words[:-1]
    if has_strong_name_context(text, span.start, span.end) \
            or any(listed_name(w.strip(".,")) for w in words):
        return False
    if any(w.casefold() in icu_words() for w in words) and not age_after(text, span.end):
        return True  # not "pt le van sang (83)"
    # An analyte or a drug among English words ("Low Na diet", "HIGH MG", "first dose meropenem
    # hung 1810"; "Fen Galdlo" has an unknown one).
    from engine.resolution.terms import drug_words

    drugs = drug_words()
    return any(w.casefold() in _ANALYTES or w.casefold() in drugs for w in words) \
        and all(is_shorthand(w) or is_english(w) or w.casefold() in drugs for w in words)


def _in_a_word(text: str, i: int) -> bool:
    """A letter or digit, or "&" between two ("L&D", "R&R")."""
    return text[i].isalnum() or text[i] == "&" and 0 < i < len(text) - 1 \
        and text[i - 1].isalnum() and text[i + 1].isalnum()


def inside_a_shorthand_word(text: str, span: Span) -> bool:
    """The span cuts a word whose whole is shorthand: "PaO" of "PaO2", "JP" of "JP1", "L" of
    "L&D"."""
    start, end = span.start, span.end
    words = text[start:end].split()
    if start > 1 and text[start - 1] == "/" and text[start - 2].isalpha() \
            and is_shorthand(text[start - 2:start] + words[0]) \
            and all(is_shorthand(w.strip(".,")) for w in words[1:]):
        return True  # "P AVR" of "S/P AVR", not "U. R. OYELOWO" of "F/U. R. OYELOWO"
    if _COUNTER_AFTER.match(text, end) and len(text[start:end].strip()) <= 4:
        return True  # "HD#6", "POD#2": a day's counter
    glued_after = end < len(text) and _in_a_word(text, end)
    if not glued_after and not (start > 0 and _in_a_word(text, start - 1)):
        return False
    while start > 0 and _in_a_word(text, start - 1):
        start -= 1
    while end < len(text) and _in_a_word(text, end):
        end += 1
    word = text[start:end]
    return is_shorthand(word) or is_shorthand(word.rstrip("0123456789"))


_IRREGULAR_PAST = frozenset({"made", "held", "found", "gave", "took", "came", "went", "left",
                             "got", "kept", "sent", "told", "said", "brought", "felt", "put"})


def past_tense_verb(text: str, span: Span) -> bool:
    """A past-tense verb proposed as a name ("hospitalist made aware", "RN HELD DURING
    MOBILITY", "found to have"), with no title before it ("Dr. held" is a name)."""
    covered = text[span.start:span.end].strip()
    line = line_around(text, span.start, span.end)
    if not covered.isalpha() or not (covered.islower() or line.upper() == line) \
            or TITLE_BEFORE.search(text[max(0, span.start - 12):span.start]):
        return False  # lower case, or capitals in a line of capitals ("RN HELD DURING")
    key = covered.casefold()
    return key in _IRREGULAR_PAST or past_participle(key)


def past_participle(word: str) -> bool:
    """"anticipated", "recommended", "denied", "planned"; not "kindred" (no verb "kindr"), not
    "ALLRED" (a "y" stands for the "i" of "-ied" only)."""
    stems = [word[:-2], word[:-1]] + ([word[:-3] + "y"] if word.endswith("ied") else [])
    if len(word) > 4 and word[-3] == word[-4]:
        stems.append(word[:-3])  # "planned"
    return word.endswith("ed") and any(len(s) > 2 and s in english_words() for s in stems)


# A measured value after a word: "Ht 178 cm", "UNASSISTED SYS 90S", "Wt 92 kg".
_MEASURE_AFTER = re.compile(r"[ \t:=]*\d+(?:\.\d+)?[ \t]*(?i:cm|mm|kg|g|lbs?|in|%|mmhg|s)\b")


def measured_word(text: str, span: Span) -> bool:
    """Shorthand with a measured value after it is what was measured, not a name, even after
    a field label ("Patient: Ht 178 cm")."""
    covered = text[span.start:span.end].strip()
    return " " not in covered and is_shorthand(covered) \
        and bool(_MEASURE_AFTER.match(text, span.end)) \
        and not TITLE_BEFORE.search(text[max(0, span.start - 12):span.start])
