"""Towns written in lower case in telegraphic notes ("pt from springfield", "lives in
burlington w/ wife"): a place phrase before, a city of the location gazetteer after.

The gazetteer finds capitalised places, and lower-case ones only on lines without case;
on a mixed-case line a lower-case town needs the place phrase. It is never an English,
common or clinical word ("from home", "in bed", "to icu"). A name made only of English words
("grand rapids", "green bay") is a town when it has two or more full words, none a function
or clinical word ("in good spirits" is no gazetteer name). A town that is also an eponym
("glasgow", "addison", "cushing", "wilson") needs a phrase that says where someone lives or
comes from ("lives in addison", "pt from glasgow"), never before a score or an eponym's head
("drop in glasgow to 8", "kf rings in wilson", "from glasgow coma scale 15").
"""

from __future__ import annotations

import re

from engine.core.labels import Label
from engine.detectors.regex.rule import RegexRule

# "from", "in", "to" end every longer phrase of the kind ("lives alone in", "transferred
# from", "moved to"); the town follows.
_PLACE = r"(?i:\b(?:from|in|to)[ \t]+)"
_LOWER = r"[a-z][a-z'’]+"
# Not an eponym's disease, scan or scale ("in parkinson disease", "to glasgow coma scale").
_NOT_EPONYM = (r"(?![ \t]+(?i:disease|syndrome|scan|sign|score|scale|coma|type|procedure"
               r"|classification|criteria|reflex|phenomenon|test|maneuver|manoeuvre)\b)")
# Eponyms that are also gazetteer towns and come lower-case after "in"/"to" in notes.
_EPONYMS = frozenset({"parkinson", "chiari", "roux", "addison", "hida", "cushing", "crohn",
                      "hodgkin", "raynaud", "barrett", "guillain", "barre", "kawasaki",
                      "hashimoto", "alzheimer", "graves", "bell", "horner", "marfan", "turner",
                      "down", "glasgow", "wilson", "huntington", "norton", "morton", "ewing",
                      "willis", "lennox"})
# Of those, the ones that are towns people come from, neither English words ("bell", "down")
# nor names used only for the disease ("parkinson", "kawasaki"): found only after a phrase of
# residence or origin (HOME).
_EPONYM_TOWNS = frozenset({"glasgow", "addison", "cushing", "wilson", "huntington", "norton",
                           "morton", "ewing", "willis", "lennox"})
# Where someone lives or comes from, not a cause ("htn from cushing", "suffers from addison",
# "weakness was from addison"): "lives in", "moved to", "transferred from", "born in",
# "pt from", "dtr from".
HOME = (r"(?i:\b(?:(?:lives|living|live|resides|residing|born|raised|moved|relocated|home"
        r"|transfer(?:red)?|visiting|originally)[ \t]+(?:in|to|from)|grew[ \t]+up[ \t]+in"
        r"|(?:pt|patient|he|she|came|comes|family|wife|husband|son|daughter|dtr|mother"
        r"|father|sister|brother|sibling|friend|parents)[ \t]+(?:is[ \t]+)?from)[ \t]+)")
HOME_BEFORE = re.compile(HOME + r"$")  # the phrase right before a candidate
# A score after the word ("glasgow 8"), or its possessive ("addison's"): the eponym.
_NOT_SCORE = r"(?![ \t]*\d|['’])"


# Verbs an infinitive opens with, which begin few towns' names ("offered to open door" is no
# town of "Open Door").
_INFINITIVES = frozenset("open go come get see have take make keep walk sit stand turn call help"
                         " talk give put let try stay leave eat drink sleep rest move use pray"
                         " bring visit watch play read hold be do say ask feel look find wait"
                         " start stop return speak die".split())


def _town(text: str) -> bool:
    """A gazetteer city in lower case; one word must be no word at all, longer names ("south
    burlington") one word that is not common English or only full words that are no function
    word ("grand rapids"); none may be clinical."""
    from engine.detectors.dictionary.context import clinical_words, is_english
    from engine.detectors.dictionary.locations import (
        english_phrase,
        location_table,
        plain_town_words,
    )
    from engine.resolution.shorthand import is_shorthand

    words = tuple(text.casefold().split())
    if location_table().phrases.get(words) != "CITY" or any(
            w in clinical_words() or w in _EPONYMS or is_shorthand(w) for w in words):
        return False
    if len(words) == 1:
        return not is_english(words[0])
    if words[0] in _INFINITIVES:
        return False
    # Every word English ("grand rapids", "great falls"): full words only, no function word
    # ("the range", "in the bottom" are gazetteer names too).
    return not english_phrase(words) or plain_town_words(words)


def _eponym_town(text: str) -> bool:
    """"addison", "glasgow": a gazetteer city that shares its name with an eponym."""
    from engine.detectors.dictionary.locations import location_table

    key = text.casefold()
    return key in _EPONYM_TOWNS and location_table().phrases.get((key,)) == "CITY"


def _uncommon_word_town(text: str) -> bool:
    """"lives in dearborn", "PT FROM REVERE": a gazetteer city that is an English word, but no
    common, clinical or shorthand one ("lives in mobile home", "moved to reading glasses")."""
    from engine.detectors.dictionary.context import clinical_words, is_english
    from engine.detectors.dictionary.locations import location_table
    from engine.detectors.dictionary.stopwords import common_words
    from engine.resolution.shorthand import is_shorthand

    key = text.casefold()
    return location_table().phrases.get((key,)) == "CITY" and is_english(key) \
        and key not in common_words() and key not in clinical_words() \
        and key not in _EPONYMS and not is_shorthand(key)


