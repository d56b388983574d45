"""A model's name that is a word: a relation word, a drug or diagnosis of the clinical lexicon,
lower-case English words in a line that has case, a pronoun; and any detector's name that is
a saint's in a place's or device's name. The guards call these for name labels."""

from __future__ import annotations

import re

from engine.cire.lexicon import default_lexicon
from engine.core.domain import Source, Span
from engine.core.labels import NAME_LABELS
from engine.detectors.dictionary.context import (
    PERSON_WORDS,
    RELATIONS,
    has_name_context,
    is_english,
)
from engine.detectors.dictionary.names import all_name_lists, is_listed_name
from engine.detectors.regex.fragments import BED_BEFORE, MILITARY_RANKS, TOLD, YEARS_OLD
from engine.resolution.edges import in_caseless_line
from engine.resolution.generic_places import lower_case_english_words
from engine.resolution.roles import TITLE_BEFORE
from engine.resolution.terms import drug_words
from engine.resolution.unknown_words import verb_form

_RELATION_WORDS = frozenset(RELATIONS.split("|"))
_PRONOUNS = frozenset("i me my mine you your he him his she her hers we us our they them their"
                      " it its myself himself herself themselves".split())
_SAINT_BEFORE = re.compile(r"(?:\b(?:St|ST|Ste|STE|Saint|SAINT|st)\.?[ \t]+)\Z")
_RELATION_BEFORE = re.compile(rf"(?i:\b(?:{RELATIONS})\b(?:\s*\(\w+\))?[ \t:,\-]*\Z)")


def lower_case_english_name(text: str, span: Span) -> bool:
    """A model's name written as lower-case English words in a line that has case ("ICP bolt
    d/c'd", "as a beneficiary"), no listed name and nothing around it that says name: in a
    cased line a lower-case name is rare, and then a listed one or one with context ("wife
    christine", "md okafor aware"). Short words stay ("mom (al)")."""
    if span.source not in (Source.NER, Source.LLM) or span.label not in NAME_LABELS:
        return False
    words = lower_case_english_words(text, span)
    if not words:
        return False
    relation_before = _RELATION_BEFORE.search(text[max(0, span.start - 24):span.start])
    if relation_before and all(verb_form(w) for w in words):
        return True  # what the relative did: "daughter rang 0600"
    first, last = all_name_lists()
    context = has_name_context(text, span.start, span.end)
    # A listed name written as a word needs context ("wife faith", not "states faith has");
    # a relation word alone is no evidence for any other English word ("Daughter tearful").
    if any(w in first or w in last for w in words):
        if context:
            return False
    elif context and not relation_before:
        return False
    return not in_caseless_line(text, span.start)


def relation_before_a_name(text: str, span: Span) -> bool:
    """A relation word is no name: "Son Farouk called" (the word after it is), "GUARDIAN
    AWARE", "MOTHER'S CONDITION"."""
    key = text[span.start:span.end].casefold().replace("’", "'")
    key = key[:-2] if key.endswith("'s") else key
    return span.label in NAME_LABELS and key in _RELATION_WORDS


# What one gives a relative ("GIVE DAUGHTER LIST OF REHAB FACILITIES", "gave son copy"): the
# word after is the thing given.
_GIVEN_TO_A_RELATION = re.compile(
    rf"(?i:\b(?:give|gives|gave|given|giving|provided|handed|offered|sent|showed|brought)"
    rf"[ \t]+(?:the[ \t]+|pt'?s[ \t]+)?(?:{RELATIONS})[ \t]+\Z)")


# A relative's home or thing ("at her sisters house", "son's car"): the word after is a noun.
_RELATIONS_OWN = re.compile(rf"(?i:\b(?:{RELATIONS})['’]?s[ \t]+\Z)")
_OWNED = frozenset({"house", "home", "place", "apartment", "apt", "room", "farm", "car", "truck",
                    "trailer", "camp", "cabin", "wedding", "funeral", "party", "work", "job"})


def thing_given_to_a_relation(text: str, span: Span) -> bool:
    """One English word after "gave daughter", no first name ("List", not "Rose"), or a
    relative's home or thing ("at her sisters house")."""
    covered = text[span.start:span.end]
    if span.label not in NAME_LABELS or not _plain_word(covered):
        return False
    before = text[max(0, span.start - 40):span.start]
    return bool(_GIVEN_TO_A_RELATION.search(before)) \
        or covered.strip().casefold() in _OWNED and bool(_RELATIONS_OWN.search(before))


# "concerned re: bills", "discussed with OB re: debriefing": "re:" within a line is "about".
_ABOUT_BEFORE = re.compile(r"(?i:\S[ \t]+re:[ \t]*\Z)")


def topic_after_re(text: str, span: Span) -> bool:
    """A model's one English word after a mid-line "re:", no first name: the topic. ("Re:"
    opening a line heads a letter's subject, a name often.)"""
    return span.source in (Source.NER, Source.LLM) and span.label in NAME_LABELS \
        and _plain_word(text[span.start:span.end]) \
        and bool(_ABOUT_BEFORE.search(text[max(0, span.start - 24):span.start]))


