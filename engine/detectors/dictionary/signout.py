"""A sign-out list's patients ("1. feld - hsv enceph d5", "2) Jang, ADHF", "BED 7 MWAMBA,
SAFARI 37M").

Residents hand over a list of items headed by the patient's name, with no title or cue before
it. Read in a note that calls itself a sign-out, hand-off or census, and only a word that
cannot be the problem the item is about: a listed name, or a word no English, clinical,
shorthand or drug list holds and no clinical ending shapes (dev 1-56: 32 items of 33 were
patients; a numbered problem list, "1. Rhabdo - CK 48k", reads the same without the heading).
An item that starts at a bed and gives age and sex after the name is a patient in any note
(dev 77-78: 47 of the 126 missed tokens were such items).
"""

from __future__ import annotations

import re
from functools import lru_cache

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.detectors.base import DetectorSpec
from engine.detectors.dictionary.context import clinical_words, is_english
from engine.detectors.dictionary.names import compound_surnames, is_listed_name
from engine.detectors.dictionary.stopwords import common_words

_SIGNOUT = re.compile(r"(?i:\bsign[ \-]?out|\bhand[ \-]?(?:off|over)|\bcensus\b|\boverflow\b"
                      r"|\bcross[ \-]?cover)")
_WORD = r"[^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)?"


@lru_cache(maxsize=1)
def _head() -> re.Pattern[str]:
    """Where an item starts: "1.", "2)", "1 -", "12 |", "- ", "B1", "b1" (not "b12"), "2 fisher
    s. 23f", a room ("403 TOOMER F TAVR", "412 - battle"), or a bed: "BED 4 -", "Rm 5", "-bed
    10", "[ ] bed 6" (a to-do box before it), "BED 9 (MAESTAS, 23 M". Compiled on first use:
    the bed's fragment lives with the rules, whose package compiles every rule when imported,
    and the desktop imports this module at start."""
    from engine.detectors.regex.fragments import BED

    return re.compile(r"(?m:^[ \t]*(?:\[[ xX]?\][ \t]*)?"
                      rf"(?:(?P<bed>(?:[-*•][ \t]*)?{BED})[ \t]*(?:[-–—:.)|(][ \t]*)?"
                      r"|(?:\d{1,2}[.)]|\d{1,3}[ \t]*[-–—|]|[-*•]|(?:B|b(?!12\b))\d{1,2}(?=[ \t])"
                      r"|\d{1,3}(?=[ \t]+[^\W\d_]))[ \t]*))")


# The first word, an initial, a particle or a nickname in quotes before it ("r. amaya", "de la
# cruz", "ST. CLAIR", "abu eid", '"CHIEF" LOONSFOOT'), not a newborn's "bb" ("bb vang 3 days").
_SURNAME = re.compile(rf"(?:(?i:bb|baby)[ \t]+)?(?:[\"“](?P<nick>[^\"”\n]{{1,20}})[\"”][ \t]+)?"
                      rf"(?P<name>(?:[^\W\d_]\.[ \t]?)?"
                      r"(?:(?i:de[ \t]+la|de|del|van[ \t]+der|van|von|st\.|abu|abou|ibn)[ \t]+)?"
                      rf"(?P<word>{_WORD}))")
# "LOPEZ IXCOY 33M", "yeung wing sze - 28f", "fisher s. 23f"
_SECOND = re.compile(rf"[ \t]+([^\W\d_]\.|{_WORD})")
_GIVEN = re.compile(rf",[ \t]*([^\W\d_]\.|{_WORD})(?:[ \t]+({_WORD}))?")  # "SUBBA, LOK NATH"


_DASH_AFTER = re.compile(r"[ \t]+[-–—]")
# How old, not who, between a surname's comma and the sex: "wiebe, elderly m", "GUERRA, YOUNG M".
_AGE_WORDS = frozenset("elderly young old older middle-aged adult teen teenage teenager"
                       " frail".split())


