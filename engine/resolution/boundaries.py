"""Where a span may end, for every detector: never across a line break, a field label or a
clinical word beside the identifier.

- A blank line ends every identifier; a line break ends every identifier but an address
  (LOCATION: "12 Main St⏎Springfield" is one place). "Hospital⏎Department" is two spans.
- A form field label is not part of its neighbour: ``Name: Chen Wei   Age: 92`` gives
  ``Chen Wei``; a span that takes in ``Age:``, ``DOB:``, ``MRN:`` is cut before the label, and
  a label at its start is cut off.
- A name does not take in a clinical word next to it: "medical ward" is no person "ward", and
  "Smith ward" is "Smith"; nor the sentence going on ("OSH intubated", "Agnes. Mercy",
  "MARGUERITE TOURED").
- Two names joined by "and" or "&" are two spans ("ANNE AND KATHLEEN").
- After the guards have judged a span as proposed, it loses a joining word at either end
  ("Tansey via"), a day or a clock after ("GREYHOLM SAT", "DR VANTERPOOL 1930"), a
  hospital's department after ("MERCY ED") and a reporting verb before ("Called Larkmoor SNF").
- A street and the town after it are two places (``places.street_then_town``); how a
  model's place or contact ends is ``places``' too.

Each piece is trimmed of whitespace; the first piece keeps the span's id.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engine.core.domain import Span, new_id
from engine.core.labels import NAME_LABELS, Label
from engine.detectors.dictionary.context import COUNTED_DAY
from engine.detectors.regex.fragments import (
    CREDENTIAL_WORDS,
    HHMM,
    ICU_UNIT,
    KIN_TITLES,
    MILITARY_RANKS,
    PAGER_WORDS,
    TOLD,
)
from engine.resolution.places import street_then_town

_BLANK_LINE = re.compile(r"\n\s*\n")
_LINE_BREAK = re.compile(r"[ \t]*\r?\n\s*")
_MULTILINE_LABELS = frozenset({Label.LOCATION})
FIELD_LABELS = (r"age|dob|d\.o\.b|date\s+of\s+birth|sex|gender|mrn|phn|hcn|uli|ssn|sin|id"
                r"|name|patient|address|tel|phone|fax|email|dr|provider|physician|gp|ward"
                r"|room|bed|unit|date|admitted|discharged|ref|re|dx|diagnosis|allergies"
                r"|insurance|chart|acct|account|visit|encounter|service|attending"
                r"|(?:hosp(?:ital)?|nhs|case)\s+(?:no|num|number)|nhi")  # "HOSP NO: RX7741026"
# A field label: the word, then a colon or hash (the colon may sit just past the span).
_FIELD = re.compile(rf"(?i:(?<![\w.])(?:{FIELD_LABELS})\.?[ \t]*[:#])")
_FORM_GAP = re.compile(r"[ \t]{3,}|\t")
# "Agnes. Mercy": a period after a word (not an initial, "J. Smith") ends a name.
# Two-letter words before a period are abbreviations ("Dr.", "St.", "ul.").
_SENTENCE_END = re.compile(r"(?<=[^\W\d_]{3})(?<!(?i:\bmrs|\brev|\bdrs|\bapt|\bave))"
                           r"(?<!(?i:\bprof|\bcorp|\bblvd))[.;][ \t]+")
# Clinical head words that sit beside names and wards but belong to neither.
_CLINICAL_EDGE = frozenset({"ward", "unit", "floor", "department", "dept", "service", "team",
                            "clinic", "room", "bed", "medical", "surgical", "nursing", "note",
                            "notes", "pager", "pgr", "beeper"})
_EDGED_LABELS = NAME_LABELS | {Label.HOSPITAL, Label.LOCATION}
_BETWEEN_NAMES = re.compile(r"[ \t]+(?:and|AND|&|vs\.?|VS\.?)[ \t]+")
# A dash between blanks: a sign-out item's name, then what is wrong ("bed 3 dang - sah hunt-hess").
_SPACED_DASH = re.compile(r"[ \t]+[-–—][ \t]+")
# A team's letter before a date ("SIGNOUT - TEAM A - 8/30"): no part of the date.
_LETTER_DASH = re.compile(r"[A-Za-z][ \t]*[-–—][ \t]*(?=\d)")
# Words that join, place or time an identifier but never begin or end one: "Tansey via",
# "Larkspur LTAC and", "GREYHOLM SAT", "INCL HOPEWELL HOUSE".
_JOINERS = frozenset({"and", "&", "or", "vs", "vs.", "versus", "in", "via", "at", "to", "from",
                      "of", "with", "w/", "per", "for", "on", "by", "thru", "through", "about",
                      "incl", "including", "-"})
_WHEN = frozenset({"mon", "tue", "tues", "wed", "weds", "thu", "thur", "thurs", "fri", "sat",
                   "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                   "tmrw", "tomorrow", "today", "tonight", "yesterday", "eve", "mwf", "tth",
                   "night", "overnight", "morning", "afternoon", "evening", "noc",
                   "pod", "hd"})  # "pt mahe pod 2": the day of the stay
# A pager's cue after a clinician's name ("dr haddad pgr 4471"): the number's, not the name's;
# and a credential ("per j. okonkwo rt will do chest pt").
_PAGER_OR_CREDENTIAL = PAGER_WORDS | {"hospitalist", "intensivist", "att", "attg", "attending"} \
    | CREDENTIAL_WORDS
# What kind of place follows, by its acronym ("OPO Heartland Gift of Life Network", "SNF
# Pondera Sage Care Center", "Source: ED Long Ridge Memorial"): never part of its name (dev
# 1-104: 0 of the gold's hospitals).
_FACILITY_KINDS = frozenset({"opo", "snf", "ltach", "ltac", "irf", "alf", "ed"})
# A measurement's field after a patient's name ("Pt: Hernández Salas  Wt 82 kg").
_MEASURE_FIELDS = frozenset({"wt", "ht", "bmi", "weight", "height"})
# The writer, before the name beside it ("overnight contact: me, ferreira").
_SPEAKER = frozenset({"me", "myself"})
# An intensive care unit after a clinician's name: where the clinician works ("DR LINDQVIST
# MICU ATTENDING").
_ICU = re.compile(ICU_UNIT)
# A hospital's department after its name ("MERCY ED", "St. Agatha's SW", "tavish general
# ed"): the surrogate replaces the hospital and keeps where in it the patient was.
_DEPARTMENTS = frozenset({"ed", "er", "sw", "admissions", "lobby", "helipad"})  # and _ICU
_CLOCK = re.compile(HHMM)
# Roles, clergy and step-relations before a name are no part of it ("ATTY WINSLOW PRATT",
# "Trooper Nadeau", "fr donnelly", "STEPDAD RAY", "ho brandvold", "Pharmacist Yusuf Demirci").
_ROLES_BEFORE = frozenset({"rev", "reverend", "pastor", "fr", "rabbi", "imam", "deacon",
                           "sheikh", "shaykh", "haji", "hajji",  # "ELDER HAJI MAXAMED DIRIYE"
                           "chaplain", "trooper", "officer", "sgt", "det", "atty", "attorney",
                           "sw", "ho", "rn", "np", "stepdad", "stepmom", "stepfather",
                           "stepmother", "stepson", "stepdaughter", "pharmacist",
                           "perfusionist", "dietitian", "dietician", "therapist", "counselor",
                           "counsellor", "perfusion", "pharmacy", "fellow", "resident",
                           "attending", "res", "mgm", "mgf", "pgm", "pgf", "mob", "fob",
                           "rt", "rrt", "md", "pa", "lpn", "cna", "slp", "cm",  # "RT YAZZIE"
                           "sr", "br", "msgr", "cantor", *MILITARY_RANKS,  # "MAJ Lindqvist"
                           # "Cousin Eusebio", "Doña Chepa", "SNOD Ashdown", "registrar Achebe"
                           "cousin", "doña", "señora", "señor", "sra", "srta", "snod",
                           "registrar", "consultant", "foreman", "nightfloat", "nocturnist",
                           # "auntie Fetu", "goes by Uncle Sefa", "Kahu Aukai" (a pastor)
                           "auntie", "aunty", "aunt", "uncle", "tutu", "kahu", *KIN_TITLES,
                           # "BISHOP HENRY LANTZ", "the family's rav halberstam", a monk's
                           # or an elder's honorific ("Ajahn Khamphone", "Phra Sombat"), the
                           # attending ("r. anand md / attg lindahl")
                           "bishop", "rav", "rebbe", "rebbetzin", "ajahn", "ajarn", "phra",
                           "bhante", "venerable", "khun", "attg",
                           # a Latter-day Saint missionary's title, a nun's in Spanish, a parent
                           # ("ELDER HANSEN, 20M, MISSIONARY", "Hna. Teresa", "mom mckenna")
                           "elder", "hna", "hermana", "hermano", "dona", "mom", "dad"})
_SENTENCE_GOES_ON = re.compile(r"\s|$|[)\],;]")
# What follows a sex letter: one space, a dash maybe, and a word ("HIGA F NSTEMI", "Quintero M
# — alcoholic"); not a form's gap ("HRYNIUK, STEPAN M          MRN:"), an age or a comma
# ("reyes, m 66f", "rt keisha m,"): there the letter is an initial as often.
_WORD_AFTER = re.compile(r"[ \t](?:[-–—][ \t]+)?([^\W\d_][\w\-]+)")
# An initial or an abbreviation keeps its period ("Anna K.", "Main St.", "Conway Inc.").
_INITIAL_END = re.compile(r"(?:^|[\s.])(?:[A-Za-z]|(?i:st|ave|rd|blvd|dr|ln|ct|pl|hwy|mt|ft|inc"
                          r"|ltd|co|corp|jr|sr|bros))\.$")
# What the writer did before naming a place ("Called Larkmoor SNF", "DISCUSSED GREYHOLM").
_REPORTING = frozenset({"called", "discussed", "likely", "possibly", "probably", "paged",
                        "faxed", "contacted", "notified", "spoke", "updated",
                        # "MEETS KING'S COLLEGE CRITERIA", "NOT YET MEETING KING'S COLLEGE"
                        "meets", "meeting", "met", "yet",
                        # "Rec Tremont Valley Rehabilitation", "Awaiting Kindred LTACH"
                        "rec", "recs", "recommend", "recommends", "awaiting", "options",
                        # whose clinic: "F/U APPTS: ..., PCP EASTWAY NEIGHBORHOOD CLINIC WED"
                        "pcp", "gp"})


def pieces(text: str, span: Span) -> list[Span]:
    """``span`` cut at blank lines, line breaks (not addresses), form gaps and field labels,
    each piece trimmed; pieces that are only a field label or whitespace go."""
    bounds = [(span.start, span.end)]
    bounds = _cut(text, bounds, _BLANK_LINE)
    if span.label not in _MULTILINE_LABELS:
        bounds = _cut(text, bounds, _LINE_BREAK)
    if span.label in NAME_LABELS or span.label in (Label.HOSPITAL, Label.OTHER):
        cut = _cut(text, bounds, _FORM_GAP)
        if len(cut) > len(bounds):  # the next field's label: "Zachary Lukas   Policy: ..."
            cut = cut[:1] + [(a, b) for a, b in cut[1:] if not _label_like(text[a:b])]
        bounds = cut
    if span.label is Label.LOCATION:
        bounds = [piece for a, b in bounds for piece in street_then_town(text, a, b)]
    if span.label in NAME_LABELS:
        bounds = _cut(text, bounds, _BETWEEN_NAMES)  # "ANNE AND KATHLEEN", "Greg & Allison"
    if span.label in NAME_LABELS:
        cut = _cut(text, bounds, _SPACED_DASH)
        if len(cut) > len(bounds):  # what follows the dash in charting words is no name
            cut = cut[:1] + [(a, b) for a, b in cut[1:] if not _all_charting(text[a:b])]
        bounds = cut
    if span.label in NAME_LABELS or span.label is Label.HOSPITAL:
        cut = _cut(text, bounds, _SENTENCE_END)
        if len(cut) > len(bounds):  # a sentence start is a capitalised word, not a name
            cut = [(a, b) for a, b in cut if not _all_english(text[a:b])]
        bounds = cut
    out: list[Span] = []
    for start, end in bounds:
        start, end = _without_labels(text, start, end)
        start, end = _strip(text, start, end)
        if span.label is Label.DATE and (lead := _LETTER_DASH.match(text, start, end)):
            start = lead.end()
        if span.label in NAME_LABELS:
            start, end = _without_clinical_edges(text, start, end)
        if span.label in NAME_LABELS or span.label is Label.HOSPITAL:
            start, end = _without_trailing_verb(text, start, end, span.label in NAME_LABELS)
        start, end = _strip(text, start, end)  # "ALSAIDI, H": no comma left after the edge
        if end <= start:
            continue
        if not out:
            out.append(span if (start, end) == (span.start, span.end)
                       else span.moved(start, end))
        else:
            out.append(replace(span, start=start, end=end, id=new_id()))
    return out


_FIELD_WORDS = frozenset({"email", "e-mail", "mail", "cell", "mobile", "tel", "phone", "fax",
                          "page", "pager", "mrn", "dob", "sex", "age", "device", "policy"})


def _label_like(covered: str) -> bool:
    letters = [c for c in covered if c.isalpha()]
    return len(letters) < 2 or _all_english(covered) \
        or covered.strip(" \t:-#").casefold() in _FIELD_WORDS


def _all_english(covered: str) -> bool:
    from engine.detectors.dictionary.context import is_english

    words = re.findall(r"[^\W\d_]+", covered)
    return bool(words) and all(is_english(w) for w in words)


def _all_charting(covered: str) -> bool:
    from engine.resolution.shorthand import clinical_or_english, is_shorthand

    words = re.findall(r"[^\W\d_]+", covered)
    return bool(words) and all(clinical_or_english(w.casefold()) or is_shorthand(w.casefold())
                               for w in words)


def _cut(text: str, bounds: list[tuple[int, int]], sep: re.Pattern[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in bounds:
        pos = start
        for gap in sep.finditer(text, start, end):
            out.append((pos, gap.start()))
            pos = gap.end()
        out.append((pos, end))
    return out


def _without_labels(text: str, start: int, end: int) -> tuple[int, int]:
    """Cut a span before the first field label inside it; drop a label at its start."""
    while True:
        # a label of several words may run past a span of its first ("HOSP" of "HOSP NO:")
        lead = _FIELD.match(text, start, min(len(text), end + 12))
        if lead is None or lead.start() != start:
            break
        start = lead.end()
        while start < end and text[start] in " \t":
            start += 1
    # The colon may lie just past the span's end ("... Age" + ":").
    for label in _FIELD.finditer(text, start + 1, min(len(text), end + 2)):
        if label.start() < end:
            return start, label.start()
    return start, end


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in ",;:"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:"):
        end -= 1
    return start, end


_CUE_WORDS = frozenset({"pt", "pts", "patient"})  # "pt cont": the cue is never the name


def _clinical_edge(word: str, neighbour: str) -> bool:
    """A lower-case head word beside a capitalised name ("Smith ward", not "Bruce Ward"), or
    capitals shorthand beside one ("HO Brandt")."""
    from engine.resolution.shorthand import is_shorthand

    key = word.casefold().strip(".,")
    if key in _CLINICAL_EDGE and word.islower() and not neighbour.islower():
        return True
    return word.isupper() and 2 <= len(word) <= 4 and not neighbour.isupper() \
        and is_shorthand(word) and not (len(word) == 2 and word[1] == ".")  # "M. daSilva"


# A verb or a state after a name: "intubated", "notified", "aware" (not "familia", "van").
_VERB = re.compile(r"[a-z]{2,}(?:ed|ing)|aware|here|present|agrees|states|reports|denies")
_APPROVALS = frozenset({"ok", "okay", "ok'd", "okd", "oked"})
_TOLD = frozenset(TOLD.split("|"))


# Lower-case words inside a name: "Ludwig van Beethoven", "Maria dos Santos".
_PARTICLES = frozenset({"van", "von", "der", "den", "de", "da", "das", "dos", "del", "della",
                        "di", "du", "la", "le", "bin", "ibn", "al", "el", "ter", "ten", "y", "e"})


def _without_trailing_verb(text: str, start: int, end: int, name: bool) -> tuple[int, int]:
    """"OSH intubated", "Brandt notified", "Yolanda faxing": a lower-case verb after capitals
    is the sentence going on, not the name (not a particle, "van", "and", nor a listed name);
    after a name in capitals an English one is ("MARGUERITE TOURED", "PHYLLIS FAXING"; a
    place keeps "LINDEN CROSSING NURSING"). A name ends at any other lower-case English word
    after a capitalised one ("brother Teodoro secondary") and at shorthand after a comma
    ("DR SZABO, KUB CONFIRMED")."""
    from engine.detectors.dictionary.context import is_english
    from engine.detectors.dictionary.names import is_listed_name
    from engine.resolution.shorthand import is_shorthand

    def goes_on(word: str, before: str) -> bool:
        if name and word.casefold() in _APPROVALS:
            return True  # "per adeyemi ok for tele floor"
        if name and word in ("more", "less", "MORE", "LESS"):
            return True  # "pt chee more awake today": a comparison, not "Thomas More"
        if is_listed_name(word):
            return False
        if name and word in _TOLD:
            return True  # "cards fellow dr akana paged", "md okafor aware" (no case to tell)
        if name and before.endswith(",") and is_shorthand(word) and len(word) > 1:
            return True  # not an initial: "RM 1 ALSAIDI, H 11 YO", "B1 FEKETE, L - COPD"
        if name and word.islower() and len(word) > 5 and word.endswith("ed") \
                and (is_listed_name(before) or before.isupper()):
            return True  # "sister marisol facetimed": a verb no dictionary holds (not
            # "-ing": "pt bud kettering" is a surname)
        if name and word.islower() and before[:1].isupper() and not before.isupper() \
                and word not in _PARTICLES and is_english(word) \
                and (is_listed_name(before) or not is_english(before)):
            return True  # not "La familia refiere"
        if word.isupper() and before.isupper():
            return name and bool(_VERB.fullmatch(word.lower())) \
                and (is_english(word) or word.endswith("ING"))
        return bool(_VERB.fullmatch(word)) and any(c.isupper() for c in before) \
            and (is_english(word) or name and word.endswith("ing"))

    words = list(re.finditer(r"\S+", text[start:end]))
    if name and len(words) > 1 and words[-1].group().casefold() == "made" \
            and _AWARE_AFTER.match(text, end):
        words.pop()  # "intensivist dr. kowalczyk made aware"
    while len(words) > 1 and goes_on(words[-1].group().rstrip(".,"), words[-2].group()):
        words.pop()
    trimmed = (start, start + words[-1].end()) if words else (start, end)
    if name and trimmed != (start, end):
        from engine.detectors.regex.staff import signs_the_note  # only when something went

        if signs_the_note(text, start, end):
            return start, end  # "K. BOWLING, LCSW" signs the note: a surname, not a verb
    return trimmed


_AWARE_AFTER = re.compile(r"[ \t]+(?i:aware)\b")


# "over Labor Day weekend", "the Oro Vista area": the day and the place are the identifiers.
_WEEKEND_AT_END = re.compile(r"(?<=\w)[ \t]+(?i:weekend)\Z")
# A clock time that no year can be, after a month and day: "Adm: Aug 2 1615".
_CLOCK_AT_END = re.compile(r"(?:(?<=[A-Za-z.][ \t]\d)|(?<=[A-Za-z.][ \t]\d\d))[ \t,]+"
                           r"(?:0\d|1[0-8]|2[1-3])[0-5]\d\Z")
_AREA = frozenset({"area", "region", "vicinity"})
# An interstate's number before a day: "MVC on I-15 Friday night".
_ROAD_NUMBER = re.compile(r"\d{1,3}[ \t]+")


def without_edge_words(text: str, span: Span) -> Span:
    """A joining word at either end, a day or a department after, a reporting verb before, a
    weekend or a clock time after a date or an interstate's number before one: none is part of
    the identifier. The guards judge the span as proposed first ("NEAR OXBOW SAT" is a place;
    "OXBOW" alone is an English word in capitals), so this only narrows."""
    if span.label is Label.DATE:
        after = _WEEKEND_AT_END.search(text, span.start, span.end) \
            or _CLOCK_AT_END.search(text, span.start, span.end)
        road = _ROAD_NUMBER.match(text, span.start, span.end) \
            if text[max(0, span.start - 2):span.start] in ("I-", "i-") else None
        start, end = road.end() if road else span.start, after.start() if after else span.end
        return span if (start, end) == (span.start, span.end) else span.moved(start, end)
    if span.label not in _EDGED_LABELS:
        return span
    start, end = _without_edge_words(text, span.start, span.end, span.label)
    return span if (start, end) == (span.start, span.end) else span.moved(start, end)


def _without_edge_words(text: str, start: int, end: int, label: Label) -> tuple[int, int]:
    from engine.detectors.dictionary.names import is_listed_name

    words = list(re.finditer(r"\S+", text[start:end]))
    place = label in (Label.HOSPITAL, Label.LOCATION)

    street = label is Label.LOCATION and text[start:start + 1].isdigit()  # "2551 Foster Via"

    def last_goes(word: str) -> bool:
        key = word.casefold().rstrip(".,")  # "MERCY MICU", "DR LINDQVIST MICU"
        return key in _JOINERS and not street or not any(c.isalnum() for c in word) \
            or key in _WHEN and not is_listed_name(key) \
            or (place or label in NAME_LABELS) and bool(_ICU.fullmatch(key)) \
            or place and key in _DEPARTMENTS or label is Label.LOCATION and key in _AREA \
            or label in NAME_LABELS and (bool(_CLOCK.fullmatch(key))  # "DR VANTERPOOL 1930"
                                          or key in _PAGER_OR_CREDENTIAL
                                          or key in _MEASURE_FIELDS
                                          or people_word(word)
                                          or (word.islower() or word.isupper()
                                              and len(key) > 3)  # not "PHAM, VAN LOC"
                                          and shorthand_word(key))

    def people_word(word: str) -> bool:  # "Saw Ba Thein, Karen elder"
        from engine.resolution.names_as_words import a_people_by_a_given_name

        last = start + words[-1].start()
        return a_people_by_a_given_name(text, last, last + len(word.rstrip(".,")))

    def shorthand_word(key: str) -> bool:  # "pt petersheim trach 8", "MR. STRUKELJ ECMO"
        from engine.resolution.shorthand import is_shorthand

        return len(key) > 2 and is_shorthand(key) and not is_listed_name(key)  # not "j" of
        # "hernandez, j", nor "mae" of "loretta mae" (a listed name)

    def first_goes(word: str) -> bool:
        key = word.casefold().rstrip(".,")  # "REV GREENE", "sw jen", "fellow tonight tran"
        if word.endswith(",") and key in _ROLES_BEFORE and key.isalpha() and len(key) > 3:
            return False  # "Bishop, Mary": a surname before the given name
        return key in _JOINERS or place and (key in _REPORTING or key in _FACILITY_KINDS) \
            or label in NAME_LABELS and (key in _ROLES_BEFORE or key in _SPEAKER) \
            or label in NAME_LABELS and key in _WHEN and not is_listed_name(key)

    def cut_at_slash(word: re.Match[str]) -> bool:  # the "S" of "MAPLEWOOD MANOR S/P FALL"
        return word.group() in ("s", "S") \
            and text[start + word.end():start + word.end() + 2] in ("/p", "/P")

    def shorthand_past(word: re.Match[str]) -> bool:  # the "REC" of "PT MULCAHY REC'D IN BED"
        from engine.resolution.shorthand import is_shorthand

        after = start + word.end()
        return label in NAME_LABELS and text[after:after + 2].casefold() in ("'d", "’d") \
            and is_shorthand(word.group().casefold() + "'d")

    def sex_letter(word: re.Match[str]) -> bool:
        """The "F" of "BED 8 HIGA F NSTEMI", "MCCANDLESS M, CATTLE CHUTE", "L. Reed F. ETOH"
        or "ramirez-del real m - degloving"; after a comma it is an initial ("Dhaliwal, J")."""
        from engine.resolution.shorthand import clinical_or_english
        from engine.resolution.unknown_words import verb_form

        letter, letter_end = word.group(), start + word.end()
        after = _WORD_AFTER.match(text, letter_end + (text[letter_end:letter_end + 1] == ","))
        return label in NAME_LABELS and letter.rstrip(".") in ("M", "F", "m", "f") \
            and after is not None and (clinical_or_english(after.group(1).casefold())
                                       or verb_form(after.group(1))) \
            and text[max(0, start + word.start() - 3):start + word.start()].strip()[-1:] != ","

    def counted_day(word: re.Match[str]) -> bool:  # the "day" of "pt ayala day 2 post tbi"
        return COUNTED_DAY.match(text, start + word.start()) is not None

    def susceptibility(last: str, before: str) -> bool:  # "fluconazole SDD, micafungin S"
        from engine.resolution.terms import drug_words

        return label in NAME_LABELS and last in ("S", "R", "I") \
            and before.casefold() in drug_words()

    while len(words) > 1 and (last_goes(words[-1].group()) or cut_at_slash(words[-1])
                              or shorthand_past(words[-1]) or counted_day(words[-1])
                              or sex_letter(words[-1])
                              or susceptibility(words[-1].group(), words[-2].group())):
        words.pop()
    while len(words) > 1 and first_goes(words[0].group()):
        words.pop(0)
    if not words:
        return start, end
    start, end = start + words[0].start(), start + words[-1].end()
    if label in NAME_LABELS and text[end - 1:end] in (",", ";") and end - start > 2:
        end -= 1  # "Saw Ba Thein, Karen elder": the name, not the comma before what he is
    if label in NAME_LABELS and text[end - 2:end] in ("'s", "’s", "'S", "’S") \
            and end - start > 3:
        end -= 2  # "Dr. Mbeki's fellow": the name, not its possessive
    if text[end - 1:end] == "." and end - start > 2 and _SENTENCE_GOES_ON.match(text, end) \
            and not _INITIAL_END.search(text[start:end]):
        end -= 1  # "at 44 Ashmont Terrace. Widowed", "Dr. Ng."
    return start, end


def _without_clinical_edges(text: str, start: int, end: int) -> tuple[int, int]:
    """"Smith ward" -> "Smith"; a one-word span is left to the guards."""
    words = list(re.finditer(r"\S+", text[start:end]))
    while len(words) > 1 and _clinical_edge(words[-1].group(), words[-2].group()):
        words.pop()
    while len(words) > 1 and (_clinical_edge(words[0].group(), words[1].group())
                              or words[0].group().casefold().rstrip(".:") in _CUE_WORDS):
        words.pop(0)
    if not words:
        return start, start
    return start + words[0].start(), start + words[-1].end()


def split_at_blank_lines(text: str, span: Span) -> list[Span]:
    """``span`` cut at every blank line inside it, each piece trimmed of whitespace (the
    first piece keeps the span's id). Whitespace-only pieces go."""
    if "\n" not in text[span.start:span.end]:
        return [span]
    bounds: list[tuple[int, int]] = []
    pos = span.start
    for blank in _BLANK_LINE.finditer(text, span.start, span.end):
        bounds.append((pos, blank.start()))
        pos = blank.end()
    if not bounds:
        return [span]
    bounds.append((pos, span.end))
    pieces: list[Span] = []
    for start, end in bounds:
        while start < end and text[start].isspace():
            start += 1
        while end > start and text[end - 1].isspace():
            end -= 1
        if end > start:
            pieces.append(span.moved(start, end) if not pieces
                          else replace(span, start=start, end=end, id=new_id()))
    return pieces
