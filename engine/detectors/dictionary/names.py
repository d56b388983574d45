"""First and last names from Faker's packaged locale lists.

Capitalisation is evidence only where the line has case: in a line written ALL CAPS or all
lower-case any token may be a name. A name that is also an English or clinical word ("Hope",
"Will", "Baker", "Mae") needs name context (a title, a relation word, a cue, an initial, a
name beside it) wherever capitals cannot vouch for it: in lines without case, at the start of a
sentence, and always for clinical words.
"""

from __future__ import annotations

import bisect
import importlib
import re
import unicodedata
from dataclasses import replace
from functools import lru_cache
from itertools import pairwise

from engine.core.context import RunContext
from engine.core.domain import Document, Source, Span
from engine.core.errors import ConfigError
from engine.core.labels import Label
from engine.core.regions import broad_region
from engine.detectors.base import DetectorSpec
from engine.detectors.dictionary.context import (
    HYPHEN_PREFIXES,
    PROVIDER_PHRASES,
    clinical_words,
    has_name_context,
    has_strong_name_context,
    is_english,
    is_english_compound,
)
from engine.detectors.dictionary.gazetteer import (
    Token,
    is_title,
    only_spaces_between,
    tokenize,
)
from engine.detectors.dictionary.lists import sections
from engine.detectors.dictionary.stopwords import common_words, read_word_list
from engine.paths import resource

# Locales with Latin-script (or romanised) names, chosen for diversity of origin.
LOCALES: tuple[str, ...] = (
    "en_US", "en_CA", "en_GB", "en_IE", "en_IN", "en_NZ", "en_PK", "en_NG", "en_KE",
    "fr_FR", "fr_CA", "fr_QC", "es_ES", "es_MX", "es_AR", "es_CO", "pt_BR", "pt_PT", "it_IT",
    "de_DE", "de_AT", "de_CH", "nl_NL", "nl_BE", "pl_PL", "cs_CZ", "sk_SK", "sl_SI", "hr_HR",
    "hu_HU", "ro_RO", "fi_FI", "sv_SE", "no_NO", "da_DK", "et_EE", "lt_LT", "lv_LV", "ga_IE",
    "tr_TR", "vi_VN", "id_ID", "yo_NG", "ig_NG", "ha_NG", "zu_ZA", "tw_GH", "sw",
    "zh_CN", "zh_TW", "ja_JP", "ko_KR", "hi_IN", "el_GR", "ru_RU", "uk_UA", "bg_BG",
    "ar_AA", "fa_IR", "he_IL",
)
_FIRST_ATTRS = ("first_names", "first_names_male", "first_names_female",
                "first_names_nonbinary", "first_romanized_names")
_LAST_ATTRS = ("last_names", "last_names_male", "last_names_female", "last_romanized_names")
_EMAIL_OR_URL = re.compile(r"\S+@\S+|\b(?:https?://|www\.)\S+", re.IGNORECASE)
# Precomputed by build_resources.py from Faker's locale lists.
NAMES_FILE = ("dictionaries", "names.txt")
_SINGLE = re.compile(r"^[^\W\d_]+(?:['’\-][^\W\d_]+)*$")

# Context that tells who the person is (checked on the text just before a name).
_DOCTOR_BEFORE = re.compile(
    rf"(?i:\b(?:dr|doctor|prof|professor)\.?\s*$|\b(?:{PROVIDER_PHRASES})[ \t]+$)")
_DOCTOR_AFTER = re.compile(r"^,?\s*(?:M\.?D\b|D\.?O\b|MBBS|FRCPC|R\.?N\b|N\.?P\b|PhD|PA-C)")
_PATIENT_BEFORE = re.compile(r"(?i:\b(?:patient|pt|client|re)\b\s*(?:name)?\s*[:,]?\s*)$")


