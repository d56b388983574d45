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
from engine.detectors.dictionary.names import caseless_lines, is_listed_name
from engine.detectors.dictionary.stopwords import common_words

__all__ = ["cased_view", "caseless_lines"]

_HOUSE = re.compile(r"\d[ \t]{1,2}$")  # "15 LARKSPUR ROAD": a house number before the street
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# Abbreviated titles: the word after one is a name ("DR. BAKER"); "doctor" and "miss" are words.
_TITLES = frozenset({"dr", "prof", "mr", "mrs", "ms"})
# Officers' ranks abbreviated with a period are titles too ("OFC. BRANDYWINE", "det. morrow").
_RANKS = frozenset({"ofc", "det", "sgt", "cpl", "tpr"})
_CREDENTIALS = frozenset({"md", "do", "mbbs", "phd", "rn", "np", "pa", "frcpc", "frcsc", "frcp",
                          "facp", "facs", "ccfp", "dds", "dmd", "lpn", "crna", "aprn", "fnp"})
# A street's heads, before which a care word is the street's name ("2861 BOX ELDER CREEK RD").
_STREET_HEADS = frozenset(("street st avenue ave road rd boulevard blvd drive lane ln court ct"
                           " crescent cres way place terrace highway hwy parkway circle trail")
                          .split())
_HEADS = _STREET_HEADS | frozenset((
    "square row close gardens grove heights hill park"
    " plaza ridge walk alley loop crossing mews view vista estates landing line concession"
    " glen harbor harbour haven hollow knoll lake lakes mill mills orchard pines shore shores"
    " spring springs summit valley village woods hospital clinic centre center infirmary hospice"
    " pharmacy institute university college sanatorium ltac ltach snf manor electric"
    " construction roofing plumbing trucking landscaping motors services project")
    .split())
# Heads after which one English word is the institution's name ("CARNEY HOSPITAL", "mercy
# hospital", "KINDRED LTAC"), unless it says what kind ("STATE HOSPITAL", "psych hospital").
_NAMED_BY_ONE_WORD = frozenset("hospital infirmary hospice sanatorium ltac ltach snf manor".split())
# Common words that name hospitals ("MERCY HOSPITAL", "PROVIDENCE HOSPITAL"); other common
# words before a head say what is needed ("likely ltac", "good rehab").
_VIRTUES = frozenset("mercy providence trinity grace hope charity faith".split())
_KINDS = frozenset(("state psychiatric psych mental veterans va children's childrens women's womens"
                    " teaching rehab rehabilitation eye cancer heart chest field military army"
                    " naval district university medical surgical acute chronic referring receiving"
                    " sending admitting home nursing day specialty base tertiary rural urban"
                    " main sister affiliate affiliated partner the any a an inpatient outpatient"
                    " residential local community nearest nearby outside other private public"
                    " county city regional general same another this that our your his her"
                    " their").split())
# Words that do not belong to the name before a head word ("transfer to ... Hospital"), and
# words that alone before one are no name ("LOCAL HOSPITAL", "SEX - FEMALE  HOSPITAL #").
# A grade before "mr" makes it mitral regurgitation, not "Mr." ("MOD MR. POST PROCEDURE").
_SEVERITY = frozenset("trace trivial mild mod moderate severe sev tr".split())
# What the writer says about a place, which no name before a head word holds ("MOTHER WANTS
# ENDO CLINIC", "TRACH WOULD MEAN LTAC", "notify pharmacy").
_SAYS = frozenset(("would will can could should must may might mean means want wants need needs"
                   " say says said suggest suggests chose chosen picked selected reviewed"
                   " notify call called likely prefer prefers asked discussed incl consider"
                   " feel feels think thinks agree agrees recommend recommends")
                  .split())
# Kinds of care and service, which no name before a head word holds ("long term vent snf",
# "elder law clinic", "skilled nursing home").
_CARE_KINDS = frozenset("long term short vent trach skilled acute subacute law legal elder"
                        " wound dialysis memory ltach ltac snf irf hospice medicare medicaid"
                        .split())
_PLACED = frozenset("to at from in into".split())
_DIRECTIONS = frozenset("n s e w ne nw se sw".split())
_NOT_AFTER = re.compile(r"[ \t]+(?i:not)\b")
_SHORT = frozenset({"has"})  # not in the word lists (Webster's has no "has")
_FUNCTION = frozenset("a an the to at from of in on and for with by per via is was vs versus or re"
                      " now then also still about been be being had have has were are"
                      " once when after before until if than so".split())  # "5 once ct out"
