"""Checksums and sanity checks used by rules. Pure functions over the matched text."""

from __future__ import annotations

import ipaddress
import re

from engine.detectors.regex.fragments import HHMM


def digits(text: str) -> str:
    return "".join(c for c in text if c.isdigit())


def luhn(text: str) -> bool:
    """Luhn mod 10 over the digits of ``text`` (credit cards, SIN, Ontario HCN)."""
    ds = digits(text)
    if len(ds) < 2:
        return False
    total = 0
    for i, ch in enumerate(reversed(ds)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def credit_card(text: str) -> bool:
    ds = digits(text)
    return 12 <= len(ds) <= 19 and luhn(ds) and len(set(ds)) > 1


def sin(text: str) -> bool:
    """Canadian Social Insurance Number: 9 digits, Luhn, never starts with 8 (business numbers)."""
    ds = digits(text)
    return len(ds) == 9 and ds[0] != "8" and luhn(ds)


def ssn(text: str) -> bool:
    """US SSN: area not 000/666/9xx, group not 00, serial not 0000."""
    ds = digits(text)
    if len(ds) != 9:
        return False
    area, group, serial = ds[:3], ds[3:5], ds[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def ontario_hcn(text: str) -> bool:
    """Ontario health card: 10 digits (version letters aside), Luhn check digit."""
    ds = digits(text)
    return len(ds) == 10 and luhn(ds)


_BC_WEIGHTS = (2, 4, 8, 5, 10, 9, 7, 3)


def bc_phn(text: str) -> bool:
    """British Columbia PHN: 10 digits starting with 9, mod-11 check digit."""
    ds = digits(text)
    if len(ds) != 10 or ds[0] != "9":
        return False
    total = sum(int(d) * w for d, w in zip(ds[1:9], _BC_WEIGHTS, strict=True))
    check = 11 - total % 11
    return check < 10 and check == int(ds[9])


def iban(text: str) -> bool:
    """ISO 13616 mod-97 check."""
    s = "".join(text.split()).upper()
    if not (15 <= len(s) <= 34) or not s[:2].isalpha() or not s[2:4].isdigit():
        return False
    rearranged = s[4:] + s[:4]
    try:
        number = int("".join(str(int(c, 36)) for c in rearranged))
    except ValueError:
        return False
    return number % 97 == 1


def ip_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _int_or_none(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def numeric_date(text: str) -> bool:
    """d/m/y or m/d/y with plausible parts (one of the first two is a month)."""
    parts = [p for p in _split_date(text) if p]
    if len(parts) != 3:
        return False
    a, b, _ = (_int_or_none(p) for p in parts)
    if a is None or b is None:
        return False
    if not (1 <= a <= 31 and 1 <= b <= 31):
        return False
    return a <= 12 or b <= 12


def month_year(text: str) -> bool:
    parts = [p for p in _split_date(text) if p]
    return len(parts) == 2 and parts[0].isdigit() and 1 <= int(parts[0]) <= 12


def month_day(text: str) -> bool:
    parts = [p for p in _split_date(text) if p]
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return False
    return 1 <= int(parts[0]) <= 12 and 1 <= int(parts[1]) <= 31


def day_month(text: str) -> bool:
    """A day/month as British, Australian and many Canadian notes chart it, where the first
    number cannot be a month ("22/3", "14/11"); "3/4" stays a month/day, and "24/7" is all
    the time."""
    parts = [p for p in _split_date(text) if p]
    return len(parts) == 2 and all(p.isdigit() for p in parts) and text.strip() != "24/7" \
        and 13 <= int(parts[0]) <= 31 and 1 <= int(parts[1]) <= 12


def uneven_month_day(text: str) -> bool:
    """A month/day that reads as no fraction: a day past 10, or a month past the day ("3/15",
    "12/5"; not "4/5", "5/10")."""
    if not month_day(text):
        return False
    month, day = (int(p) for p in _split_date(text) if p)
    return day > 10 or month > day


def _split_date(text: str) -> list[str]:
    out, cur = [], ""
    for ch in text:
        if ch in "/-.":
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


# Country codes that are also English or clinical shorthand ("hr.no", "pt.in", "bp.at"):
# after them a domain needs a host that is no word.
_WORDLIKE_TLDS = frozenset({"no", "in", "at", "be", "me", "us", "it", "is", "to", "so", "do",
                            "pt", "hr", "am", "pm", "md", "ms", "id", "pa", "ac", "ad"})
_GENERIC_TLDS = frozenset({"com", "org", "net", "edu", "gov", "mil", "int", "info", "biz",
                           "health", "med", "clinic", "app", "dev", "io", "uk", "au", "nz",
                           "ie", "fr", "nl", "dk", "fi", "pl", "cz", "jp", "cn", "kr", "za"})


def web_shape(text: str) -> bool:
    """Has ``text`` the shape of an e-mail, URL, domain or IP address? Period-joined
    shorthand ("hr.no", "residuals.no", "pt.sister") has not: a bare domain needs a known
    top-level domain, and after one that is also a word, a host that is no word."""
    value = text.strip().rstrip(".,;:")
    low = value.casefold()
    if "://" in low or low.startswith("www.") or ip_address(value):
        return True
    if ":" in value and all(c in "0123456789abcdef:" for c in low):
        return True  # IPv6 shapes the IP rule validated
    if "@" in value:
        local, _, domain = value.rpartition("@")
        return bool(local) and "." in domain and domain.rsplit(".", 1)[1].isalpha()
    host = low.split("/", 1)[0]
    labels = host.split(".")
    if len(labels) < 2 or not all(labels):
        return False
    tld = labels[-1]
    if tld in _GENERIC_TLDS:
        return True
    if tld not in _WORDLIKE_TLDS and len(tld) == 2 and tld.isalpha():
        return True
    if tld in _WORDLIKE_TLDS and len(labels) >= 3:
        return True
    if tld not in _WORDLIKE_TLDS:
        return False
    from engine.detectors.dictionary.context import is_english

    name = labels[-2]
    return len(name) >= 3 and not is_english(name) and any(c.isalpha() for c in name)


_GCS = re.compile(r"(?i:e[1-4]v[1-5]m[1-6])")


def postal_code_not_gcs(text: str) -> bool:
    """"E2V2M4" is a Glasgow Coma Scale (eye, verbal, motor), not a New Brunswick postal code;
    "E2V 2M4" with its space stays a postal code."""
    return not _GCS.fullmatch(text)


# "number words number" with no street word ("20789 Allika 46", "6343 Skogstien 106"), as a
# flowsheet writes a time, a test and its value ("1245 MAP 108", "0600 CIWA 26", "Na 137 Na
# 135", "1800 repeat PTT 98"): a word in capitals or of charting makes it no address.
_BARE_STREET = re.compile(r"\d{3,6}[ \t]+(.+?)[ \t]+\d{1,5}[A-Za-z]?\.?")
_CHARTING = frozenset(
    "na k cl ca mg phos trop hct hgb hb plt wbc bun cr glu ptt pt inr map sbp dbp hr rr bp"
    " gcs rass ciwa nihss cpot braden fs bs to at repeat and then now lact lactate fib be ph"
    " pco2 po2 ldh ast alt alb ica tbili ck bnp lipase ammonia cvp ci svo2 uop on off for of"
    " in from by x w over under goal rsbi nif vc vt mv ve peep fio2 tv rsi".split())
_ADDRESS_CAPS = frozenset({"APT", "SUITE", "STE", "UNIT", "PO", "BOX", "RD", "ST", "AVE"})


_UNIT_WORDS = frozenset("min mins minute minutes hr hrs hour hours sec mg ml cc mcg".split())
# A small count and a litre ("1 L", "2L"): "1100 L Street" has a house number's size.
_VOLUME = re.compile(r"\d{1,2}[ \t]?[Ll]\b")


def month_day_range(text: str) -> bool:
    """"6/1-6/2", "6/30 - 7/26": two month/days, the second not before the first (within a
    year's turn); not a pressure range ("120/60-130/70")."""
    parts = re.split(r"[ \t]?[-–][ \t]?", text.strip())
    if len(parts) != 2 or not all(month_day(p) for p in parts):
        return False
    (m1, d1), (m2, d2) = (tuple(int(x) for x in p.split("/")) for p in parts)
    return (m1, d1) <= (m2, d2) or m1 == 12 and m2 == 1


def health_number(text: str) -> bool:
    """"9876 543 210", "XK-4411872": digits, and no English word ("no health insurance since
    2002 when" is a sentence)."""
    from engine.detectors.dictionary.context import is_english

    return sum(c.isdigit() for c in text) >= 5 \
        and not any(is_english(w) for w in re.findall(r"[A-Za-z]{3,}", text))


def street_not_charting(text: str) -> bool:
    words = re.findall(r"[^\W\d_]+", text)
    if any(w.casefold() in _UNIT_WORDS for w in words[:-1]):
        return False  # "~40 MIN DRIVE": a duration, not 40 Min Drive
    if _VOLUME.match(text):
        return False  # "1 L PLEURAL CT": a chest tube's litre, not 1 L Pleural Court
    if len(words) > 1 and words[-2].casefold() in ("across", "down"):
        return False  # "AT FAMILY HOUSE ACROSS STREET": where, not which street
    bare = _BARE_STREET.fullmatch(text.strip())
    if bare is None:
        return True
    for word in re.findall(r"[^\W\d_]+", bare.group(1)):
        if word.casefold() in _CHARTING or (
                len(word) > 1 and word.isupper() and word not in _ADDRESS_CAPS):
            return False
    return True


_CLOCK = re.compile(HHMM)


_MEASURED = frozenset({"lab", "drug", "drug_class", "organism"})


def measured_term(word: str) -> bool:
    """A lab, drug or organism of the clinical lexicon, the whole word, five letters or more
    ("FERRITIN" before its value; not "ALT" of "ALT-DIETMANNS")."""
    from engine.cire.lexicon import default_lexicon

    term = default_lexicon().whole(word) if len(word) > 4 else None
    return term is not None and term.category in _MEASURED


_NUMBER_CUES = frozenset({"pgr", "pager", "beeper", "ext", "extension", "tel", "cell", "phone",
                          "fax", "vocera", "spectralink", "bed", "rm", "room"})


def country_code_not_charting(text: str) -> bool:
    """"Finland 38524", "Netherlands 6500", not "Extubated 1100," or "APS 1000,": a clock
    time or a round number after an English word or an acronym is charting."""
    from engine.detectors.dictionary.context import is_english
    from engine.resolution.shorthand import icu_words

    words = re.findall(r"[^\W\d_]+", text)
    number = re.findall(r"\d+", text)[-1]
    if any(measured_term(w) or w.casefold() in icu_words() for w in words):
        return False  # "FERRITIN 4800", "ldh 2650", "EBL 6000": a lab or a loss and its value
    if any(w.casefold() in _NUMBER_CUES for w in words):
        return False  # "onc fellow pgr 2281": a pager, not a postcode
    if len(number) != 4:
        return True
    if _YEAR.fullmatch(number):
        return False  # "arrived from Vietnam 1999,"
    if _CLOCK.fullmatch(number):
        # "Dr. Brannigan 1300,", "Fri 1400,": a time after a name; a code that reads as one
        # counts only after a country or a state ("Denmark 2100").
        return _after_a_country(words)
    if not number.endswith("00"):
        return True
    return not any(is_english(w) or (w.isupper() and len(w) <= 4) for w in words)


_YEAR = re.compile(r"(?:19|20)\d\d")


def _after_a_country(words: list[str]) -> bool:
    from engine.detectors.dictionary.locations import location_table

    phrases = location_table().phrases
    return any(phrases.get(tuple(w.casefold() for w in words[i:])) in ("COUNTRY", "STATE",
                                                                        "PROVINCE")
               for i in range(len(words)))
