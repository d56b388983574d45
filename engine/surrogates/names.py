"""Person names: keep the shape ("Smith, John", "J. Smith", "DR. JOHN SMITH") and replace
each component consistently, so "John Smith" then "Mr. Smith" reads "Mark Lee" then
"Mr. Lee". First names keep the gender where it can be inferred.
"""

from __future__ import annotations

import bisect
import itertools
import random
import re
import string
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal, Protocol

from faker import Faker

from engine.surrogates.places import case_like as _case_like

Gender = Literal["M", "F"] | None
Kind = Literal["first", "last"]

_TITLES: dict[str, Gender] = {
    "mr": "M", "mister": "M", "sir": "M", "mrs": "F", "ms": "F", "miss": "F", "madam": "F",
    "mme": "F", "mlle": "F", "dr": None, "prof": None, "mx": None, "rev": None,
}
_SUFFIXES = {"jr", "sr", "ii", "iii", "iv", "md", "phd", "rn", "np", "pa", "do", "dds", "mbbs",
             "frcpc", "ccfp", "lpn", "esq"}
_PARTICLES = {"van", "von", "de", "da", "del", "della", "der", "di", "du", "la", "le", "st",
              "bin", "ibn", "al", "el"}
_TOKEN = re.compile(r"\S+")
_INITIALS = re.compile(r"^(?:[A-Za-z]\.?){1,3}$")
_WORD = re.compile(r"^[^\W\d_]+(?:['’][^\W\d_]+)*$")
_TITLE_BEFORE = re.compile(r"\b(mr|mrs|ms|miss|mister|dr|prof|mx|sir|madam)\.?\s*$",
                           re.IGNORECASE)
# For the document-level reading of names (engine.surrogates.context).
TITLES, SUFFIXES, TITLE_BEFORE = _TITLES, _SUFFIXES, _TITLE_BEFORE


@dataclass(frozen=True)
class NameData:
    """Weighted name lists from Faker for one locale."""

    male: tuple[str, ...]
    male_cum: tuple[float, ...]
    female: tuple[str, ...]
    female_cum: tuple[float, ...]
    last: tuple[str, ...]
    last_cum: tuple[float, ...]
    male_set: frozenset[str]
    female_set: frozenset[str]
    last_set: frozenset[str]

    def gender_of(self, first: str) -> Gender:
        key = first.casefold()
        m, f = key in self.male_set, key in self.female_set
        return "M" if m and not f else "F" if f and not m else None

    def pick(self, kind: Kind, gender: Gender, rng: random.Random) -> str:
        if kind == "last":
            return _weighted(self.last, self.last_cum, rng)
        if gender is None:
            gender = rng.choice(("M", "F"))
        if gender == "M":
            return _weighted(self.male, self.male_cum, rng)
        return _weighted(self.female, self.female_cum, rng)


def _weighted(names: tuple[str, ...], cum: tuple[float, ...], rng: random.Random) -> str:
    return names[bisect.bisect_right(cum, rng.random() * cum[-1]) % len(names)]


def _weights(source: object) -> tuple[tuple[str, ...], tuple[float, ...]]:
    if isinstance(source, dict):
        names, weights = tuple(source), tuple(float(w) for w in source.values())
    else:
        if not isinstance(source, Iterable):
            raise TypeError(f"name list expected, got {type(source).__name__}")
        names = tuple(str(n) for n in source)
        weights = (1.0,) * len(names)
    # Single-word alphabetic names only: they slot into any shape.
    kept = [(n, w) for n, w in zip(names, weights, strict=True) if n.isalpha()]
    return tuple(n for n, _ in kept), tuple(itertools.accumulate(w for _, w in kept))


