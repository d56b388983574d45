"""What a name rule's capture must be to stand: the validators of regex.names. They read the
name lists, the English and shorthand inventories and the clinical lexicon inside the call, so
the regex detectors load before any of those."""

from __future__ import annotations

import re

from engine.detectors.regex.fragments import KIN_TITLES, MONTH, WEEKDAY


def listed_uncommon_name(text: str) -> bool:
    """A listed name that is no common, clinical or shorthand word (resolution.shorthand)."""
    from engine.resolution import shorthand

    return shorthand.listed_uncommon_name(text)


def named_words(text: str) -> bool:
    """Every word a listed name or unknown to the English and shorthand lists ("Pt Is 46 Yo"
    in a cased view is no name; resolution.shorthand)."""
    from engine.resolution import shorthand

    return all(shorthand.named_word(w.strip()) for w in text.split(","))


def aged_surname(text: str) -> bool:
    """A surname after the patient's age and sex, not who the patient is ("38 yo m,
    indonesian,"): ``named_words`` and no people, faith or language of the allowlist."""
    from engine.resolution.terms import faith_and_language_words

    return named_words(text) and text.strip().casefold() not in faith_and_language_words()


# What a note phones rather than names: "Called Respiratory Services", "called Patient
# Transport", "called Bed Management".
_CALLED_SERVICES = frozenset("services service department dept office desk transport management"
                             " registration admitting security".split())


def caseless_named(text: str) -> bool:
    """Written without case ("CALLED CT SURG"), every word a listed name or no known word; with
    case the capitals say name, unless a service is what was called ("Called Respiratory
    Services")."""
    from engine.detectors.dictionary.names import is_listed_name
    from engine.resolution import shorthand

    if not (text.isupper() or text.islower()):
        return text.split()[-1].casefold() not in _CALLED_SERVICES
    return all(is_listed_name(w) or shorthand.named_word(w) for w in text.split())


def surname_word(text: str) -> bool:
    """A listed name that is no common word, or a capitalised word no list knows ("Brannigan";
    not "Protocol", "Neuro", "Day"); of several words, one such ("Chaplain Visit Note" has
    none)."""
    from engine.detectors.dictionary.context import is_english
    from engine.resolution import shorthand

    return any(shorthand.listed_uncommon_name(word)
               or not is_english(word) and not shorthand.is_shorthand(word)
               for word in text.split())


_ENDEARMENTS = frozenset("honey hon sweetie sweetheart dear darling babe baby love buddy pal boss"
                         " chief doc sir maam ma'am kiddo".split())


def nickname(text: str) -> bool:
    """A nickname, not a description ("the mayor") or a term of endearment ("honey")."""
    words = text.casefold().split()
    return words[0] not in ("the", "a", "an", "my", "his", "her", "their", "our") \
        and " ".join(words) not in _ENDEARMENTS


_POINTING = frozenset({"this", "that", "it", "these", "those"})  # "rosie (goes by this)"


def word_or_listed_name(text: str) -> bool:
    """After "prefers to be called": one word a name list holds ("DELPHINE", a word too) or
    no English, clinical or shorthand list does; not "by her first name"."""
    from engine.detectors.dictionary.names import is_listed_name
    from engine.resolution.shorthand import is_shorthand

    return text.casefold() not in KIN_TITLES and text.casefold() not in _POINTING \
        and not text.casefold().endswith("-speaking") and (
        unlisted_word(text) or nickname(text) and is_listed_name(text)
        and not is_shorthand(text) and text.casefold() not in _CALL_ME_BACK)


# After "prefers to be called", a word that ends the sentence: a title, a kin word or a
# pronoun starts a description ("by her first name", "Mrs. Okafor", "grandma"), and a time
# says when to phone ("wants to be called overnight.", "asked to be called before").
_NOT_CALLED = frozenset({"by", "his", "her", "their", "mr", "mrs", "ms", "miss", "dr", "first",
                         "last", "middle", "mom", "mother", "dad", "father", "grandma",
                         "grandpa", "nana", "papa", "sir", "maam", "ma'am", "something",
                         "overnight", "before", "after", "at", "home", "daily", "nightly",
                         "tmrw", "prn", "whenever", "anytime", "once", "soon", "w/", "with",
                         "for", "about", "re", "regarding", "prior", "around", "during"})