@lru_cache(maxsize=1)
def _age_sex() -> re.Pattern[str]:
    """Age and sex after the name, a nickname, a comma or a dash between: "58 M", "70f", "45 yo
    F", "12 YO", '("LOULOU") 10 YO', ", 72m", " - 28f", a child's age ("2 MO", "6 wk", "6 DAY
    OLD"), the age alone before a dash, or between commas ("melancon 57 - ugib", "boudreaux,
    alcide, 84, fall"), or the sex alone, how old in words before it: "DORVIL F HE GR 3", "wiebe,
    elderly m". Compiled on first use, as ``_head``."""
    from engine.detectors.regex.fragments import CHILD_AGE_UNIT

    return re.compile(r"(?:[ \t]+\(?[\"“][^\"”\n]{1,20}[\"”]\)?)?(?:,|[ \t]+[-–—])?[ \t]+"
                      r"(?:\d{1,3}[ \t]?(?:(?i:y/?o|y\.o\.|yrs?)\b[ \t]?)?[MFmf]\b(?!['’-])"
                      r"|\d{1,3}[ \t]?(?i:y/?o|y\.o\.|yrs?)(?![\w/])"
                      rf"|\d{{1,2}}[ \t]?{CHILD_AGE_UNIT}(?:[ \t\-]+(?i:old))?(?![\w/])"
                      r"|\d{1,3}(?=[ \t]+[-–—][ \t])|(?<=,[ \t])\d{2,3}(?=,[ \t]+[^\W\d_])"
                      rf"|(?:(?i:{'|'.join(sorted(_AGE_WORDS))})[ \t]+)?[MFmf]\b(?![.'’-]))")


# The item's first word, then a comma, a bracket, a dash, a bar or a nickname in quotes: "3)
# Halvorsen-Quaye - POD 0", "- ahn, copd/pna", "2. tuck (frat pt) - etoh", "5 - fa'alogo \"nana\"",
# "rm 11 | brach | hypoNa".
_END = re.compile(r"[ \t]*[,(]|[ \t]+[-–—|][ \t]|[ \t]?[–—][ \t]?|[ \t]+[\"“]")
# What a drug, a disease or an operation ends in ("Apixaban", "Deconditioning", "esld").
_CLINICAL_ENDING = re.compile(r"(?i:.*(?:ing|tion|itis|emia|penia|algia|uria|plegia|megaly|osis"
                              r"|ectomy|pathy|plasty|ism|ase"
                              r"|ide|ine|pam|lol|pril|sartan|xaban|parin|mab|nib|cillin"
                              r"|mycin|floxacin))")

# Who a newborn or a patient is by kind, not by name: "2. twin b 32 wk dol 4".
_KIND_OF_PATIENT = frozenset("twin twins triplet baby infant newborn neonate preemie boy girl"
                             " male female pt patient".split())
# What a patient is, not who: "BED 9 - SEPTIC 45M", "febrile", "anxious", "combative".
_STATE_ENDING = re.compile(r"(?:ic|ous|ive|ary|ile)\Z")


@lru_cache(maxsize=1)
def _allowlisted() -> frozenset[str]:
    from engine.resolution.allowlist import ClinicalAllowlist  # resolution imports detectors

    return ClinicalAllowlist.default().terms


def _clinical(word: str, every_part: bool = False) -> bool:
    """Clinical vocabulary: the word, or any part of it (with ``every_part``, all of its parts:
    "EL-ZEIN" before an age is a name although "el" is shorthand)."""
    from engine.resolution.shorthand import is_shorthand

    key = word.casefold()
    parts = [is_shorthand(p) or p in clinical_words() for p in key.split("-")]
    return key in _allowlisted() or is_shorthand(key) or (all(parts) if every_part else any(parts))


_ARABIC_PARTICLE = re.compile(r"^(?i:abu|abou|al|el)-(?=[^\W\d_]{3})")


