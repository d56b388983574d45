"""Name context and word lists shared by the name gazetteer, cue names and the guards.

A word that is both a name and an English or clinical word ("Hope", "Will", "Comfort", "Mae")
is a name only where the text says so: a title, a relation word, an explicit cue, an initial,
a credential or a provider phrase ("... aware", "... notified", "seen by ...") next to it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.core.errors import ConfigError
from engine.detectors.dictionary.lists import entries
from engine.paths import resource

ENGLISH_WORDS_FILE = ("dictionaries", "english_words.txt")
CLINICAL_WORDS_FILE = ("dictionaries", "clinical_words.txt")
COMMON_WORDS_FILE = ("dictionaries", "common_words.txt")

TITLES = (r"dr|drs|doctor|prof|professor|mr|mrs|ms|miss|mx|mister|sister|nurse|rn|np|pa|md"
          r"|rev|reverend|pastor|rabbi|imam|chaplain")
RELATIONS = (r"daughter|son|wife|husband|mother|mom|mum|father|dad|sister|brother|spouse"
             r"|partner|fiance|fiancee|girlfriend|boyfriend|friend|niece|nephew|aunt|uncle"
             r"|cousin|grandson|granddaughter|grandmother|grandfather|grandma|grandpa|grandniece"
             r"|grandnephew|grandnieces|grandnephews"
             r"|stepson|stepdaughter|stepmother|stepfather|sibling|child|guardian|caregiver"
             r"|neighbou?r|roommate|sdm|poa|proxy|hcp|nok|dtr|neice|grandaughter"
             r"|sponsor|boss|employer|coworker|co-worker|landlord|landlady|housemate"
             r"|daughter-in-law|son-in-law|mother-in-law|father-in-law|sister-in-law"
             r"|brother-in-law|dil|stepdad|stepmom"
             r"|mob|fob|mgm|mgf|pgm|pgf"  # a newborn's mother, father and grandparents
             # more than one: "SONS MARK AND PETER", "DAUGHTER TERESA AND GRANDKIDS HERE"
             r"|sons|daughters|brothers|sisters|grandsons|granddaughters|grandkids"
             r"|grandchildren|grandchild|kids|children|parents|siblings"
             # "foreman drove him in by pickup", "Ohana present throughout", "auntie Fetu"
             r"|foreman|forewoman|ohana|auntie|aunty|tutu")
# Who the patient is, never a name of theirs without a title: "PT: MAN W/ HTN".
PERSON_WORDS = frozenset({"man", "woman", "gentleman", "lady", "male", "female"})
# Explicit cues after which the next words are a name whatever the dictionaries say.
CUES = r"patient|pt|name|re|client|resident"
# A cue after "w/" is what was done with the patient, no name: "teaching done w/ pt: small sips".
_NOT_AFTER_WITH = r"(?<!w/ )(?<!w/)(?<!with )"
# A grade before "MR" makes it mitral regurgitation ("mod mr. post procedure"), no title.
_NOT_A_VALVE = r"(?<!mod )(?<!mild )(?<!trace )(?<!severe )(?<!moderate )(?<!trivial )"
# Abbreviated titles take a period ("Dr. Line"); after a credential a period ends the sentence
# ("given to RN. Line day 1.").
# "Fr. Amoroso" is a priest; "14 Fr. Foley" a catheter's size.
_TITLE = rf"(?:(?:dr|drs|prof|mr|mrs|ms|mx|rev)\.|(?<!\d[ \t])(?<!\d)fr\.|(?:{TITLES})(?![.]))"
# The titles that open Karen names, Sgaw and Pwo, for men and for women: "Saw Eh Doh", "Naw Hser
# Moo", "Nant Mu", "Mahn Ba".
KAREN_TITLES = frozenset({"saw", "naw", "nant", "mahn"})
# The fields a clinician's name fills: "ATTENDING: FEIST", "Referring physician: Dr. Osei",
# "Electronically signed by: ...". The name detectors read them after a line's start or a wide
# gap, the gazetteer's context right before a name.
DOCTOR_FIELDS = (r"(?:referring|attending|accepting|admitting|consulting|covering|ordering"
                 r"|intensivist|surgeon|physician|provider|pcp|gp|fellow|intern|resident"
                 r"|consultant|assistant|anesthesiologist|anaesthetist|nurse|rn|np|author"
                 r"|md\s+on|on[\s-]*call|family\s+(?:physician|doctor)|primary\s+care"
                 r"|(?:dictated|transcribed|signed|electronically\s+signed|reviewed|referred)\s+by"
                 r"|copy\s+to|copies\s+to)"
                 r"(?:\s+(?:md|physician|provider|surgeon|doctor))?")
_DOCTOR_FIELD_BEFORE = re.compile(rf"(?i:\b{DOCTOR_FIELDS}[ \t]*:[ \t]*)$")
_BEFORE = re.compile(
    rf"(?i:(?:{_NOT_A_VALVE}\b{_TITLE}|\b(?:{RELATIONS})(?:-in-law)?(?:\s*\(\w+\))?[:,]?"
    rf"|\bcharge(?:\s+(?:rn|nurse))?"  # "NIGHT CHARGE GINNY", "DAUGHTER-IN-LAW SUE"
    rf"|{_NOT_AFTER_WITH}\b(?:{CUES})\b\s*(?:name)?\s*[:#\-]?)\s*)$")
# \Z: "Sexo: H.⏎Fecha"; a rate's unit is none ("100 ML/H. FALL PRECAUTIONS"), nor a side
# compared ("diminished at bases L>R. Strong cough").
_INITIALS_BEFORE = re.compile(r"(?<![/<>=])(?<![<>=][ \t])\b(?:[A-Z]\.[ \t]?){1,3}[ \t]*\Z")
# Provider and contact phrases: "seen by Baker", "spoke with Young", in any case. Not before a
# service ("seen by Day team") and not for clinical words ("seen by Endo", "d/w Neuro").
PROVIDER_PHRASES = (r"(?:seen|examined|reviewed|assessed|evaluated|referred|dictated|signed"
                    r"|covered|followed|transcribed)\s+by")
_PROVIDER_BEFORE = re.compile(
    rf"(?i:\b(?:{PROVIDER_PHRASES}|discussed\s+with|d/w|spoke\s+(?:with|to))[ \t]+)$")
_SERVICE_AFTER = re.compile(r"(?i:^[ \t]+(?:team|service|staff|officer|resident|fellow|unit|rounds"
                            r"|and\s+(?:team|staff)))\b")
# What says a nickname in quotes follows: 'went by "Ruthie"', 'PREFERS TO BE CALLED "PEG"';
# "when called" only after how the patient responds ('settles some when called "deb"'; not
# 'when called "rapid response"').
NICKNAME_CUES = (r"(?:(?:went|goes|go|going)[ \t]+by|known[ \t]+as|nick-?named|nickname"
                 r"(?:[ \t]+(?:is|was))?|(?:likes|liked|prefers|preferred|wants|wanted)[ \t]+to"
                 r"[ \t]+be[ \t]+called|calls?[ \t]+(?:him|her|them|pt|patient)"
                 r"|refer(?:s|red)?[ \t]+to[ \t]+(?:him|her|them|pt|patient)[ \t]+as"
                 r"|referred[ \t]+to[ \t]+as|prefers|preferred)")  # 'Pt prefers "Hal"'
CALLED_WHEN = (r"(?:respond|settl|calm|turn|look|answer|wak|open|orient|quiet)[a-z]*\b"
               r"[^.\n\"“]{0,24}?\b(?:when|if|once)[ \t]+called")
_RELATION_AFTER = rf"(?i:[ \t]*\((?:{RELATIONS})\))"  # "FAMILY MEMBER HOPE (DAUGHTER)"
_TIME_WORDS = frozenset({"day", "days", "night", "nights", "week", "weeks", "month", "months",
                         "year", "years", "hour", "hours", "shift", "shifts", "minute"})
_REGARDING = re.compile(r"(?i:^re\b)")
_COUNT = re.compile(r"(?<![\w/.:])\d{1,2}[ \t]+\Z")
# The day of the stay, which ends a name before it: "pt kwadwo day 28", "pt ayala day 2".
COUNTED_DAY = re.compile(r"(?i:day|night|pod|hd)[ \t]+\d")
_VERB_AFTER = re.compile(r"(?i:[ \t]+(?:is\s+)?(?:aware|notified|paged|updated|at\s+bedside"
                         r"|in\s+to\s+visit)\b)")
_AFTER = re.compile(
    r"^(?:,?[ \t]*(?:M\.?D\b|D\.?O\b|MBBS|FRCPC|R\.?N\b|N\.?P\b|PhD|PA-C|P\.?A\b|LPN|RT\b)"
    r"|[ \t]+[A-Z]\.(?=[\s,;:)]|$)"
    r"|(?i:[ \t]+(?:is\s+)?(?:aware|notified|paged|updated|at\s+bedside"
    r"|in\s+to\s+visit)\b)"
    rf"|{_RELATION_AFTER})")


def has_name_context(text: str, start: int, end: int, *, verbs_after: bool = True) -> bool:
    """Does the text around ``[start, end)`` say that it is a person's name? ``verbs_after``:
    also a verb of being told after it ("Baker notified") and "re:" before, which in capitals
    come with charting words as often ("ORG NOTIFIED", "RE: EARLY RETURN TO OR")."""
    word = text[start:end].casefold()
    if word in _TIME_WORDS:
        return False  # "PER DAY RT BRUCKNER": a rate, then the therapist
    before = text[max(0, start - 40):start]
    cue = _BEFORE.search(before)
    if cue and (verbs_after or not _REGARDING.search(cue.group())) \
            and not _COUNT.search(before, 0, cue.start()) \
            or _INITIALS_BEFORE.search(before) or quoted_nickname(text, start):
        return True  # without case "RE: EARLY RETURN" is what it is about
    if _DOCTOR_FIELD_BEFORE.search(before) and not text[start:end].islower():
        return True  # "ATTENDING: FEIST"; not "attending: aware"
    provider = _PROVIDER_BEFORE.search(before)
    if provider and not _SERVICE_AFTER.match(text[end:end + 16]) \
            and word not in clinical_words() and not _COUNT.search(before, 0, provider.start()):
        return True  # not "staffing: 1 rn short": how many nurses
    after = _AFTER.match(text[end:end + 24])
    return after is not None and (verbs_after or not _VERB_AFTER.match(after.group()))


# A title or relation word, or a cue with a colon ("Name: Foley"); "pt foley" is no evidence.
_STRONG_BEFORE = re.compile(
    rf"(?i:(?:{_NOT_A_VALVE}\b{_TITLE}|\b(?:{RELATIONS})(?:\s*\(\w+\))?[:,]?"
    rf"|{_NOT_AFTER_WITH}\b(?:{CUES})\b\s*(?:name)?\s*[:#])\s*)$")
# A nickname in quotes: 'PREFERS TO BE CALLED "PEG"' makes a name of shorthand too.
_NICKNAME_BEFORE = re.compile(rf"(?i:\b(?:{NICKNAME_CUES}|{CALLED_WHEN})[ \t:,]*[\"“]\Z)")
# What the patient asks to be called: "PREFERS TO BE CALLED DELPHINE", "asks to be called nimo",
# or the family asks for them: 'ASKS THAT PT BE CALLED "RUSTY"', "wants him to be called Bo".
ASKS_TO_BE_CALLED = (r"(?:prefers|preferred|likes|wants|wanted|asks|asked|asking|requests"
                     r"|requested)(?:[ \t]+that)?(?:[ \t]+(?:pt|patient|he|she|him|her))?"
                     r"[ \t]+(?:to[ \t]+)?be[ \t]+called")
# Without quotes only where one person is said to be called so ("Pt, who goes by Peg", "known
# to family as Tonho"), not "meds go by PEG".
_SAID_TO_BE_CALLED = re.compile(
    r"(?i:\b(?:goes[ \t]+by|went[ \t]+by|known[ \t]+(?:to[ \t]+\w+[ \t]+)?as"
    rf"|{ASKS_TO_BE_CALLED}|liked[ \t]+to[ \t]+be[ \t]+called)[ \t]+\Z)")
# Not the subject of what follows: "new RLL opacity, MD aware" tells the doctor.
_CREDENTIAL_AFTER = re.compile(
    r"^(?:,?[ \t]*(?:M\.?D\b|D\.?O\b|MBBS|FRCPC|R\.?N\b|N\.?P\b|PhD|PA-C|P\.?A\b|LPN)"
    r"(?![ \t]+(?i:aware|notified|paged|called|informed|updated|at[ \t]+bedside)\b)"
    rf"|[ \t]+[A-Z]\.(?=[\s,;:)]|$)|{_RELATION_AFTER})")


def has_strong_name_context(text: str, start: int, end: int) -> bool:
    """A title, relation word, cue with a colon or initial before, what someone goes by, or a
    credential after: what makes even clinical shorthand a name ("Dr. Foley", "goes by Peg"),
    unlike "HO aware" or "pt swan"."""
    before = text[max(0, start - 40):start]
    return bool(_STRONG_BEFORE.search(before) or _INITIALS_BEFORE.search(before)
                or said_to_be_called(text, start) or _CREDENTIAL_AFTER.match(text[end:end + 24]))


def said_to_be_called(text: str, start: int) -> bool:
    """What begins at ``start`` is what someone is called, quoted or after "goes by"."""
    return quoted_nickname(text, start) \
        or bool(_SAID_TO_BE_CALLED.search(text[max(0, start - 40):start]))


def quoted_nickname(text: str, start: int) -> bool:
    """What begins at ``start`` is quoted as what someone is called ('PREFERS TO BE CALLED
    "PEG"', "Pt (Pip per family)"): a name even when it is shorthand."""
    return bool(_NICKNAME_BEFORE.search(text[max(0, start - 40):start])) \
        or text[start - 1:start] == "(" and bool(_FAMILY_CALLS_WORD.match(text, start))


# What the family calls the patient, in brackets after the word: "(Pip per family)".
FAMILY_CALLS = (r"[ \t]+(?i:per[ \t]+(?:(?:his|her|their)[ \t]+)?"
                r"(?:family|parents|mom|dad|wife|husband)"
                r"|(?:to|by)[ \t]+(?:(?:the|her|his)[ \t]+)?(?:family|kids|grandkids|friends))"
                r"(?:\)|,[ \t]+(?i:prefers|likes|goes)\b)")  # "(skip per his wife, prefers that"
_FAMILY_CALLS_WORD = re.compile(rf"[^\W\d_][\w'’\-]*{FAMILY_CALLS}")


def read_words(parts: tuple[str, str]) -> frozenset[str]:
    try:
        raw = resource(*parts).read_text(encoding="utf-8")
    except OSError as exc:  # a packaging error: fail closed
        raise ConfigError(f"the word list {parts[-1]} is missing") from exc
    words: set[str] = set()
    lines = entries(raw)
    for start in range(0, len(lines), 8192):  # C loops short enough to share the GIL
        words.update(map(str.casefold, lines[start:start + 8192]))
    return frozenset(words)


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Lower-case entries of Webster's 2nd (public domain; see the file's header)."""
    return read_words(ENGLISH_WORDS_FILE)


@lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """Common words of five other languages that are no English word, name or place (see the
    file's header and build_common_words.py). The file is generated casefolded, one word a
    line, so it is split, not parsed: half the time of read_words on 100,000 lines."""
    try:
        raw = resource(*COMMON_WORDS_FILE).read_text(encoding="utf-8")
    except OSError as exc:  # a packaging error: fail closed
        raise ConfigError("the word list common_words.txt is missing") from exc
    return frozenset(line for line in raw.split("\n") if line and not line.startswith("#"))


@lru_cache(maxsize=1)
def clinical_words() -> frozenset[str]:
    """Clinical words and abbreviations that are also names or places ("Endo", "MAE")."""
    return read_words(CLINICAL_WORDS_FILE)


SUFFIXES = (("ies", "y"), ("ied", "y"), ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"),
             ("es", ""), ("s", ""), ("ly", ""), ("er", ""), ("ers", ""))


# Webster's 2nd predates much of medicine ("hypoxemic", "euvolemia", "coagulopathy"); a long
# word with a medical suffix is a medical word, and no surname ends so.
# Prefixes charted before a word, run together or hyphenated ("REDOSE", "PREOP", "Post-fall").
WORD_PREFIXES = ("hyper", "hypo", "post", "pre", "re", "non", "un", "sub", "peri", "intra",
                 "inter", "extra", "anti", "over", "under", "semi", "trans")
# Before a hyphen "co" too ("ot/pt co-treat"); run together it starts too many words.
HYPHEN_PREFIXES = frozenset(WORD_PREFIXES) | {"co"}
_MEDICAL_SUFFIX = re.compile(r"[a-z]{4,}(?:emia|emic|itis|osis|otic|ectomy|otomy|ostomy|plasty"
                             r"|algia|pathy|scopy|penia|uria|philia|megaly|lysis|lytic)s?")


def is_english(word: str) -> bool:
    """A lower-case dictionary word or a regular inflection of one ("tolerating"), or a
    medical word by its suffix."""
    key = word.casefold().replace("’", "'")
    words = english_words()
    if key in words or key in clinical_words() or _MEDICAL_SUFFIX.fullmatch(key):
        return True
    for suffix, repl in SUFFIXES:
        if not key.endswith(suffix):
            continue
        base = key[: -len(suffix)] + repl
        if len(base) < 3:
            continue
        if base in words or (not repl and len(base) > 3 and base[-1] == base[-2]
                             and base[:-1] in words):  # "referred", "stopping"
            return True
    return False


def is_english_compound(word: str) -> bool:
    """"follow-up", "x-ray": every part of a hyphenated word is English ("Castellanos-Whitby"
    is not, although "castellanos" is a word)."""
    return all(len(part) < 2 or is_english(part) for part in word.split("-"))  # "e-mail"
