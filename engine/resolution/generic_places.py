"""Places that are a kind of place, not a name of one, whoever proposed them.

- An institution named only by what kind it is ("transfer w/ regional center", "at outside
  hosp", "burn center may want transfer", "No SNF days used", "son lives out of state"): every
  word is a generic word or a facility head, and no other candidate stands beside it ("Sacred
  Heart Parish", "Hospital San Rafael" are names), so there is no name in it to replace.
- A model's single English word as a place in a lower-case line after an indefinite article
  or a possessive ("a plow driver", "works as a cook"): in a line without case the model has
  only the word to go on, and a name takes neither ("resides at the pines" does take "the").
  A word of a longer place ("gull island") has a candidate beside it.
- A model's place of lower-case English words in a line with case ("lives alone in apt",
  "found in snowbank"), no listed place among them.
- A drug is no place ("Pt on new Coumadin"); a state code follows a town ("Portland, OR"),
  not a segment ("Qs V1-V4, ST elev").
- A rule's facility in a line without case whose words before the head are an order's verb or
  non-English shorthand ("RECOMMEND LTAC", "OUTPT LIPID CLINIC"), or after a doctor's title.
"""

from __future__ import annotations

import re

from engine.core.domain import Source, Span
from engine.core.labels import Label
from engine.detectors.dictionary.context import is_english
from engine.detectors.dictionary.locations import one_word_places
from engine.detectors.dictionary.names import all_name_lists
from engine.detectors.regex.facilities import PLAN_WORDS
from engine.detectors.regex.towns import HOME_BEFORE
from engine.resolution.edges import WORD_AFTER, WORD_BEFORE, drug_before, in_caseless_line
from engine.resolution.roles import DETERMINERS, TITLE_BEFORE

