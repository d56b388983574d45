"""A cased view of lines written without case, for the rules that read capitals.

Name, address and facility rules key on capitalised words ("Dr. Okonjo", "42 Elmwood Avenue",
"Riverside General Hospital"); in an ALL CAPS or all lower-case line they find nothing. The view
re-cases such lines the way a tidy note would be written, character for character (offsets are
unchanged): words that are not English are capitalised, English words are lower-case, except
titles, street and facility head words, the words before those heads and the word after a title,
which are capitalised; credentials ("MD", ", md") are upper-case.
"""

from __future__ import annotations

import re

from engine.detectors.dictionary.context import is_english
from engine.detectors.dictionary.names import caseless_lines

__all__ = ["cased_view", "caseless_lines"]

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
_TITLES = frozenset({"dr", "doctor", "prof", "professor", "mr", "mrs", "ms", "miss", "mx"})
_CREDENTIALS = frozenset({"md", "do", "mbbs", "phd", "rn", "np", "pa", "frcpc", "frcsc", "frcp",
                          "facp", "facs", "ccfp", "dds", "dmd", "lpn", "crna", "aprn", "fnp"})
_HEADS = frozenset((
    "street st avenue ave road rd boulevard blvd drive lane ln court ct crescent cres way place"
    " terrace highway hwy parkway circle trail square row close gardens grove heights hill park"
    " plaza ridge walk alley loop crossing mews view vista estates landing line concession"
    " glen harbor harbour haven hollow knoll lake lakes mill mills orchard pines shore shores"
    " spring springs summit valley village woods hospital clinic centre center infirmary hospice"
    " pharmacy institute university college sanatorium").split())
# Words that do not belong to the name before a head word ("transfer to ... Hospital").
_FUNCTION = frozenset("a an the to at from of in on and for with by per via is was".split())


def _cased(word: str, upper: bool) -> str:
    """``word`` in the given case, one character for one (never "ß" -> "SS")."""
    return "".join(c2 if len(c2 := (c.upper() if upper else c.lower())) == 1 else c
                   for c in word)


def _title(word: str) -> str:
    return _cased(word[:1], True) + _cased(word[1:], False)


def cased_view(text: str) -> str | None:
    """``text`` with its caseless lines re-cased, or None when every line has case."""
    lines = caseless_lines(text)
    if not lines:
        return None
    out = list(text)
    for start, end in lines:
        words = list(_WORD.finditer(text, start, end))
        keys = [w.group().casefold() for w in words]
        forms = []
        for word, key in zip(words, keys, strict=True):
            if key in _CREDENTIALS and (word.group().isupper()
                                        or text[:word.start()].rstrip(" \t").endswith(",")):
                forms.append(_cased(word.group(), True))
            elif key in _TITLES or key in _HEADS \
                    or len(key) > 2 and not is_english(key):
                forms.append(_title(word.group()))
            else:
                forms.append(_cased(word.group(), False))
        for i, key in enumerate(keys):
            nxt = i + 1
            if key in _TITLES and nxt < len(words) and keys[nxt] not in _CREDENTIALS \
                    and not text[words[i].end():words[nxt].start()].strip(" \t."):
                forms[nxt] = _title(words[nxt].group())  # "DR. BAKER", "mrs. young"
            elif key in _HEADS:  # "RIVERSIDE GENERAL HOSPITAL", "42 ELMWOOD AVENUE"
                for j in range(i - 1, max(i - 4, -1), -1):
                    gap = text[words[j].end():words[j + 1].start()]
                    if keys[j] in _FUNCTION or keys[j] in _TITLES or gap.strip(" \t.'’"):
                        break
                    forms[j] = _title(words[j].group())
        for word, form in zip(words, forms, strict=True):
            out[word.start():word.end()] = form
    view = "".join(out)
    assert len(view) == len(text)
    return view