def called_word(text: str) -> bool:
    """'PREFERS TO BE CALLED SKIP.': what the patient asks to be called, an English word too,
    where the sentence ends with it."""
    return quoted_call_me_name(text) and text.casefold() not in _NOT_CALLED


_DAY_OR_MONTH = re.compile(rf"(?i:{WEEKDAY}|{MONTH})")


def capitalised_word(text: str) -> bool:
    """A capitalised word that is no shorthand, day or month ("Peanut"; not "ICU", "Monday")."""
    from engine.resolution.shorthand import is_shorthand

    return not is_shorthand(text) and not _DAY_OR_MONTH.fullmatch(text) \
        and text.casefold() not in KIN_TITLES  # "Family calls her Nanay Cora"


def unlisted_word(text: str) -> bool:
    """One word that no English, clinical or shorthand list holds ("Delphine"; not "by her
    first name", "(deceased)", "(HCP)", "GUARDIAN (CHIN) STITCH")."""
    from engine.resolution.shorthand import clinical_or_english, is_shorthand

    return nickname(text) and not clinical_or_english(text) and not is_shorthand(text)


def unlisted_word_not_speaking(text: str) -> bool:
    """'the sister (Ilda)'; not how a relative speaks: "parents (Mandarin-speaking)". A language
    alone ("sister (English)") is the allowlist's (faiths_and_languages.txt)."""
    return unlisted_word(text) and not text.casefold().endswith("-speaking")


def named_after_mr(text: str) -> bool:
    """After "MR." a listed name, or a word no English or shorthand list holds: in charting "MR"
    is as often the valve ("FUNCTIONAL MR. NO LV THROMBUS", "no worsening MR. Placement")."""
    from engine.detectors.dictionary.context import is_english
    from engine.detectors.dictionary.names import is_listed_name
    from engine.resolution.shorthand import is_shorthand

    first = text.split()[0]
    parts = [p for p in re.split(r"[-–]", first) if p]  # "MR MILD-MOD": the valve's grade
    return is_listed_name(first) or any(is_listed_name(p) for p in parts[1:]) \
        or not all(is_english(p) or is_shorthand(p) for p in parts)


# What a person field or a family's bracket holds when it names no one: "caregiver: pt's
# cousin", "Informant: self", "HOME MEDS (NONE PER FAMILY)".
_NO_ONE = frozenset({"pt", "pts", "patient", "patients", "self", "none", "unknown", "na", "n/a",
                     "not", "no", "same", "see", "nil", "nobody", "all", "both", "tbd",
                     "pending", "unassigned"})


def someone_named(text: str) -> bool:
    """A person field's name, not the patient or a relation word in its place, nor a family
    history's disease ("Father: Prostate cancer", "Mother: Non-Hodgkin lymphoma")."""
    from engine.cire.lexicon import default_lexicon

    first = re.sub(r"['’]s$", "", text.split()[0].casefold())
    return first not in _NO_ONE and not first.startswith("non-") \
        and default_lexicon().whole(first) is None


def bracketed_nickname(text: str) -> bool:
    """"PT (GOES BY TRIP)": a nickname in brackets may be an English word, not shorthand."""
    from engine.resolution.shorthand import is_shorthand

    return nickname(text) and not is_shorthand(text) and text.casefold() not in _POINTING


# Words after "called" that say when or how, not who ("wants to be called too").
_CALL_ME_BACK = frozenset({"back", "later", "anytime", "tomorrow", "again", "when", "if", "now",
                          "first", "asap", "please", "today", "tonight", "directly", "instead",
                          "too", "also", "either", "early", "only"})


