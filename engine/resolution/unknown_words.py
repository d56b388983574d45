"""A word no list knows, told from a misspelt or inflected clinical word.

After "pt" in a note without case ("pt kowalski pod 2", "PT OSTERGAARD IS 46"), a word that no
English, shorthand or name list holds is a name unless it reads as a verb form ("became",
"dopplerable", "reintubated") or lies one typing slip away from a word that is ("remians",
"tolerting"): those misspellings are as common in such notes as the names.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable

from engine.detectors.dictionary.context import english_words, is_english
from engine.resolution.terms import drug_words

# Irregular verb forms Webster's headwords do not hold, which follow "pt" in charting.
_VERB_FORMS = frozenset("has had was were does did became began gets got goes went says"
                        " said seems seemed feels felt keeps kept sleeps slept"
                        # what a relative did: "daughter rang 0600", "son came in, drove home"
                        " rang rung came drove brought took told spoke saw gave sat stood".split())
# and what a patient is, as charted: "tachypneic", "hypoxemic", "hypotensive", "oliguric"
_VERB_ENDING = re.compile(r"(?:ed|ing|able|ible|ly|ized|ised|'d|’d|pneic|pnoeic|emic|oxic|tensive"
                          r"|cardic|uric)$")
_LETTERS = string.ascii_lowercase


def verb_form(word: str) -> bool:
    """"became", "intubated", "tolerating", "dopplerable": what a patient does or is."""
    key = word.casefold()
    return key in _VERB_FORMS or bool(_VERB_ENDING.search(key))


def unknown_name_word(word: str, is_shorthand: Callable[[str], bool]) -> bool:
    """Four letters or more, no English, shorthand, drug or verb form, and no such word one edit
    (a letter dropped, added, changed or two swapped) away. ``is_shorthand`` is
    resolution.shorthand's, passed in: that module asks this one."""
    key = word.casefold()
    if len(key) < 4 or not key.replace("-", "").isalpha() or verb_form(key) \
            or is_english(key) or is_shorthand(key) \
            or key in drug_words():
        return False
    words = english_words()
    return not any(near in words or is_shorthand(near) for near in _one_edit(key))


def _one_edit(word: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    swaps = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    changes = {a + c + b[1:] for a, b in splits if b for c in _LETTERS}
    inserts = {a + c + b for a, b in splits for c in _LETTERS}
    return deletes | swaps | changes | inserts
