"""Names a trauma centre gives a patient it cannot yet identify: a phonetic-alphabet word after
"Trauma" or as the given name of "Doe" ("UNKNOWN MALE "TRAUMA ZULU"", "as Trauma Echo",
'unknown pt "Doe, Kilo"'). The alias is the patient's name in the chart until the family is
found, so it is replaced like one. The same words that name an activation tier ("trauma alpha
activation", "Trauma Bravo response") or the bedside ultrasound ("trauma echo shows no
effusion") stay words: "Trauma" and its letter are an alias only where the note gives them as
one.
"""

from __future__ import annotations

from engine.core.labels import Label
from engine.detectors.regex.rule import RegexRule

_PHONETIC = (r"alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india|juliett?|kilo|lima|mike"
             r"|november|oscar|papa|quebec|romeo|sierra|tango|uniform|victor|whiske?y|x-?ray"
             r"|yankee|zulu")
# A number after it makes an armband's identifier ("TRAUMA ZULU 4417"), an ID rule's.
_TIER_AFTER = (r"(?![ \t]+(?:activation|activated|alert|response|page|paged|level|tier|criteria"
               r"|team|call|called)\b|[ \t]*#?\d)")

# How the alias is given: in quotes, or after "as", "alias" or "unknown male".
_GIVEN_AS = (r"(?:[\"“]|\b(?:as|alias|unknown[ \t]+(?:male|female|man|woman|pt|patient))"
             r"[ \t:]+)")

ALIAS_RULES: tuple[RegexRule, ...] = (
    RegexRule("name.trauma_alias", Label.PATIENT,
              rf"(?i:{_GIVEN_AS}(trauma[ \t]+(?:{_PHONETIC}))\b{_TIER_AFTER})", 0.7, group=1),
    RegexRule("name.doe_alias", Label.PATIENT,
              rf"(?i:\b(doe,?[ \t]+(?:{_PHONETIC}))\b{_TIER_AFTER})", 0.7, group=1),
)