# The patient's age before a word and the sex after it: "52 yo Karen F", "61 YO HMONG M", "78
# yo widowed F" (dev 1-101: 88 such words, none a name).
_AGE_BEFORE = re.compile(rf"(?i:\b\d{{1,3}}[ \t]*(?:{YEARS_OLD}|year[- ]old)[ \t]+)\Z")
_SEX_AFTER = re.compile(r"[ \t]+(?i:m|f|male|female|man|woman)\b")


def word_between_age_and_sex(text: str, span: Span) -> bool:
    """One word between the patient's age and sex says who the patient is, a people, a language
    or a marriage; a name never stands there."""
    covered = text[span.start:span.end]
    return span.label in NAME_LABELS and " " not in covered.strip() \
        and bool(_AGE_BEFORE.search(text[max(0, span.start - 16):span.start])) \
        and bool(_SEX_AFTER.match(text, span.end))


# Peoples of Burma whose names are given names too ("Karen", "Chin"), and what says the people
# is meant: its church, interpreter, elders or tongue after it ("Karen Baptist church", "karen
# interp line", "Karen elder"), a language's cue before it ("hymns in Karen", "Sgaw Karen"), or
# the patient's age and sex ("34f karen, postpartum", "19 F (KAREN)", "52 YO F, KAREN, SGAW").
PEOPLES_AS_NAMES = frozenset({"karen", "chin", "kachin", "shan"})
_PEOPLE_AFTER = re.compile(r"[ \t)]*(?i:baptist|church|interp|interpreter|elders?|speakers?"
                           r"|community|refugees?|language|new[ \t]+year)\b")
_PEOPLE_BEFORE = re.compile(rf"(?i:(?:\b(?:speaks?|speaking|sgaw|s'gaw|pwo|(?:hymns?|prayers?"
                            r"|prayed|sang|sings|songs?|interpreted|translated)[ \t]+in)[ \t]+"
                            rf"|\b\d{{1,3}}[ \t]*(?:{YEARS_OLD}[ \t]*)?[mf][ \t]*[,(]?[ \t]*))\Z")


def a_people_by_a_given_name(text: str, start: int, end: int) -> bool:
    """Is text[start:end] "Karen" or another of PEOPLES_AS_NAMES where the people is meant?"""
    return text[start:end].casefold() in PEOPLES_AS_NAMES \
        and text[end:end + 1] not in ("'", "’") \
        and bool(_PEOPLE_AFTER.match(text, end)
                 or _PEOPLE_BEFORE.search(text, max(0, start - 16), start))


def people_as_a_name(text: str, span: Span) -> bool:
    """"Karen" where the people is meant, alone or heading the span ("karen interp")."""
    first = re.match(r"[^\W\d_]+", text[span.start:span.end])
    return span.label in NAME_LABELS and first is not None \
        and a_people_by_a_given_name(text, span.start, span.start + first.end())


# A note's title and its topic: "micu progress note - methanol", "Event Note - Leukapheresis".
_TITLE_DASH_BEFORE = re.compile(r"(?i:\b(?:note|progress|update|event|consult)[ \t]*[-–:][ \t]*\Z)")


def topic_of_a_title(text: str, span: Span) -> bool:
    """A model's name after a note's title and a dash, in English, shorthand or drug words
    only, no first name: what the note is about ("micu progress - sulfonylurea ingestion")."""
    from engine.resolution.shorthand import clinical_or_english  # shorthand imports this module

    if span.source not in (Source.NER, Source.LLM) or span.label not in NAME_LABELS:
        return False
    line_start = text.rfind("\n", 0, span.start) + 1
    if not _TITLE_DASH_BEFORE.search(text[line_start:span.start]):
        return False
    first, _last = all_name_lists()
    words = text[span.start:span.end].split()
    return all(w.casefold() not in first and (clinical_or_english(w) or w.casefold() in
                                              drug_words()) for w in words)


def _plain_word(covered: str) -> bool:
    """One English word that is no first name (a surname may be a word: "List", "Bills")."""
    covered = covered.strip()
    first, _last = all_name_lists()
    return " " not in covered and is_english(covered) and covered.casefold() not in first


_TOLD_AFTER = re.compile(rf"[ \t]+(?i:{TOLD})\b")


def service_told(text: str, span: Span) -> bool:
    """A model's English word that no name list holds, before "aware" or "notified": a
    service told of something ("MORGUE AWARE", "Pharmacy notified"), not a person."""
    covered = text[span.start:span.end].strip()
    if span.source not in (Source.NER, Source.LLM) or span.label not in NAME_LABELS \
            or not _plain_word(covered) or is_listed_name(covered) \
            or has_name_context(text, span.start, span.end, verbs_after=False):
        return False  # "pt's wife birdie notified": a relation before says name
    return bool(_TOLD_AFTER.match(text, span.end))