def _a_surname(word: str, aged: bool = False) -> bool:
    """A name, not the problem an item is about. With age and sex after it ("TAASE 45 F",
    "fils-aime 50m", "popal 3 yo m") a rare word may be one: only a common word, a verb form,
    clinical vocabulary or an English word shaped like a drug or a state is no name."""
    listed_whole = is_listed_name(word)  # "al-hakimi"
    word = _ARABIC_PARTICLE.sub("", word)  # "ABU-GHAZALEH": the particle is no shorthand
    key = word.casefold()
    if _clinical(word, every_part=aged) or key in _KIND_OF_PATIENT:
        return False
    parts = key.split("-")
    listed = listed_whole or is_listed_name(word) or all(is_listed_name(p) for p in parts)
    if aged:  # not "hmong-speaking m", "BED 9 - SEPTIC 45M"
        from engine.resolution.unknown_words import verb_form

        return listed or not any(p in common_words() or verb_form(p) for p in parts) \
            and not _CLINICAL_ENDING.fullmatch(word) \
            and not (is_english(word) and _STATE_ENDING.search(key))
    if not listed and (_CLINICAL_ENDING.fullmatch(word) or word.isupper() and len(word) <= 4
                       or not word.isupper() and word[-1].isupper()
                       and sum(c.isupper() for c in word) > 1):
        return False  # "8. DTS - PHENOBARB PROTOCOL", "1. Apixaban (AF)", "2. HFrEF -"
    return listed or not any(is_english(p) for p in parts)


def _problem_after(text: str, pos: int) -> bool:
    """Clinical shorthand or vocabulary as the next word: "LVAD", "trach", "post", "NICM"."""
    from engine.resolution.shorthand import is_shorthand

    following = _SECOND.match(text, pos)
    if following is None:
        return False
    key = following.group(1).casefold()
    return is_shorthand(key) or key in clinical_words()


def _before_given(word: str) -> bool:
    """A surname before given names and an age ("hatch, t 19f", "Le, Van Sang M"): a listed
    name or any word that is no clinical word, verb form, state or kind of patient."""
    from engine.resolution.unknown_words import verb_form

    key = word.casefold()
    if key in _KIND_OF_PATIENT:
        return False
    return is_listed_name(word) or not (_clinical(word) or verb_form(key)
                                        or _STATE_ENDING.search(key))


def _following(text: str, pos: int, count: int) -> list[re.Match[str]]:
    found = []
    for _ in range(count):
        word = _SECOND.match(text, pos)
        if word is None:
            break
        found.append(word)
        pos = word.end()
    return found


def _an_initial(word: str, aged: bool, listed: bool = False, dash: bool = False) -> bool:
    """"RM 1 ALSAIDI, H 11 YO", "B1 FEKETE, L -", "wong, b. 67f"; in lower case only before an
    age ("hatch, t 19f") or in a sign-out ("hernandez, j, dka"). Without a stop, "M" and "F"
    are the sex ("YAZZIE, F, FROM CHINLE", "wiebe, f, horse kick") unless a dash closes the
    name ("DE SOUZA, M - SEPSIS")."""
    return len(word) == 1 and (word not in "MF" or dash) \
        and (word.isupper() or aged or listed and word not in "mf") \
        or len(word) == 2 and word[1] == "."


# A nickname in quotes between the name and its age ('ALCANTARA, REMEDIOS "MEDING" 79F').
_NICKNAME_AFTER = re.compile(r"[ \t]+[\"“]([^\W\d_][\w'’\-]*)[\"”]")