@lru_cache(maxsize=8)
def name_data(locale: str) -> NameData:
    faker = Faker(locale)
    provider = next((p for p in faker._factories[0].providers  # noqa: SLF001
                     if hasattr(p, "last_names")), None)
    fallback = next(p for p in Faker("en_US")._factories[0].providers  # noqa: SLF001
                    if hasattr(p, "last_names"))

    def attr(name: str) -> object:
        value = getattr(provider, name, None) if provider is not None else None
        return value if value else getattr(fallback, name)

    male, male_cum = _weights(attr("first_names_male"))
    female, female_cum = _weights(attr("first_names_female"))
    last, last_cum = _weights(attr("last_names"))
    return NameData(male, male_cum, female, female_cum, last, last_cum,
                    frozenset(n.casefold() for n in male),
                    frozenset(n.casefold() for n in female),
                    frozenset(n.casefold() for n in last))


class Components(Protocol):
    """Where component surrogates come from: the map first, else a keyed PRNG."""

    def known(self, kind: Kind, key: str) -> bool: ...

    def seen(self, word: str) -> bool:
        """Whether ``word`` (casefolded) is a word of a name in this document."""
        ...

    def component(self, kind: Kind, key: str, gender: Gender) -> str: ...

    def rng(self, *parts: str) -> random.Random: ...


_POSSESSIVE = re.compile(r"^(.+?)(['’]s|['’])$", re.IGNORECASE)
_PLURAL_POSSESSIVE = re.compile(r"^(.+?)(s['’])$", re.IGNORECASE)
_PLURAL = re.compile(r"^(.+?)(es|s)$", re.IGNORECASE)


def split_inflection(word: str, seen: Callable[[str], bool] = lambda _w: False
                     ) -> tuple[str, str]:
    """(base, inflection): "Ravensworth's" and "Ravensworths'" are "Ravensworth" with an
    ending, so they share its surrogate. "Xs'" and a bare plural "Xs" count as "X" only when
    "X" is a name of the document (``seen``); "Jones'" stays "Jones"."""
    m = _PLURAL_POSSESSIVE.match(word)
    if m and len(m.group(1)) > 1 and seen(m.group(1).casefold()):
        return m.group(1), m.group(2)
    m = _POSSESSIVE.match(word)
    if m and len(m.group(1)) > 1:
        return m.group(1), m.group(2)
    m = _PLURAL.match(word)
    if m and len(m.group(1)) > 1 and not seen(word.casefold()) and seen(m.group(1).casefold()):
        return m.group(1), m.group(2)
    return word, ""


def _reinflect(new: str, ending: str) -> str:
    """The original ending on the surrogate; a plural "s"/"es" follows the new name."""
    if ending.casefold().rstrip("'’") in ("s", "es"):
        sibilant = re.search(r"(s|x|z|ch|sh)$", new, re.IGNORECASE) is not None
        plural = "es" if sibilant else "s"
        plural = plural.upper() if ending[0].isupper() else plural
        return plural + ending[len(ending.rstrip("'’")):]
    return ending


def _bare(token: str) -> str:
    return split_inflection(token.strip(".,;:()\""))[0].casefold()


@dataclass
class _Part:
    text: str
    role: str  # title | suffix | particle | initials | first | last | other | comma-less
    gender: Gender = None


def _classify_single(word: str, titled: bool, data: NameData, src: Components) -> Kind:
    key = word.casefold()
    if titled:
        return "last"
    if src.known("last", key):
        return "last"
    if src.known("first", key):
        return "first"
    if key in data.male_set or key in data.female_set:
        return "first"
    return "last"


def _roles(tokens: Sequence[str], before: str, data: NameData, src: Components) -> list[_Part]:
    parts = [_Part(t, "") for t in tokens]
    last_i = len(parts) - 1
    for i, p in enumerate(parts):
        b = _bare(p.text)
        if b in _TITLES and (i == 0 or parts[i - 1].role == "title") and last_i > 0:
            p.role = "title"
        elif b.replace(".", "") in _SUFFIXES and i > 0:
            p.role = "suffix"
        elif b in _PARTICLES and 0 < i < last_i:
            p.role = "particle"
        elif _INITIALS.match(p.text.rstrip(",")) and (len(b.replace(".", "")) == 1
                                                       or "." in p.text):
            p.role = "initials"
    names = [p for p in parts if not p.role]
    titled = bool(_TITLE_BEFORE.search(before)) or any(p.role == "title" for p in parts)
    comma = next((i for i, p in enumerate(parts) if p.text.endswith(",") and not p.role), None)
    if comma is not None and any(not p.role for p in parts[comma + 1:]):
        for i, p in enumerate(parts):
            if not p.role:
                p.role = "last" if i <= comma else "first"
    elif len(names) == 1:
        names[0].role = _classify_single(_bare(names[0].text), titled, data, src)
    elif names:
        for p in names[:-1]:
            p.role = "first"
        names[-1].role = "last"
        # "van Beethoven": particles before the surname belong to it; kept as written.
    return parts


