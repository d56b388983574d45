"""Locations and facilities: Faker cities, streets and names in the original's shape."""

from __future__ import annotations

import random
import re

from engine.core.regions import CA_PROVINCE_CODES, US_STATE_CODES
from engine.surrogates import identifiers as ids
from engine.surrogates.coined import coined_name
from engine.surrogates.fake import SeededFaker

# Longest first so "General Hospital" wins over "Hospital".
_FACILITY_SUFFIXES = sorted([
    "General Hospital", "Memorial Hospital", "Regional Hospital", "Community Hospital",
    "Children's Hospital", "University Hospital", "Hospital", "Medical Center",
    "Medical Centre", "Health Center", "Health Centre", "Health Sciences Centre",
    "Medical Clinic", "Family Clinic", "Walk-in Clinic", "Clinic", "Family Practice",
    "Family Health Team", "Medical Group", "Pharmacy", "Drug Mart", "Laboratory", "Labs",
    "Imaging", "Urgent Care", "Nursing Home", "Long-Term Care", "Care Centre", "Care Center",
    "Rehabilitation Centre", "Rehabilitation Center", "Cancer Centre", "Cancer Center",
    "Health Network", "Health System", "Healthcare", "Health", "Institute", "Centre", "Center",
], key=len, reverse=True)
_SUFFIX_RE = re.compile(r"(?:^|\s)(" + "|".join(re.escape(s) for s in _FACILITY_SUFFIXES)
                        + r")(\W*)$", re.IGNORECASE)
_DEFAULT_SUFFIXES = ("General Hospital", "Medical Clinic", "Community Hospital",
                     "Family Health Centre", "Memorial Hospital")

_STREET_WORDS = {
    "st", "street", "ave", "avenue", "rd", "road", "blvd", "boulevard", "dr", "drive", "ln",
    "lane", "ct", "court", "cres", "crescent", "cir", "circle", "pl", "place", "way", "hwy",
    "highway", "pkwy", "parkway", "terr", "terrace", "trl", "trail", "sq", "square", "apt",
    "unit", "suite", "ste", "po", "box", "rr", "n", "s", "e", "w", "ne", "nw", "se", "sw",
    "north", "south", "east", "west", "floor", "fl", "room", "rm", "bed", "ward",
}
_POSTAL_ANYWHERE = re.compile(r"\b[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d\b")
_ZIP_ANYWHERE = re.compile(r"\b\d{5}(?:-\d{4})?\b")
# The last part of an address: [city] [region] code ("Calgary AB T2N 1N4", "NY 10001").
_CODE = r"(?P<code>[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d|\d{5}(?:-\d{4})?)$"
_CITY_REGION_CODE = re.compile(
    r"^(?:(?P<region>[A-Za-z]{2})[ \t]+|(?P<city>[^\W\d_][^\d,]*?)[ \t]+"
    r"(?:(?P<region2>[A-Za-z]{2})[ \t]+)?)" + _CODE)