_PLACE_LABELS = frozenset({Label.HOSPITAL, Label.LOCATION})
# Kinds, heads and the words that point at one ("the receiving hosp", "our regional center");
# not "university" nor "community", which name real hospitals alone.
_GENERIC = frozenset({
    "regional", "center", "centre", "ctr", "hospital", "hosp", "medical", "burn", "trauma",
    "cancer", "rehab", "rehabilitation", "nursing", "home", "facility", "snf", "ltac", "ltach",
    "outside", "receiving", "referring", "accepting", "sending", "local", "nearest", "closest",
    "tertiary", "teaching", "parish", "church", "clinic", "unit",
    "no", "the", "a", "an", "our", "their", "his", "her", "pt's", "new", "other", "another",
    "same", "osh", "va", "step", "down", "step-down", "stepdown", "floor", "hall", "state",
    "town", "city", "county", "apt", "apartment", "condo", "walk-up", "walkup", "1st", "2nd",
    "3rd", "4th", "5th", "ground", "first", "second", "third",
    # a clinic or rehab by what it treats: "F/U NEUROMUSCULAR CLINIC 6 WKS", "cardiac rehab"
    "cardiac", "pulmonary", "neuromuscular", "neurology", "cardiology", "oncology",
    "hematology", "nephrology", "dialysis", "wound", "pain", "lipid", "anticoagulation",
    "coumadin", "transplant", "infusion", "sleep", "memory", "diabetes", "endocrine",
    "allergy", "asthma", "feeding", "developmental", "vascular", "stroke", "physical",
    "occupational", "speech", "acute", "subacute", "inpatient", "outpatient", "outpt", "inpt",
    "hospice",
    "thoracic", "palliative", "medicine", "prenatal", "postnatal", "care", "surgery",
    "surgical", "renal", "kidney", "liver", "heart", "lung", "pediatric", "peds", "obstetric",
    "urology", "orthopedic", "ortho", "rheumatology", "psychiatry", "hepatology", "spine",
    # where a child or an adult spends the day: "older sib at daycare", "foster address"
    "daycare", "preschool", "school", "work", "foster",
    # custody and a newborn's nursery level: "back to jail infirmary", "inmate from state
    # prison", "back-transport to level III NICU", "special care nursery" (not "island",
    # "family": "gets hd at island dialysis", a family practice's name)
    "prison", "jail", "infirmary", "correctional", "detention", "women's", "men's", "secure",
    "custody", "level", "ii", "iii", "iv", "nursery", "special", "nicu", "picu",
    # a room of the hospital, a shelter, a clinic's kind ("to ANGIO SUITE ~0515", "found down
    # at bus shelter", "f/u at the bridge clinic")
    "angio", "suite", "cath", "bus", "shelter", "bridge", "snfs", "ltacs", "facilities",
    # the veterans' administration's programmes and offices, a towing yard ("VA national
    # cemetery", "national records center", "VA Community Living Center", "car from tow lot")
    "national", "records", "cemetery", "living", "tow", "lot",
    # clinics by what they do ("toward weaning centre", "community mental health", "outpt vad
    # clinic", "perinatal mh clinic", "low-barrier clinic", "Interstage cardiology clinic";
    # not "ward": "Apt. 887, Ward port, Ontario")
    "weaning", "mental", "health", "mh", "vad", "perinatal", "barrier",
    "low-barrier", "interstage",
    # the hospital's own services ("Massive Transfusion Summary / Blood Bank Documentation")
    "blood", "bank",
    # roads described, not named ("35 min, gravel road + county highway")
    "road", "highway", "gravel", "dirt", "interstate", "freeway",
    # where a body or a dog is kept, where someone without a home sleeps ("to morgue after",
    # "kept at the warming centre kennel", "resident of the encampment", "stairwell of parkade")
    "morgue", "kennel", "encampment", "tent", "stairwell", "parkade", "overpass", "underpass",
    "warming", "hut", "backcountry", "campsite", "campground",
    # a farm's places, a telephone line, a hospital's follow-up and obstetric units ("fell
    # through hay loft", "in a pistachio orchard", "home landline", "icu follow up clinic",
    # "to antepartum unit", "regional burns centre")
    "hay", "loft", "wagon", "pasture", "hillside", "orchard", "orchards", "grove", "groves",
    "pistachio", "walnut", "ditch", "barn", "landline", "icu", "follow", "up", "follow-up",
    "antepartum", "postpartum", "burns", "recovery", "post-icu", "metabolic", "genetics",
    # an Amish family's places ("home to the grossdaadi haus", "VF arrest at barn raising")
    "grossdaadi", "dawdy", "haus", "raising", "field", "fields",
    # a work site, an evacuation's places, a road's junction ("fall from scaffold",
    # "EMS from evac center", "AT THE FAIRGROUNDS SHELTER", "AT HIGHWAY INTERCHANGE")
    "scaffold", "scaffolding", "evac", "evacuation", "fairgrounds",
    "interchange",
    # where people without homes camp ("found down in riverbed encampment"), where an
    # assault happens ("FOUND DOWN OUTSIDE BAR")
    "riverbed", "riverbank", "encampments", "bar", "pub", "tavern", "nightclub",
    # where farm and factory hands work, where a family parks its home ("BIB EMS FROM VINEYARD
    # OUTSIDE KERMAN", "from family strawberry farm shed", "worker on cotton gin", "works at a
    # maquiladora", "LIVES IN RV PARK")
    "vineyard", "vineyards", "farm", "farms", "shed", "strawberry", "cotton", "gin",
    "maquiladora", "dairy", "feedlot", "warehouse", "rv", "park",
    # a shop of folk remedies ("PT ALSO VISITS A BOTANICA FOR REMÈD"), a packing plant or a
    # shipyard ("INJURY AT PORK PROCESSING PLANT", "welder at shipyard")
    "botanica", "botánica", "pork", "poultry", "beef", "processing", "packing", "meatpacking",
    "plant", "shipyard",
    # a mill by what it makes ("30+ YRS IN COTTON MILL", "JOB AT THE HOSIERY MILL", "2ND SHIFT
    # AT SOCK MILL")
    "mill", "mills", "hosiery", "sock", "textile", "sawmill", "lumber", "paper",
    # a nation's own clinic and what it dispenses ("MEDS CAN BE FILLED AT TRIBAL CLINIC PHARMACY",
    # "ADMITTED 2/27 FROM IHS CLINIC")
    "tribal", "pharmacy", "ihs",
    # a terraced house ("lives alone in rowhouse, 3 steps to enter")
    "rowhouse", "rowhome",
})
# Names take no indefinite article or possessive: "a plow driver", "as a cook", "his truck".
_ARTICLE_BEFORE = re.compile(rf"(?<![\w'’])(?i:a|{DETERMINERS})[ \t]+\Z")