# Capitalised words that follow a first name without being its surname.
_NEVER_SURNAME = frozenset({"and", "or", "the", "is", "was", "has", "had", "said", "says", "from",
                            "to", "in", "on", "at", "of", "with", "who", "will", "can", "did",
                            "does", "do", "for", "but", "not", "i", "we", "he", "she", "they"})


# Pronouns and kinship words that Faker also lists as names ("She", "Son", "Mother").
_NEVER_NAME = frozenset({"she", "he", "her", "his", "him", "they", "we", "me", "my", "you",
                         "mother", "father", "son", "daughter", "wife", "husband", "sister",
                         "brother", "mom", "dad", "aunt", "uncle", "patient", "doctor", "hosp"})

# Listed names that, with no case to tell, are the preposition or the verb ("PER DAY RT
# BRUCKNER", "SISTER CAN BE REACHED"); "Per Lindqvist" in a cased line still is a name.
# Who someone is at work, before the name: "PER DAY RT BRUCKNER", "SW DELACROIX PAGED".
_ROLE_BEFORE = re.compile(r"(?i:\b(?:rt|rrt|sw|cm|ot|rd|ho|resident|intern|fellow|attending"
                          r"|chaplain|pharmd|officer|det)\.?[ \t]+)\Z")
_NO_NAME_WITHOUT_CASE = frozenset({"per", "can", "min",  # "50 MIN EACH WAY"
                                   "were", "must", "more", "ever",  # "KIDS WERE NOT HOME"
                                   "an"})  # "HOLD AN EARLY THANKSGIVING PRAYER"


def _names_of(provider: type, attrs: tuple[str, ...]) -> set[str]:
    out: set[str] = set()
    for attr in attrs:
        for name in getattr(provider, attr, ()) or ():
            if isinstance(name, str) and _SINGLE.match(name) and len(name) > 1:
                out.add(name.casefold().replace("’", "'"))
    return out


def faker_name_lists() -> tuple[frozenset[str], frozenset[str]]:
    """(first names, last names) from Faker's locale modules: what build_resources writes
    into the shipped list (importing ~120 provider modules took over half a second)."""
    first: set[str] = set()
    last: set[str] = set()
    for locale in LOCALES:
        try:
            module = importlib.import_module(f"faker.providers.person.{locale}")
        except ImportError:
            continue  # a Faker release without this locale: the others still cover it
        provider = module.Provider
        first |= _names_of(provider, _FIRST_ATTRS)
        last |= _names_of(provider, _LAST_ATTRS)
    first |= read_word_list("nicknames.txt")  # "walt", "gord": pet forms Faker lacks
    last |= read_word_list("surnames.txt")  # "moua", "wiebe", "khoshaba": families Faker lacks
    places = read_word_list("name_stopwords.txt")
    return frozenset(with_plain_letters(first) - places), \
        frozenset(with_plain_letters(last) - places)