def quoted_call_me_name(text: str) -> bool:
    """'"call me dot, everyone does"': a nickname, even an English word; not "call me back"."""
    return bracketed_nickname(text) and text.casefold() not in _CALL_ME_BACK


def alias_name(text: str) -> bool:
    """"Doe, Quartz", "zebra, unknown": some word of it no shorthand or clinical word (not
    "registered as inpatient, obs")."""
    from engine.detectors.dictionary.context import clinical_words
    from engine.resolution.shorthand import is_shorthand

    return not all(is_shorthand(w) or w.casefold() in clinical_words()
                   for w in re.findall(r"[^\W\d_][\w'’\-]*", text))


def family_nickname(text: str) -> bool:
    """'Pt (Pip per family)': one word, no ICU or clinical word or verb form ("(DNR per
    family)", "(confirmed per family)"); the inventories' rarer senses ("PIP") give way to
    the brackets."""
    from engine.detectors.dictionary.context import clinical_words
    from engine.resolution.shorthand import icu_words
    from engine.resolution.unknown_words import verb_form

    key = text.casefold()
    return nickname(text) and key not in icu_words() and key not in clinical_words() \
        and not verb_form(text) and key not in _NO_ONE  # "HOME MEDS (NONE PER FAMILY)"


def named_when_called(text: str) -> bool:
    """'settles when called "deb"': one word, no shorthand unless a name list holds it
    ('calms when called "stat"' is an order)."""
    from engine.detectors.dictionary.names import is_listed_name
    from engine.resolution.shorthand import is_shorthand

    return " " not in text.strip() and nickname(text) \
        and (is_listed_name(text) or not is_shorthand(text))


def not_a_service(text: str) -> bool:
    """A name before a credential, not a service, a state or a contraction: "Thoracic Surgery
    PA Progress Note", "Deconditioned, PT/OT recommend", 'STATED "I CAN'T DO THIS"' are words
    no name list holds."""
    from engine.detectors.dictionary.names import is_listed_name
    from engine.resolution.shorthand import clinical_or_english, is_prefixed_word
    from engine.resolution.terms import faith_and_language_words
    from engine.resolution.unknown_words import verb_form

    if re.search(r"(?i:-speaking)\b", text):
        return False  # "Acadian French-speaking RN": which language, not who
    words = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)*", text)
    if all(len(w) == 1 or w.casefold() in faith_and_language_words() for w in words):
        return False  # "47 yo M Filipino, RN at a dialysis unit": who the patient is
    return not all(_CONTRACTION.fullmatch(w) or (
        clinical_or_english(w) or is_prefixed_word(w) or verb_form(w))
        and not is_listed_name(w) for w in words)


# A service and a grade of doctor, as British notes name who referred or reviewed ("Referred
# by: Medical Reg", "Surgical SHO", "On-call FY1"): no one's name ("Reg Hollis" is).
_SERVICE_GRADE = re.compile(
    r"(?i:(?:(?:medical|surgical|ortho\w*|cardiology|cardiac|renal|respiratory|resp|gastro"
    r"|neuro\w*|ha?ematology|oncology|icu|itu|ana?esthe\w*|pa?ediatric|obstetric|general"
    r"|vascular|urology|plastics|on-?call|night|day|acute|ed|a&e)[ \t]*)+"
    r"(?:reg|registrar|sho|spr|fy[12]|f[12]|consultant|team)?)")


def not_a_grade(text: str) -> bool:
    """A doctor field's name, not a service and grade in its place ("Medical Reg"), nor what
    stands there for none ("PCP: NONE.", "PCP: unknown") or a clinic by its language ("PCP:
    Hmong-speaking clinic")."""
    key = text.strip().casefold()
    return not (_SERVICE_GRADE.fullmatch(text.strip()) or key in _NO_ONE
                or key.endswith("-speaking"))


_CONTRACTION = re.compile(r"(?i:[a-z]+['’](?:t|ll|re|ve|d|m))")