# A longer name goes on after it: "Hospital 12 de Octubre", "Hospital Clínico", "Hall Orchestra";
# not a time to wait: "NEUROMUSCULAR CLINIC 6 WKS".
_NAME_GOES_ON = re.compile(r"[ \t]+(?:\d(?![\d\-–]*[ \t]*(?i:wks?|weeks?|days?|mos?|months?|yrs?"
                           r"|years?)\b)|(?:de|del|di|of|la|le)\b|(?P<word>[^\W\d_]+))")


def generic_institution(text: str, span: Span) -> Span | None:
    """The span widened to its whole words ("[step]-down") when every word is generic, else
    None; the caller checks that no other candidate stands beside it."""
    if span.label not in _PLACE_LABELS:
        return None
    start, end = span.start, span.end
    while start > 0 and (text[start - 1].isalpha() or text[start - 1] in "-'’"):
        start -= 1
    while end < len(text) and (text[end].isalpha() or text[end] in "-'’"):
        end += 1
    goes_on = _NAME_GOES_ON.match(text, end)
    word = goes_on.group("word") if goes_on else None
    if goes_on and (word is None or word[:1].isupper() and not word.isupper()):
        return None  # "Hospital Clínico"; not "AMBULATE IN HALL W/ PT"
    if not all_generic(text, start, end):
        return None
    return span if (start, end) == (span.start, span.end) else span.moved(start, end)


def all_generic(text: str, start: int, end: int) -> bool:
    """Every word of ``text[start:end]`` is a kind of place or points at one."""
    words = re.findall(r"[^\W_]+(?:['’][^\W\d_]+)?", text[start:end].casefold())
    if "health" in words:  # a kind of clinic ("PCP at community health ctr"), while a
        words = [w for w in words if w != "community"]  # "Community Hospital" may be a name
    return bool(words) and all(w.replace("’", "'") in _GENERIC for w in words)


def common_word_place(text: str, span: Span, next_to: bool) -> bool:
    """A model's place that is one English word after an article or possessive in a line
    without case ("works at a cannery", "IN HIS TRUCK"); no listed place or name."""
    if span.source not in (Source.NER, Source.LLM) or span.label not in _PLACE_LABELS \
            or next_to:
        return False
    covered = text[span.start:span.end]
    if not covered.isalpha() or not in_caseless_line(text, span.start, span.end) \
            or text[span.start - 1:span.start] in ("-", "'", "’"):
        return False  # in a cased line: the guards' lower-case English place; "step-[down]"
    key = covered.casefold()
    first, last = all_name_lists()
    before = text[max(0, span.start - 30):span.start]
    return bool(_ARTICLE_BEFORE.search(before)) and is_english(key) and len(key) >= 3 \
        and key not in one_word_places() and key not in first and key not in last \
        and not HOME_BEFORE.search(before)


_TOWN_AND_COMMA = re.compile(r"(?<![\w\-])[^\W\d_]{2,}\s*,[ \t]*\Z")


def after_a_town(text: str, span: Span, *, named: bool = False) -> bool:
    """A word and a comma just before ("Beerze⏎, OV"), not a segment ("V1-V4, ST");
    ``named``: a word no English or clinical list holds ("awake, brady to 38" is charting)."""
    from engine.resolution.shorthand import clinical_or_english

    town = _TOWN_AND_COMMA.search(text[max(0, span.start - 24):span.start])
    return town is not None and not (named and clinical_or_english(town.group().rstrip(" \t\n,")))


def state_after_town(text: str, span: Span) -> bool:
    """"Portland, OR" / "Baltimore, MD": a state code after a town, not the clinical
    abbreviation ("Qs V1-V4, ST elev" is a segment)."""
    return span.label is Label.LOCATION and span.length == 2 and after_a_town(text, span)