_GENERIC = frozenset(("local community nearest nearby outside other private public county city"
                      " regional general teaching same another this that our your his her their"
                      " female male new old no recent prior previous any").split())


def _english(key: str) -> bool:
    return key in common_words() or key in _SHORT or is_english(key)


def _did(key: str) -> bool:
    """"dr explained severe DAI", "dr updated wife": what the doctor did, an English verb's
    past (not "Ahmed", "Reed")."""
    return len(key) > 4 and key.endswith("ed") and is_english(key) and not is_listed_name(key)


def _shorthand(key: str) -> bool:
    """"ALTERED MS. HX MS": after mental status, shorthand is no name."""
    from engine.resolution.shorthand import is_shorthand

    return is_shorthand(key)


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
        titles = [key in _TITLES or key in _RANKS and text.startswith(".", word.end())
                  for word, key in zip(words, keys, strict=True)]
        forms = []
        for word, key, title in zip(words, keys, titles, strict=True):
            if key in _CREDENTIALS and (word.group().isupper()
                                        or text[:word.start()].rstrip(" \t").endswith(",")) \
                    and not _NOT_AFTER.match(text, word.end()):  # "20 PPM, DO NOT WEAN"
                forms.append(_cased(word.group(), True))
            elif title or key in _HEADS or len(key) > 2 and not _english(key):
                forms.append(_title(word.group()))
            else:
                forms.append(_cased(word.group(), False))
        for i, key in enumerate(keys):
            nxt = i + 1
            if key in _CARE_KINDS and key in _HEADS and nxt < len(words) and keys[nxt] in _HEADS:
                forms[i] = _cased(words[i].group(), False)  # "ltach pharmacy": whose pharmacy
            if key in _HEADS and 0 < i < len(keys) - 1 and keys[i - 1] == "in" \
                    and keys[nxt] == "of":
                forms[i] = _cased(words[i].group(), False)  # "MERO IN PLACE OF TIMENTIN"
            if key == "mr" and i and keys[i - 1] in _SEVERITY:
                forms[i] = _cased(words[i].group(), False)  # "mod mr. post procedure": a valve
            elif titles[i] and nxt < len(words) and keys[nxt] not in _CREDENTIALS \
                    and keys[nxt] not in _FUNCTION and keys[nxt] not in _SAYS \
                    and not _did(keys[nxt]) \
                    and not (key == "ms" and (_english(keys[nxt]) or _shorthand(keys[nxt]))) \
                    and not text[words[i].end():words[nxt].start()].strip(" \t."):
                # "DR. BAKER"; not "dr. to see", nor mental status: "ms back to baseline"
                forms[nxt] = _title(words[nxt].group())
            elif key in _HEADS:  # "RIVERSIDE GENERAL HOSPITAL", "42 ELMWOOD AVENUE"
                run = []
                for j in range(i - 1, max(i - 4, -1), -1):
                    gap = text[words[j].end():words[j + 1].start()]
                    if keys[j] in _FUNCTION or keys[j] in _SAYS or keys[j] in _TITLES \
                            or keys[j] in _CARE_KINDS and key not in _STREET_HEADS \
                            or len(keys[j]) == 1 \
                            or keys[j] in _HEADS \
                            or gap.strip(" \t.'’") or len(gap) > 2:
                        break
                    run.append(j)
                while run and keys[run[-1]] in _GENERIC:
                    run.pop()  # "LOCAL HOSPITAL", "the NEW GENERAL HOSPITAL" stay words
                first = run[-1] if run else i
                if first > 0 and keys[first - 1] in _DIRECTIONS and run \
                        and _HOUSE.search(text[start:words[first - 1].start()]):
                    run.append(first - 1)  # "2216 w cedar ave": the street's side of town
                numbered = bool(run) and bool(_HOUSE.search(text[start:words[run[-1]].start()]))
                one_name = len(run) == 1 and key in _NAMED_BY_ONE_WORD \
                    and keys[run[0]] not in _KINDS \
                    and (keys[run[0]] not in common_words() or keys[run[0]] in _VIRTUES)
                # English words name a place only after where one goes or is: "transfer to
                # golden oak hospital"; not "will help coordinate hospice"
                placed = bool(run) and run[-1] > 0 and keys[run[-1] - 1] in _PLACED
                if numbered or one_name or len(run) > 1 and placed \
                        or any(not _english(keys[j]) for j in run):
                    for j in run:
                        forms[j] = _title(words[j].group())
        for word, form in zip(words, forms, strict=True):
            out[word.start():word.end()] = form
    view = "".join(out)
    assert len(view) == len(text)
    return view