def _home_town(text: str) -> bool:
    return text[0].islower() and _eponym_town(text) or _uncommon_word_town(text)


_WORD = r"[^\W\d_][\w'’]*"
# French phrases of English and clinical use that are built like a town's name.
_FRENCH_PHRASES = frozenset({"cul-de-sac", "café-au-lait", "cafe-au-lait", "vis-à-vis",
                             "tête-à-tête", "tete-a-tete", "pied-à-terre", "fleur-de-lis",
                             "coup-de-grâce", "coup-de-grace", "laissez-faire"})


def _not_a_french_phrase(text: str) -> bool:
    return text.casefold() not in _FRENCH_PHRASES


# Where someone lives, a few words before the place ("living alone in an apartment in
# Tallowcreek", "lives w/ daughter in Marrow Falls"): a capitalised name no list holds.
_LIVES_IN = (r"\b(?i:lives|living|lived|resides|residing|moved|relocated)\b"
             r"(?:[ \t]+[a-z/]+){0,5}?[ \t]+(?i:in|to|near)[ \t]+")


def _unknown_place_name(text: str) -> bool:
    """A first word that no English, clinical, shorthand or first-name list holds (a town's
    head may follow: "Quillmont Heights")."""
    from engine.detectors.dictionary.context import clinical_words, is_english
    from engine.detectors.dictionary.names import all_name_lists
    from engine.resolution.shorthand import is_shorthand

    first, _last = all_name_lists()
    word = text.split()[0].casefold()
    return not is_english(word) and not is_shorthand(word) and word not in clinical_words() \
        and word not in first


def _no_clinical_word(text: str) -> bool:
    """No word of the name is clinical shorthand ("at Set Point", "on Pressure Point")."""
    from engine.resolution.shorthand import is_shorthand

    return not any(is_shorthand(w) for w in text.split()[:-1])


# Longest first: "from south burlington" is one town, not "south".
TOWN_RULES: tuple[RegexRule, ...] = tuple(
    RegexRule(f"town.lower_{n}", Label.LOCATION,
              rf"{_PLACE}({_LOWER}(?:[ \t]+{_LOWER}){{{n - 1}}})(?![\w\-]){_NOT_EPONYM}", 0.55,
              subtype="CITY", group=1, validate=_town)
    for n in (3, 2, 1)) + (
    # "per boston pd request", "new bedford fire dept": a town's police, fire or ambulance.
    *(RegexRule(f"town.agency_{n}", Label.LOCATION,
                rf"(?<![\w\-])({_LOWER}(?:[ \t]+{_LOWER}){{{n - 1}}})(?=[ \t]+(?:pd|police|fd"
                r"|fire[ \t]+dep(?:artmen)?t|ems)\b)", 0.55, subtype="CITY", group=1,
                validate=_town) for n in (2, 1)),
    RegexRule("town.lives_in", Label.LOCATION,
              rf"{_LIVES_IN}([A-Z][a-z]{{3,}}(?:[ \t]+[A-Z][a-z]{{2,}})?)\b(?![ \t]*[(/])",
              0.5, subtype="CITY", group=1, validate=_unknown_place_name),
    # Quebec and Acadian towns, in any case: "from Ste-Odile", "near ANSE-AUX-HERONS", "lives
    # in sainte-rose-de-la-batture" (not "cul-de-sac", "cafe-au-lait", "ST-ELEVATION").
    RegexRule("town.french_compound", Label.LOCATION,
              rf"(?<![\w\-])(?!(?i:(?:st|saint)-jean-baptiste)\b)"
              rf"((?:(?i:ste|saint|sainte)-|St-(?=[A-ZÀ-Ý])){_WORD}"
              rf"(?:-{_WORD})*|{_WORD}(?:-{_WORD})*-(?i:aux|au|de|du|des|la|le|les|sur|en|à)"
              rf"-{_WORD}(?:-{_WORD})*)(?![\w\-])", 0.55, subtype="CITY", group=1,
              validate=_not_a_french_phrase),
    # A named place of nature after a preposition, in a line with case: "spearfishing off
    # Kaiolu Point", "arrived from Marlow Creek", "lives in Harrow Falls" (on dev 1-48 and
    # presidio this shape was a place 114 times in 114).
    RegexRule("town.natural_feature", Label.LOCATION,
              r"\b(?:off|at|near|in|from|on|to|by)[ \t]+(?:the[ \t]+)?"
              r"((?:[A-Z][a-z'’]+[ \t]+){1,2}(?:Point|Beach|Bay|Lake|Creek|Ridge|Falls|Springs"
              r"|Harbou?r|Island|Canyon|Reservoir|River|Mountain|Cove|Lagoon|Peak|Pond|Gulch"
              r"|Bluffs?|Crossing|Junction|Landing|Hollow))\b(?![ \t]*\d)", 0.55, subtype="CITY",
              group=1, validate=_no_clinical_word, on_view=False),  # not "at Rest Point 88%"
    # Where someone lives or comes from, one scan for both: an eponym's town in lower case
    # ("lives in addison", "pt from glasgow") and a town that is an uncommon English word
    # ("LIVES IN DEARBORN W/ SON", "pt from revere").
    RegexRule("town.home", Label.LOCATION,
              rf"{HOME}([A-Za-z][a-z'’]+)(?![\w\-]){_NOT_EPONYM}{_NOT_SCORE}", 0.5,
              subtype="CITY", group=1, validate=_home_town),)