def drug_as_a_place(text: str, span: Span) -> bool:
    """"Pt on new Coumadin", "LASIX": a drug of the clinical lexicon, with at most English
    words before it, is no place or facility; nor are English words right after a drug."""
    from engine.cire.lexicon import default_lexicon

    if span.label not in _PLACE_LABELS:
        return False
    covered = text[span.start:span.end]
    if drug_before(text, span.start):  # "heparin to coumadin [bridge]", "lasix [drip]"
        return all(is_english(w) for w in re.findall(r"[^\W\d_]+", covered))
    drugs = [h for h in default_lexicon().find(covered) if h.category == "drug"]
    if len(drugs) != 1:
        return False
    around = covered[:drugs[0].start] + " " + covered[drugs[0].end:]
    return all(is_english(w) for w in re.findall(r"[^\W\d_]+", around))  # "coumadin bridge"


_DIRECTIONS = frozenset({"north", "south", "east", "west", "northeast", "northwest", "southeast",
                         "southwest"})
_PARTICLE_BEFORE = re.compile(r"(?i:\b(?:de|del|la|las|los|le|du|di|van|von)[ \t]+\Z)")


_FOUND_IN_BEFORE = re.compile(r"\b(?:found|discovered|lying|fell|stuck|trapped|pulled|rescued"
                              r"|collapsed)\b[^\n]{0,20}?\b(?:in|on|into|onto|under)[ \t]+"
                              r"(?:(?:a|an|the)[ \t]+)?\Z")


def lower_case_english_place(text: str, span: Span) -> bool:
    """A model's place made of lower-case English words in a line that has case ("lives alone
    in apt", "found in snowbank", "NUH transfer center"), or one such word in a line without
    case: no listed place or name among them."""
    if span.source not in (Source.NER, Source.LLM) \
            or span.label not in (Label.LOCATION, Label.HOSPITAL):
        return False
    words = lower_case_english_words(text, span)
    if not words:
        return False
    covered = text[span.start:span.end]
    if any(c.isdigit() for c in covered) and any(w in _DIRECTIONS for w in words):
        return False  # a ward: "admit 8 east", "back to 2 north"
    # One word that a list names is no exception ("ambulate in hall"), unless a home is
    # before it ("lives at collins plains", "home in south beth" are typed so).
    places, (first, last) = one_word_places(), all_name_lists()
    before = text[max(0, span.start - 30):span.start]
    named = (len(words) > 1 or HOME_BEFORE.search(before) or _PARTICLE_BEFORE.search(before)) \
        and any(w in first or w in last for w in words)  # "Calle de la villa de marin 6"
    # Where the line has no case only one word in or on which someone was found goes, and not
    # where a home is named: "found down in riverbed", "found in snowbank" (not "lives in
    # oxbow", "notified by hollin staff").
    caseless_word = len(words) == 1 and words[0] not in first and words[0] not in last \
        and bool(_FOUND_IN_BEFORE.search(before)) and not HOME_BEFORE.search(before)
    return not named and not any(w in places for w in words) \
        and (caseless_word or not in_caseless_line(text, span.start))


# Where someone goes or is, before a facility's one word ("TRANSFER TO MERCY", "AT THE PINES").
_MOVED_BEFORE = re.compile(r"(?i:\b(?:to|at|from|in|into|via|on|near|off)[ \t]+(?:the[ \t]+)?\Z)")


def capital_english_facility(text: str, span: Span) -> bool:
    """A model's facility that is one English word in a line of capitals, no listed place or
    name, inside a phrase of plain English words, with nothing before it that says where
    someone goes or is: "SPENT WEEKENDS GUIDING BEAR HUNTS" (not "TRANSFER TO MERCY", "RESIDES
    AT THE PINES", "MERCY ED CALLED")."""
    if span.source not in (Source.NER, Source.LLM) or span.label is not Label.HOSPITAL:
        return False
    covered = text[span.start:span.end].strip()
    key = covered.casefold()
    if not (covered.isalpha() and covered.isupper() and len(covered) >= 3 and is_english(key)):
        return False
    first, last = all_name_lists()
    before = WORD_BEFORE.search(text[max(0, span.start - 24):span.start])
    after = WORD_AFTER.match(text, span.end)
    return key not in one_word_places() and key not in first and key not in last \
        and in_caseless_line(text, span.start) \
        and not _MOVED_BEFORE.search(text[max(0, span.start - 16):span.start]) \
        and all(m and _plain_english(m.group(1)) for m in (before, after))  # inside a phrase