_PLAIN = str.maketrans({"đ": "d", "ł": "l", "ø": "o", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe"})


def plain_letters(name: str) -> str:
    """The name as an English keyboard types it: "petrović" -> "petrovic"."""
    decomposed = unicodedata.normalize("NFKD", name.translate(_PLAIN))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def with_plain_letters(names: set[str]) -> set[str]:
    """The names and their forms without diacritics ("petrovic", "kovacic", "nguyen"), as notes
    written in English spell them, except forms that are words in English ("colic", "lower",
    "back") or in the languages common_words.txt holds ("candida", "espana", "stahl")."""
    from engine.detectors.dictionary.context import common_words as other_languages

    plain = {plain_letters(n) for n in names} - names
    return names | {p for p in plain if len(p) > 3 and p.isalpha() and not is_english(p)
                    and p not in common_words() and p not in other_languages()
                    and p not in clinical_words()}


def read_name_lists(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Parse the shipped list: '[FIRST]' and '[LAST]' sections, one name a line."""
    found: dict[str, set[str]] = {"FIRST": set(), "LAST": set()}
    for name, names in sections(text, "name list"):
        if name not in found:
            raise ConfigError("the name list has an unknown section")
        for start in range(0, len(names), 8192):  # C loops short enough to share the GIL
            found[name].update(names[start:start + 8192])
    return frozenset(found["FIRST"]), frozenset(found["LAST"])


@lru_cache(maxsize=1)
def all_name_lists() -> tuple[frozenset[str], frozenset[str]]:
    """(first names, last names), casefolded, words included ("hope", "will"). Loaded once,
    from the list build_resources precomputed from Faker."""
    try:
        text = resource(*NAMES_FILE).read_text(encoding="utf-8")
    except OSError as exc:  # a packaging error: fail closed
        raise ConfigError("the name gazetteer's list is missing") from exc
    return read_name_lists(text)


@lru_cache(maxsize=1)
def compound_surnames() -> frozenset[tuple[str, ...]]:
    """Family names of several English words ("two bulls", "eagle heart"), casefolded."""
    return frozenset(tuple(name.split()) for name in read_word_list("compound_surnames.txt"))


def _compound_runs(text: str, tokens: list[Token], caseless: list[bool]) -> list[tuple[int, int]]:
    """Token ranges that spell a compound family name: capitalised where the line has case."""
    names = compound_surnames()
    longest = max(map(len, names))
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        for n in range(longest, 1, -1):
            run = tokens[i:i + n]
            if len(run) == n and tuple(t.key for t in run) in names \
                    and all(only_spaces_between(text, a, b) for a, b in pairwise(run)) \
                    and (caseless[i] or all(is_title(t.text) or t.text.isupper()
                                            or t.key == "of" for t in run)):
                runs.append((i, i + n))
                i += n
                break
        else:
            i += 1
    return runs


def is_listed_name(word: str) -> bool:
    """A first name or surname of the lists, any case, words included ("Baker", "hope")."""
    first, last = all_name_lists()
    key = word.casefold()
    return key in first or key in last


# Modal verbs, some of them listed names ("May", "Can"): before a word that is no name, the verb.
MODALS = frozenset({"may", "will", "can", "must", "might", "should"})
_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_]+)\b")


def modal_verb(text: str, start: int, end: int) -> bool:
    """A listed name that is a modal verb before a word that is no name: "PASTOR MAY VISIT ANY
    TIME", "pastor may come late" (not "Pastor May Johnson")."""
    if text[start:end].casefold() not in MODALS:
        return False
    following = _NEXT_WORD.match(text, end)
    return following is not None and is_english(following.group(1).casefold()) \
        and not is_listed_name(following.group(1))


_IN_LAW = re.compile(r"(?i:\bin[ \t\-])\Z")
_FOUR_LETTERS = re.compile(r"(?:[^\W\d_][^a-zA-Z]*){4}")
_SENTENCE_END = ".!?:;\n•*>-(\"["


def caseless_lines(text: str) -> list[tuple[int, int]]:
    """Ranges of lines written without case (ALL CAPS or all lower-case, 4+ letters)."""
    out = []
    pos = 0
    for line in text.split("\n"):
        if (line == line.upper() or line == line.lower()) and _FOUR_LETTERS.search(line):
            out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


class NameGazetteerDetector:
    """Tokens found in the name lists; adjacent ones form one span."""

    spec = DetectorSpec(id="dictionary.names", version=18, source=Source.DICTIONARY,
                        description="first/last names from Faker locale lists, in context")

    def __init__(self) -> None:
        self.first, self.last = all_name_lists()
        self.stop = common_words()
        self.clinical = clinical_words()

    def _listed(self, key: str) -> str | None:
        if key in self.first:
            return "first"
        if key in self.last:
            return "last"
        parts = key.split("-")
        if len(parts) > 1 and all(p in self.first or p in self.last for p in parts):
            # double-barrelled: "Weber-Santana", "Jean-Luc"; not a prefix and a word
            # ("Post-fall huddle")
            prefixed = len(parts) == 2 and parts[0] in HYPHEN_PREFIXES and is_english(parts[1])
            return None if prefixed else "last"
        return None

    def _word(self, key: str) -> bool:
        """A name that is also a word: it needs context to be a name."""
        return key in self.stop or key in self.clinical or is_english(key)

    def _kind(self, text: str, token: Token, caseless: bool, lowered: set[str]) -> str | None:
        """"first"/"last" (a name here), "weak" (a listed name that is also a word) or None."""
        listed = self._listed(token.key)
        if listed is None or len(token.text) < 2 or token.key in _NEVER_NAME \
                or token.start > 0 and text[token.start - 1].isdigit():
            return None  # "F508DEL": a mutation, not "Del"
        if token.key == "law" and _IN_LAW.search(text, max(0, token.start - 4), token.start):
            return None  # "sister in law claudia"
        if token.text.islower() and not caseless:  # "daughter janet", never "clear L."
            return None if self._word(token.key) else "weak"
        if token.key in self.clinical:
            return "weak"
        if caseless:
            if token.key in _NO_NAME_WITHOUT_CASE:
                return None
            return "weak" if self._word(token.key) else listed
        if not is_title(token.text):
            return "weak" if token.text.isupper() else None
        if token.key in self.stop or token.key in lowered:
            return "weak"  # also written as a word here, or a common word
        if _sentence_start(text, token.start) and self._word(token.key):
            return "weak"  # "Baker" opening a sentence may be the word
        return listed

    def _unknown_name(self, token: Token, caseless: bool, lowered: set[str]) -> bool:
        """An unlisted token that can still be a surname after a first name."""
        if token.key in _NEVER_SURNAME or len(token.text) < 2 or token.key in self.clinical:
            return False
        if caseless:  # two unlisted letters are shorthand there ("mod brooke lr")
            return token.text.isalpha() and len(token.text) > 2 and not is_english(token.key) \
                or "-" in token.text and not is_english_compound(token.key)
        return is_title(token.text) and token.key not in lowered

    def detect(self, doc: Document, ctx: RunContext) -> list[Span]:
        text = doc.text
        tokens = tokenize(text)
        lines = caseless_lines(text)
        caseless = [inside(t.start, lines) for t in tokens]
        # Lower-case elsewhere means "a word, not a name" - except inside emails and URLs,
        # where "sarah.ellison@..." must not hide the "Sarah Ellison" of the same letter.
        lowered = {t.key for t in tokenize(_EMAIL_OR_URL.sub(" ", text))
                   if t.text.islower() and not inside(t.start, lines)}
        kinds = [self._kind(text, t, c, lowered) for t, c in zip(tokens, caseless, strict=True)]
        for a, b in _compound_runs(text, tokens, caseless):
            # Without case, "two bulls" may be the herd: a name's context decides there.
            kinds[a:b] = ["weak" if caseless[a] else "last"] * (b - a)
        spans: list[Span] = []
        i = 0
        while i < len(tokens):
            if i % 512 == 0:
                ctx.check()
            if kinds[i] is None:
                i += 1
                continue
            # An unknown token right before a known surname is its given name.
            if kinds[i] == "last" and i > 0 \
                    and only_spaces_between(text, tokens[i - 1], tokens[i]) \
                    and self._could_be_name(tokens[i - 1], caseless[i - 1], lowered) \
                    and (not spans or spans[-1].end <= tokens[i - 1].start):
                i -= 1
            j = i + 1
            # Join following name tokens, initials ("Jane Q. Doe") and, after a first name,
            # one unknown token (a surname the lists do not hold).
            while j < len(tokens) and only_spaces_between(text, tokens[j - 1], tokens[j],
                                                          allow=" \t."):
                nxt = tokens[j]
                if kinds[j] in ("first", "last") or (
                        kinds[j] == "weak" and nxt.key not in self.clinical):
                    j += 1
                elif len(nxt.text) == 1 and nxt.text.isupper() and j + 1 < len(tokens) \
                        and kinds[j + 1] is not None \
                        and not (caseless[j] and nxt.text in "MF"):  # "FARAH M COMFORT CARE"
                    j += 2
                elif kinds[j - 1] == "first" and self._unknown_name(nxt, caseless[j], lowered):
                    j += 1
                    break
                else:
                    break
            if modal_verb(text, tokens[j - 1].start, tokens[j - 1].end):
                j -= 1  # "pastor may come late"
                if j == i:
                    i += 1
                    continue
            group = [k for k in kinds[i:j] if k is not None]
            strong = any(k in ("first", "last") for k in group)
            if j - i == 1 and len(tokens[i].text) <= 2:
                i = j  # "An", "Do", "Li" alone are too often words or initials
                continue
            start, end = tokens[i].start, tokens[j - 1].end
            titled = len(group) > 1 and all(is_title(t.text) for t in tokens[i:j]
                                            if len(t.text) > 1) and not caseless[i]
            # "ROGER NELSON": a first name then a surname vouch for each other without case.
            paired = caseless[i] and j - i > 1 and tokens[i].key in self.first \
                and tokens[j - 1].key in self.last \
                and tokens[i].key not in self.stop \
                and not any(t.key in self.clinical for t in tokens[i:j]) \
                and all(only_spaces_between(text, a, b) for a, b in pairwise(tokens[i:j]))
            # A lone surname in capitals needs context like a word does: in ALL CAPS charting
            # a listed surname alone is as often a device, a drug or a place.
            lone_caps = caseless[i] and j - i == 1 and kinds[i] == "last" \
                and tokens[i].text.isupper() \
                and not _ROLE_BEFORE.search(text[max(0, start - 12):start])
            if (lone_caps or not (strong or titled or paired)) \
                    and not has_name_context(text, start, end, verbs_after=not caseless[i]):
                i = j  # without case "ORG NOTIFIED" says nothing of a name
                continue
            if broad_region(text[start:end]) \
                    and not has_strong_name_context(text, start, end):
                i = j  # "born and raised in North Carolina": the state, not a Carolina North
                continue
            span = self._span(doc, start, end, j - i, kinds[i:j])
            if not strong and span.confidence < 0.8:
                span = replace(span, confidence=0.8)  # vouched for by its context
            spans.append(span)
            i = j
        return spans

    def _could_be_name(self, token: Token, caseless: bool, lowered: set[str]) -> bool:
        if caseless:
            return token.text.isalpha() and len(token.text) > 2 and not is_english(token.key) \
                and token.key not in _NEVER_SURNAME
        return (is_title(token.text) and token.key not in self.stop
                and token.key not in lowered and len(token.text) > 2)

    def _span(self, doc: Document, start: int, end: int, n: int,
              kinds: list[str | None]) -> Span:
        before = doc.text[max(0, start - 30):start]
        after = doc.text[end:end + 12]
        label = Label.PERSON
        if _DOCTOR_BEFORE.search(before) or _DOCTOR_AFTER.match(after):
            label = Label.DOCTOR
        elif _PATIENT_BEFORE.search(before):
            label = Label.PATIENT
        confidence = 0.8 if n > 1 else (0.55 if kinds[0] == "first" else 0.45)
        return Span(start, end, label, source=Source.DICTIONARY,
                    detector=self.spec.qualified, confidence=confidence)


def inside(pos: int, ranges: list[tuple[int, int]]) -> bool:
    if not ranges:
        return False
    k = bisect.bisect_right(ranges, (pos, float("inf"))) - 1
    return k >= 0 and ranges[k][0] <= pos < ranges[k][1]


def _sentence_start(text: str, pos: int) -> bool:
    i = pos
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    return i == 0 or text[i - 1] in _SENTENCE_END
