"""Towns written in lower case in telegraphic notes ("pt from springfield", "lives in
burlington w/ wife"): a place phrase before, a city of the location gazetteer after.

The gazetteer finds capitalised places, and lower-case ones only on lines without case;
on a mixed-case line a lower-case town needs the place phrase. It is never an English,
common or clinical word ("from home", "in bed", "to icu").
"""

from __future__ import annotations

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
                      "down"})


def _town(text: str) -> bool:
    """A gazetteer city in lower case; one word must be no word at all, longer names ("south
    burlington") need one word that is not common English; none may be clinical."""
    from engine.detectors.dictionary.context import clinical_words, is_english
    from engine.detectors.dictionary.locations import location_table
    from engine.detectors.dictionary.stopwords import common_words
    from engine.resolution.shorthand import is_shorthand

    words = tuple(text.casefold().split())
    if location_table().phrases.get(words) != "CITY" or any(
            w in clinical_words() or w in _EPONYMS or is_shorthand(w) for w in words):
        return False
    if len(words) == 1:
        return not is_english(words[0])
    return not all(w in common_words() or is_english(w) for w in words)


# Longest first: "from south burlington" is one town, not "south".
TOWN_RULES: tuple[RegexRule, ...] = tuple(
    RegexRule(f"town.lower_{n}", Label.LOCATION,
              rf"{_PLACE}({_LOWER}(?:[ \t]+{_LOWER}){{{n - 1}}})(?![\w\-]){_NOT_EPONYM}", 0.55,
              subtype="CITY", group=1, validate=_town)
    for n in (3, 2, 1))