def _plain_english(word: str) -> bool:
    """An English word of three letters or more that is no shorthand ("GUIDING", not "ED")."""
    from engine.resolution.shorthand import is_shorthand

    key = word.casefold()
    return len(key) >= 3 and is_english(key) and not is_shorthand(key)


def lower_case_english_words(text: str, span: Span) -> list[str]:
    """The span's words when every one is a lower-case English word of three letters or
    more, else none."""
    words = re.findall(r"[^\W\d_]+", text[span.start:span.end])
    return words if all(w.islower() and len(w) >= 3 and is_english(w) for w in words) else []


# What no institution's name holds before its head word: an order's verb, "w/", "per", or
# clinical shorthand that is no English word ("RECOMMEND LTAC", "AUTH FOR LTAC", "HMO DENIED
# LTAC", "OUTPT LIPID CLINIC", "ANTICIPATED HOSPITAL D/C"; the inventories also hold English
# words that name places, "bay"); "ST", "MT" begin names, and "and", "for", "of" join them
# ("OLD MILL NURSING AND REHAB", "HOME FOR THE AGED").
_CHARTING_BEFORE_HEAD = frozenset({"recommend", "recommended", "pursue", "consider", "await",
                                   "awaiting", "auth", "vs", "denied", "accepted", "anticipated",
                                   "close", "redose", "yo", "y/o", "w/", "per",
                                   # who wants or does what ("WIFE GIVEN LTAC NUMBER", "SHE CALLS
                                   # HOSPICE", "LAST CLINIC VISIT", "USED HOSPITAL GRADE ...")
                                   "given", "start", "starting", "required", "wife", "husband",
                                   "daughter", "son", "family", "so", "if", "when", "until",
                                   "tonight", "today", "tomorrow", "difference", "want", "wants",
                                   "inpt", "outpt", "inpatient", "outpatient", "calls", "update",
                                   "last", "used", "provided", "grade"}) | PLAN_WORDS
_NAME_STARTERS = frozenset({"st", "ste", "saint", "mt", "ft", "univ", "gen"})
# The heads of two words, whose first word is the head's own ("KHORASAN FAMILY SERVICES").
_TWO_WORD_HEAD_ENDS = frozenset({"services", "project"})
# "Family" is the head's own before a practice ("lavaca family clinic"), a relative elsewhere.
_FAMILY_HEADS = frozenset({"clinic", "practice", "medicine", "health", "care"})


def facility_of_charting_words(text: str, span: Span) -> bool:
    """A rule's facility in a line without case whose words before the head are charting."""
    from engine.resolution.shorthand import is_shorthand

    if span.source is not Source.RULE or span.label is not Label.HOSPITAL \
            or not in_caseless_line(text, span.start, span.end):
        return False
    words = [w.casefold() for w in re.findall(r"[^\W\d_][\w/'’\-]*", text[span.start:span.end])]
    if len(words) < 2:
        return False
    if TITLE_BEFORE.search(text[max(0, span.start - 8):span.start]):
        return True  # "DISCUSSED W/ DR. FITZHUGH AND LTAC LIAISON": the doctor, then "and"
    first, last = all_name_lists()
    places = one_word_places()
    # the head's own words: "KHORASAN FAMILY SERVICES", "OBREROS UNIDOS LEGAL PROJECT"
    head = 2 if words[-1] in _TWO_WORD_HEAD_ENDS \
        or words[-1] in _FAMILY_HEADS and words[-2] == "family" else 1
    return any(w in _CHARTING_BEFORE_HEAD  # not any participle: "ASSISTED LIVING", "UNITED"
               or is_shorthand(w) and not is_english(w) and w not in _NAME_STARTERS
               and w not in places and w not in first and w not in last for w in words[:-head])



# A unit after a number, or a count's word before one: "admit 64 kg", "f/u 2 wks", "on HD 2",
# "advance back to goal 55", "bed 4" (no ward has a name like these).
_UNIT_AFTER_NUMBER = re.compile(r"(?i:kg|lbs?|cm|mm|mg|ml|wks?|weeks?|days?|hrs?|hours?|mins?)")
_COUNT_WORD = re.compile(r"(?i:hd|pod|day|goal|bed|room|rm|gcs|rass|grade|stage|level|peak"
                         r"|nadir|max|min|admit|baseline|trough)"
                         r"[ \t]*#?[ \t]*\d{1,3}")