def clinical_term_as_name(text: str, span: Span) -> bool:
    """A model's name that is a diagnosis, drug or symptom of the clinical lexicon written in
    lower case, even after a relation word ("Mother: melanoma.", "Maternal aunt: asthma"), or
    a drug that no name list holds in any case: only a title makes it a name ("Dr. foley")."""
    if span.source not in (Source.NER, Source.LLM) or span.label not in NAME_LABELS:
        return False
    covered = text[span.start:span.end]
    # where a capital says nothing ("MILRINONE")
    caseless = in_caseless_line(text, span.start, span.end)
    term = default_lexicon().whole(covered)
    if term is None:
        return False
    if not covered.islower() and not caseless and not (
            term.category == "organism"  # a genus is capitalised: "BAL w/ Klebsiella"
            or term.category == "drug" and not is_listed_name(covered)):  # "Amicar gtt"
        return False
    return not TITLE_BEFORE.search(text[max(0, span.start - 12):span.start])


def pronoun_as_name(text: str, span: Span) -> bool:
    """"family updated by phone by me": a pronoun names whoever wrote or is meant, no one;
    nor does a word for a person without a title ("PT: MAN W/ HTN"), a clergy title or a
    rank alone ("Family's rav, Rabbi Kornblit", "roommate pfc tremaine oakes") or a lower-case
    preposition ("per dunn-alvarez")."""
    covered = text[span.start:span.end].strip(".,")
    key = covered.casefold()
    return span.label in NAME_LABELS and (
        key in _PRONOUNS or key in _TITLES_ALONE
        or key in _TITLES_BEFORE_A_NAME and _name_follows(text, span.end)
        or key in _PREPOSITIONS and covered.islower()
        or key in PERSON_WORDS
        and not TITLE_BEFORE.search(text[max(0, span.start - 12):span.start]))


_TITLES_ALONE = frozenset("rav reb rebbe rev granthi".split()) | frozenset(MILITARY_RANKS)
# Titles that are surnames too ("Pastor", "Deacon", "Cantor"): a title only before a name.
_TITLES_BEFORE_A_NAME = frozenset("rabbi imam pastor reverend chaplain cantor deacon".split())
_PREPOSITIONS = frozenset("per with to at by for from of and or via".split())
_NEXT_WORD = re.compile(r"\.?[ \t]+([^\W\d_][\w'’\-]*)")


def _name_follows(text: str, end: int) -> bool:
    """"Rabbi Kornblit", "PASTOR OKAFOR": a capitalised word, or without case no English one."""
    word = _NEXT_WORD.match(text, end)
    if word is None:
        return False
    name = word.group(1)
    return name[:1].isupper() and not name.isupper() or name.isupper() and not is_english(name)


def saints_name(text: str, span: Span) -> bool:
    """"27mm St. Jude mechanical", "St. Mary's": a name after "St." is a saint's, in the
    name of a place or device that the place rules or the model take whole."""
    saint = _SAINT_BEFORE.search(text[max(0, span.start - 8):span.start])
    if span.label not in NAME_LABELS or saint is None or " " in text[span.start:span.end].strip():
        return False
    at = span.start - len(saint.group())
    return not TITLE_BEFORE.search(text[max(0, at - 8):at])  # "Dr. St. John" is his name


# A grade's or a team's letter read as an initial ("C4 AIS D. Good functional prognosis", "NLI
# C5, AIS D. UEMS 23", "MICU team B. Covering pgr"), a unit after its number ("crystalloid
# during event 1.5 L. Debrief done").
_GRADED_BEFORE = re.compile(r"(?i:\b(?:ais|asia|nyha|grade|class|stage|type|team)[ \t]+\Z)")
_GRADE_LETTER = re.compile(r"[A-E]\.?[ \t]")
_UNIT_LETTER = re.compile(r"(?<=\d)[ \t]?[LGM]\.[ \t]")
_BED_BEFORE = re.compile(BED_BEFORE)  # "Bed 3 M. Alston": an initial after a bed
_LATIN_ABBREVIATION = re.compile(r"(?i:e\.g|i\.e|etc|viz|cf)\.?")


def letter_not_a_name(text: str, span: Span) -> bool:
    """A grade's letter, a unit or a Latin abbreviation ("(e.g., rising pressor need)") where a
    name's initial or a name would stand."""
    if _LATIN_ABBREVIATION.fullmatch(text, span.start, span.end):
        return True
    return span.label in NAME_LABELS and (
        bool(_GRADE_LETTER.match(text, span.start))
        and bool(_GRADED_BEFORE.search(text[max(0, span.start - 8):span.start]))
        or bool(_UNIT_LETTER.match(text, max(0, span.start - 1)))
        and not _BED_BEFORE.search(text, max(0, span.start - 16), span.start))


def half_of_a_name(word: str) -> bool:
    """The other half of a hyphenated name: a listed name or no English word ("Beaumont-Ng";
    not "Kim-Chaplain")."""
    return is_listed_name(word) or not is_english(word)