def case_like(new: str, like: str) -> str:
    letters = [c for c in like if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return new.upper()
    if letters and all(c.islower() for c in letters):
        return new.lower()
    return new


def _draw(faker: SeededFaker, rng: random.Random, method: str, fallback: str = "city", *,
          coin: bool = False) -> str:
    if coin:
        # A whole EHR extract can name most of Faker's cities and surnames, so that every
        # drawn place collides with an original; a coined word always ends the retries.
        return coined_name(rng)
    name = method if faker.has(method) else fallback
    return str(faker.draw(rng.getrandbits(64), lambda f: getattr(f, name)()))


def hospital(value: str, faker: SeededFaker, rng: random.Random, locale: str, *,
             coin: bool = False) -> str:
    stripped = value.strip()
    letters = [c for c in stripped if c.isalpha()]
    if stripped.isupper() and 2 <= len(letters) <= 6 and " " not in stripped:
        return ids.shape_replace(value, rng)  # an acronym ("TGH") becomes another acronym
    m = _SUFFIX_RE.search(stripped)
    base = _draw(faker, rng, rng.choice(("city", "last_name", "city")), coin=coin)
    if m and not coin:
        # Coined retries vary the suffix as well: it may be an original itself
        # ("Children's Hospital"), and then no base could ever pass.
        suffix = m.group(1) + m.group(2)
    else:
        suffix = rng.choice(_DEFAULT_SUFFIXES)
        if not locale.startswith("en_CA"):
            suffix = suffix.replace("Centre", "Center")
    lead = value[:len(value) - len(value.lstrip())]
    trail = value[len(value.rstrip()):]
    return lead + case_like(f"{base} {suffix}", stripped) + trail


def _street(part: str, faker: SeededFaker, rng: random.Random, coin: bool) -> str:
    """"123 Main St, Apt 4" -> "587 Cedar St, Apt 9": numbers randomised, street words and
    directions kept, the name words replaced by one fake street name."""
    tokens = re.split(r"(\s+|,)", part)
    out: list[str] = []
    replaced = False
    for tok in tokens:
        bare = tok.strip(".#").lower()
        if not tok or tok.isspace() or tok == ",":
            out.append(tok)
        elif any(c.isdigit() for c in tok):
            out.append(ids.shape_replace(tok, rng))
        elif bare in _STREET_WORDS:
            out.append(tok)
        elif not replaced:
            name = _draw(faker, rng, "last_name", coin=coin)
            out.append(case_like(name, tok))
            replaced = True
        else:
            out.append("")  # further name words collapse into the one fake name
    text = "".join(out)
    return re.sub(r"[ \t]{2,}", " ", text)


def _region(part: str, faker: SeededFaker, rng: random.Random) -> str:
    up = part.strip().upper()
    pool = CA_PROVINCE_CODES if up in CA_PROVINCE_CODES else US_STATE_CODES
    choices = sorted(pool - {up})
    return part.replace(part.strip(), case_like(rng.choice(choices), part.strip()))


def _part(part: str, subtype: str | None, faker: SeededFaker, rng: random.Random,
          locale: str, coin: bool) -> str:
    s = part.strip()
    if not s:
        return part
    lead, trail = part[:len(part) - len(part.lstrip())], part[len(part.rstrip()):]
    if ids.CA_POSTAL_RE.match(s):
        return lead + ids.ca_postal(s, rng) + trail
    if ids.ZIP_RE.match(s) or subtype in ("ZIP", "POSTAL_CODE"):
        return lead + ids.shape_replace(s, rng) + trail
    if len(s) == 2 and s.isalpha() and s.isupper():
        return _region(part, faker, rng)
    tail = _CITY_REGION_CODE.match(s)
    if tail:
        # "Calgary AB T2N 1N4", "ON M5V 2T6", "NY 10001": city, region and code each replaced;
        # replacing only the code would leave the city behind.
        city, code = tail.group("city", "code")
        region_group = "region" if tail.group("region") else "region2"
        region = tail.group(region_group)
        out = s
        out = out[:tail.start("code")] + (
            ids.ca_postal(code, rng) if ids.CA_POSTAL_RE.match(code)
            else ids.shape_replace(code, rng)) + out[tail.end("code"):]
        if region:
            out = (out[:tail.start(region_group)] + _region(region, faker, rng)
                   + out[tail.end(region_group):])
        if city:
            out = (out[:tail.start("city")] + case_like(_draw(faker, rng, "city", coin=coin), city)
                   + out[tail.end("city"):])
        return lead + out + trail
    if subtype == "STREET" or s[:1].isdigit():
        return lead + _street(s, faker, rng, coin) + trail
    if any(c.isdigit() for c in s):
        # "Room 412", "Bed 3B": keep the words, change the numbers.
        return lead + re.sub(r"[A-Za-z]*\d[A-Za-z\d]*", lambda m: ids.shape_replace(
            m.group(), rng), s) + trail
    if subtype == "COUNTRY":
        return lead + case_like(_draw(faker, rng, "country", coin=coin), s) + trail
    if subtype in ("STATE", "PROVINCE"):
        method = "province" if locale.startswith("en_CA") else "state"
        return lead + case_like(_draw(faker, rng, method, "state", coin=coin), s) + trail
    return lead + case_like(_draw(faker, rng, "city", coin=coin), s) + trail


def location(value: str, subtype: str | None, faker: SeededFaker, rng: random.Random,
             locale: str, *, coin: bool = False) -> str:
    """Addresses split on commas and line breaks; each part is replaced by its kind."""
    # A multi-part address is split whatever its subtype: replacing only the postal code of
    # "1450 Oakwood Avenue, Edmonton, AB T5K 2M4" would leave the street and city behind.
    if subtype in ("ADDRESS", "STREET", None) and re.search(r"[,\n]", value):
        pieces = re.split(r"(,|\n)", value)
        return "".join(p if p in (",", "\n") else _part(p, None, faker, rng, locale, coin)
                       for p in pieces)
    return _part(value, subtype, faker, rng, locale, coin)