def icu_words_as_a_place(text: str, span: Span) -> bool:
    """A model's place of two or more words that are all ICU shorthand, clinical words or
    settings ("tip at cavoatrial jct", "trial off cpap to hfnc 2l"), or a kind of unit alone;
    one other such word is the guards' shorthand alone."""
    from engine.detectors.dictionary.context import clinical_words
    from engine.resolution.shorthand import icu_words

    if span.source not in (Source.NER, Source.LLM) or span.label not in _PLACE_LABELS:
        return False
    tokens = text[span.start:span.end].split()
    if len(tokens) == 1 and tokens[0].strip(".,").casefold() in _UNIT_WORDS \
            and not _NUMBER_NEXT.match(text, span.end) \
            and not text[max(0, span.start - 4):span.start].rstrip(" \t").endswith(","):
        return True  # "?STEP DOWN TO WARD AM": a kind of unit; not "Unit 1009 Box 0219" nor
        # an address's part ("Apt. 887, Ward port")
    words = [w.casefold() for w in re.findall(r"[^\W\d_]+", " ".join(
        t for t in tokens if not any(c.isdigit() for c in t)))]  # "hfnc 2l": a setting
    return len(tokens) > 1 and bool(words) \
        and all(w in icu_words() or w in clinical_words() for w in words)


# A hospital floor's wing before the kind of unit it holds ("4 east ct step-down", "5 WEST
# ICU"): a unit numbered by its floor, not a street ("4 East Ct").
_FLOOR_WING = re.compile(r"(?i:\d{1,2}[ \t]*(?:east|west|north|south|e|w|n|s)\b[ \t]*(?:ct|cts)?)")
_UNIT_AFTER = re.compile(r"(?i:[ \t]*(?:[a-z]{1,5}[ \t]+)?(?:step[ \t-]?down|icu|ccu|pcu|unit|tele"
                         r"|surg|sicu|micu|cvicu)\b)")


def floor_wing_as_a_place(text: str, span: Span) -> bool:
    """A floor's wing before its kind of unit ("RAPID RESPONSE - 4 EAST CT STEP-DOWN")."""
    return span.label in _PLACE_LABELS and bool(_FLOOR_WING.fullmatch(text, span.start, span.end)) \
        and bool(_UNIT_AFTER.match(text, span.end))


# Kinds of unit a patient moves between, which are surnames too ("Ward").
_UNIT_WORDS = frozenset({"ward", "wards", "floor", "unit", "stepdown", "step-down", "tele",
                         "telemetry"})
_NUMBER_NEXT = re.compile(r"[ \t]*#?\d")
# A unit's or bed's code as charted ("transfer to F2", "back to 5W", "bed 4B"): no name.
_UNIT_CODE = re.compile(r"[A-Za-z]\d[A-Za-z]?|\d{1,2}[A-Za-z]{1,2}")
_MOVED_TO = re.compile(r"(?i:\b(?:to|from|on)[ \t]+\Z)")  # not a flat: "Calle Villanueva 34, 2B"


# A level or grade in Roman numerals ("RANCHO VI-VII", "class III"): no place is named so.
_ROMAN = r"(?:[IVX]{1,4}|[ivx]{1,4})"
_ROMAN_LEVELS = re.compile(rf"{_ROMAN}(?:[ \t]*[-–/][ \t]*{_ROMAN})?")


def quantity_as_a_place(text: str, span: Span) -> bool:
    """A count, a unit's code or a level where a place was proposed ("admit 64 kg", "to 5W",
    "RANCHO VI-VII")."""
    if span.label not in _PLACE_LABELS:
        return False
    covered = text[span.start:span.end].strip()
    if span.source in (Source.NER, Source.LLM) and _UNIT_CODE.fullmatch(covered) \
            and _MOVED_TO.search(text[max(0, span.start - 12):span.start]):
        return True
    before = text[max(0, span.start - 6):span.start]
    return bool(_UNIT_AFTER_NUMBER.fullmatch(covered) and re.search(r"\d[ \t]*\Z", before)
                or _COUNT_WORD.fullmatch(covered) or _ROMAN_LEVELS.fullmatch(covered))