def _item_name(text: str, head: re.Match[str], listed: bool) -> list[tuple[int, int]]:
    """The patient heading one item: a surname, a second surname or given names after a comma
    when age and sex follow ("BED 7 MWAMBA, SAFARI 37M": a given name there may be an English
    word, "Rupa", "Hope"), and a nickname in quotes before it apart (the quotes are no name);
    nothing when the words are no name."""
    if not (listed or head.group("bed")):
        return []  # a numbered line outside a sign-out: only a bed says "patient" there
    surname = _SURNAME.match(text, head.end())
    if surname is None:
        return []
    words, end = [surname.group("word")], surname.end()
    pair = _SECOND.match(text, end)
    compound = False
    if pair is not None and (words[0].casefold(), pair.group(1).casefold()) in compound_surnames():
        words, end, compound = [words[0], pair.group(1)], pair.end(), True  # 'b3 "bub" poor bear'
    for more in (1, 2):  # the other words of a name that age and sex close
        following = _following(text, end, more)
        if len(following) == more and _age_sex().match(text, following[-1].end()) \
                and not _AGE_WORDS.intersection(m.group(1).casefold() for m in following) \
                or more == 1 and following and following[0].group(1).endswith(".") \
                and _END.match(text, following[0].end()):  # "9 petersheim o. - burns"
            words += [m.group(1) for m in following]
            end = following[-1].end()
            break
    given = _GIVEN.match(text, end)
    given_and_age = initial_closes = False
    if given:
        for count, stop in ((2, given.end()), (1, given.end(1))):
            names = [w for w in given.groups()[:count] if w]
            aged = _age_sex().match(text, stop) is not None
            initial_closes = count == 1 and names[0].endswith(".")  # "srisuk, s. cardiogenic"
            if count == 2 and len(names) == 2 and names[1] in "MF" \
                    and _age_sex().match(text, given.end(1)):
                continue  # "SOLIS, LUCIANO M - PUMP JACK": the sex, not an initial
            if len(names) == count and (aged or _END.match(text, stop) or initial_closes) \
                    and not _AGE_WORDS.intersection(w.casefold() for w in names) \
                    and all(_an_initial(w, aged, listed and count == 1,
                                        _DASH_AFTER.match(text, stop) is not None)
                            or (not _clinical(w, every_part=True) if aged else _a_surname(w))
                            for w in names):
                end, given_and_age = stop, aged
                break
            initial_closes = False
    aged = _age_sex().match(text, end) is not None
    # In a sign-out list, clinical shorthand right after a listed surname that is no English
    # word closes it ("bed 14 mcghee trach"); an unknown word there is as often shorthand that
    # no list holds ("tls pt", "mcc tbi").
    problem_after = listed and len(words) == 1 and not given_and_age and end == surname.end() \
        and _problem_after(text, end) and is_listed_name(words[0]) and not is_english(words[0])
    # the name's other words, before its age, may be words too ("yeung wing sze - 28f")
    if not (aged or _END.match(text, end) or initial_closes or problem_after) \
            or not (compound or _a_surname(words[0], aged)
                    or given_and_age and _before_given(words[0])) \
            or not all(_an_initial(w, aged) or not _clinical(w, every_part=True)
                       for w in words[1:]):  # "RM 1 LAPP B 16M"
        return []
    # A bed (the only head left outside a sign-out) and the age and sex after the name say
    # "patient" without a sign-out heading.
    if not (listed or aged):
        return []
    nickname = [surname.span("nick")] if surname.group("nick") else []
    after = _NICKNAME_AFTER.match(text, end)
    if after and _age_sex().match(text, after.end()):
        nickname.append(after.span(1))  # 'ALCANTARA, REMEDIOS "MEDING" 79F'
    return sorted(nickname + [(surname.start("name"), end)])


class SignoutNameDetector:
    """The patient who heads an item of a sign-out list."""

    spec = DetectorSpec(id="dictionary.signout_names", version=7, source=Source.DICTIONARY,
                        description="patients heading the items of a sign-out list")

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        ctx.check()
        text = doc.text
        listed = _SIGNOUT.search(text) is not None
        spans = []
        for head in _head().finditer(text):
            spans += [Span(start, end, Label.PATIENT, source=Source.DICTIONARY,
                           detector=self.spec.qualified, confidence=0.6)
                      for start, end in _item_name(text, head, listed)]
        return spans
