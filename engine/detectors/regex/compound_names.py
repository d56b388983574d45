"""Surnames of two English words, as many Plains and Mountain West tribal families carry them
("Standing Elk", "Old Elk", "Spotted Horse", "Little Wolf", "Two Bulls"): a descriptive word
and an animal or a thing of the sky or the camp.

Each word alone is English, so the name lists and the model's guards read them as words. The
pair is a name only where a name's context stands before it: a listed first name ("sister
vernice standing elk"), a title, or a sign-out list's bed ("RM 4 - OLD ELK - DKA", in
bed_lists.py). Without one, "old horse", "little bird" and "white cloud" stay words. Families
common enough to list are names without context (resources/dictionaries/compound_surnames.txt,
read by the name gazetteer).
"""

from __future__ import annotations

from engine.core.labels import Label
from engine.detectors.regex.rule import RegexRule

_DESCRIBING = (r"standing|old|spotted|little|two|three|running|white|black|red|young|sitting"
               r"|many|iron|lone|walking|crazy|yellow|good|last|plenty|big|high|kills|chasing"
               r"|bad|brave|gray|grey|long|rides|tall|bear")
_NAMING = (r"elk|horses?|bears?|wolf|wolves|eagles?|crows?|hawks?|bulls?|deer|buffalo|owls?"
           r"|cloud|clouds|thunder|feathers?|dogs?|coyote|shield|birds?|hat|road|robe|horns?"
           r"|mouse|fox|crane|calf|heart|hair|lance|arrows?|bow|moon|star|sun|wind|woman|man"
           r"|chief|hand|ground|boy|child|tail|knife|whirlwind|weasel|otter|beaver|rabbit"
           r"|voice")
COMPOUND_SURNAME = rf"(?:{_DESCRIBING})[ \t\-]+(?:{_NAMING})"
_WORD = r"[^\W\d_][\w'’\-]+"


def _first_name_then_pair(text: str) -> bool:
    """A given name opens it: a word that is no English word or shorthand ("vernice standing
    elk", "Tyrell Two Bulls"; not "an old horse", "ekg two horns")."""
    from engine.resolution.shorthand import clinical_or_english

    key = text.split()[0].casefold()
    return key.isalpha() and len(key) > 2 and not clinical_or_english(key)


COMPOUND_NAME_RULES: tuple[RegexRule, ...] = (
    RegexRule("name.compound_after_first", Label.PERSON,
              rf"(?i:(?<![\w\-])({_WORD}[ \t]+{COMPOUND_SURNAME})\b)", 0.6, group=1,
              validate=_first_name_then_pair, on_view=False),
    RegexRule("name.compound_after_title", Label.PERSON,
              rf"(?i:\b(?:mr|mrs|ms|dr|miss|elder|rev)\.?[ \t]+({COMPOUND_SURNAME})\b)", 0.6,
              group=1, on_view=False),
)