def _gender(parts: Sequence[_Part], before: str, data: NameData) -> Gender:
    for p in parts:
        if p.role == "title":
            g = _TITLES.get(_bare(p.text))
            if g:
                return g
    m = _TITLE_BEFORE.search(before)
    if m:
        g = _TITLES.get(m.group(1).casefold())
        if g:
            return g
    for p in parts:
        if p.role == "first":
            g = data.gender_of(_bare(p.text).split("-")[0])
            if g:
                return g
    return None


def _replace_word(token: str, kind: Kind, gender: Gender, src: Components) -> str:
    """Replace a name token (maybe hyphenated, possessive, with a trailing comma) keeping
    case and the ending."""
    m = re.match(r"^([\"(]*)(.*?)([.,;:)\"]*)$", token)
    assert m is not None
    lead, core, trail = m.groups()
    pieces = core.split("-")
    out = []
    for piece in pieces:
        if not piece:
            out.append(piece)
            continue
        base, ending = split_inflection(piece, src.seen)
        if not _WORD.match(base):
            out.append(_shape_letters(piece, src.rng("name-odd", piece.casefold())))
            continue
        new = _case_like(src.component(kind, base.casefold(), gender), base)
        out.append(new + _reinflect(new, ending))
    return lead + "-".join(out) + trail


def _shape_letters(value: str, rng: random.Random) -> str:
    out = []
    for ch in value:
        if ch.isalpha():
            c = rng.choice(string.ascii_lowercase)
            out.append(c.upper() if ch.isupper() else c)
        elif ch.isdigit():
            out.append(rng.choice(string.digits))
        else:
            out.append(ch)
    return "".join(out)


def _initials(token: str, rng: random.Random) -> str:
    out = []
    for ch in token:
        if ch.isalpha():
            choices = [c for c in string.ascii_uppercase if c != ch.upper()]
            new = rng.choice(choices)
            out.append(new.lower() if ch.islower() else new)
        else:
            out.append(ch)
    return "".join(out)


def name_surrogate(original: str, *, before: str, data: NameData, src: Components,
                   gender_hint: Gender = None) -> str:
    """The surrogate of a person's name; ``before`` is the text just before it (a title
    there, "Mr. [Smith]", marks a surname and a gender). ``gender_hint`` (the document's
    pronouns and titles for this person) decides when the name itself does not."""
    tokens = _TOKEN.findall(original)
    if not tokens:
        return original
    parts = _roles(tokens, before, data, src)
    gender = _gender(parts, before, data) or gender_hint
    surname_key = next((_bare(p.text) for p in reversed(parts) if p.role == "last"), "")
    new: dict[int, str] = {}
    for i, p in enumerate(parts):
        if p.role in ("first", "last"):
            new[i] = _replace_word(p.text, p.role, gender, src)  # type: ignore[arg-type]
        elif p.role == "initials":
            # Consistent for the same initials with the same surname ("J. Smith").
            new[i] = _initials(p.text, src.rng("initials", _bare(p.text), surname_key, str(i)))
        else:
            new[i] = p.text
    # Rebuild with the original whitespace between tokens.
    out, pos = [], 0
    for i, m in enumerate(_TOKEN.finditer(original)):
        out.append(original[pos:m.start()])
        out.append(new[i])
        pos = m.end()
    out.append(original[pos:])
    result = "".join(out)
    if result == original:  # only titles/particles: replace the whole thing
        result = _case_like(data.pick("last", None, src.rng("name-whole", original.casefold())),
                            original)
    return result
