"""Synthetic PHI values in many formats, drawn from Faker in several locales.

Every generator takes the caller's ``random.Random`` so a corpus is reproducible from a seed.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from datetime import date, timedelta

from faker import Faker

from engine.training.phi_vocab import (
    ADDRESS_LOCALES,
    COUNTRIES,
    DOMAINS,
    EXTRA_FIRST,
    EXTRA_LAST,
    HOSPITAL_KINDS,
    HOSPITAL_STEMS,
    ID_PREFIXES,
    MONTHS,
    NAME_LOCALES,
    NICKNAMES,
    PHARMACIES,
    PROVINCES,
    SAINTS,
    WARD_WORDS,
    WINGS,
)


class PhiGen:
    """Draws PHI strings. One instance per corpus; deterministic given ``rng``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self._fakers: dict[str, Faker] = {}
        for loc in (*NAME_LOCALES, *ADDRESS_LOCALES):
            if loc in self._fakers:
                continue
            try:
                fk = Faker(loc)
            except AttributeError:  # locale absent from this Faker version
                continue
            fk.seed_instance(rng.randrange(2**31))
            self._fakers[loc] = fk

    def _fk(self, loc: str | None = None) -> Faker:
        if loc is None:
            r = self.rng.random()
            if r < 0.45:
                loc = self.rng.choice(("en_US", "en_CA", "en_GB"))
            else:
                loc = self.rng.choice(tuple(self._fakers))
        return self._fakers.get(loc) or self._fakers["en_US"]

    # -- names ---------------------------------------------------------------------------
    def first(self, gender: str | None = None) -> str:
        if self.rng.random() < 0.12:
            return self.rng.choice(EXTRA_FIRST)
        fk = self._fk()
        if gender == "F":
            return str(fk.first_name_female())
        if gender == "M":
            return str(fk.first_name_male())
        return str(fk.first_name())

    def last(self) -> str:
        if self.rng.random() < 0.12:
            return self.rng.choice(EXTRA_LAST)
        name = str(self._fk().last_name())
        if self.rng.random() < 0.05:
            name = f"{name}-{self._fk().last_name()}"
        return name

    def full_name(self, first: str, last: str) -> str:
        """A rendering of one person's name (no titles: they are not PHI)."""
        r = self.rng.random()
        mid = self.rng.choice(string.ascii_uppercase)
        if r < 0.45:
            return f"{first} {last}"
        if r < 0.58:
            return f"{last}, {first}"
        if r < 0.68:
            return f"{first} {mid}. {last}"
        if r < 0.76:
            return f"{first[0]}. {last}"
        if r < 0.84:
            return f"{last.upper()}, {first}"
        if r < 0.90:
            return f"{first.upper()} {last.upper()}"
        if r < 0.95:
            return last
        return first

    # -- dates and ages ------------------------------------------------------------------
    def a_date(self, lo: int = 1930, hi: int = 2025) -> date:
        start = date(lo, 1, 1)
        return start + timedelta(days=self.rng.randrange((date(hi, 12, 31) - start).days))

    def date_str(self, d: date | None = None) -> str:
        d = d or self.a_date(2015, 2025)
        m, mon = MONTHS[d.month - 1], MONTHS[d.month - 1][:3]
        fmts = (
            f"{d:%Y-%m-%d}",
            f"{d.month:02d}/{d.day:02d}/{d.year}",
            f"{d.day}/{d.month}/{d.year}",
            f"{d.month}/{d.day}/{d.year % 100:02d}",
            f"{m} {d.day}, {d.year}",
            f"{d.day} {m} {d.year}",
            f"{mon} {d.day}, {d.year}",
            f"{d.day}-{mon.upper()}-{d.year}",
            f"{d.day:02d}-{mon}-{d.year % 100:02d}",
            f"{d:%Y/%m/%d}",
            f"{mon}. {d.day}",
            f"{m} {d.day}",
            f"{m} {d.year}",
            f"{d.day:02d}.{d.month:02d}.{d.year}",
            f"{m} {d.day}th",
            f"{d.month}/{d.day}",
            f"{d:%Y%m%d}",
        )
        return self.rng.choice(fmts)

    def time_str(self) -> str:
        h, mi = self.rng.randrange(24), self.rng.randrange(60)
        return self.rng.choice(
            (
                f"{h:02d}:{mi:02d}",
                f"{h % 12 or 12}:{mi:02d} {'AM' if h < 12 else 'PM'}",
                f"{h:02d}{mi:02d}h",
                f"{h % 12 or 12}:{mi:02d}pm",
            )
        )

    def age(self) -> int:
        return self.rng.choice(
            (self.rng.randrange(1, 100), self.rng.randrange(18, 90), self.rng.randrange(90, 106))
        )

    # -- identifiers ---------------------------------------------------------------------
    def digits(self, n: int) -> str:
        return "".join(self.rng.choice(string.digits) for _ in range(n))

    def ident(self) -> tuple[str, str]:
        """(kind, value) of a health/record identifier."""
        d, r = self.digits, self.rng
        kind = r.choice(
            (
                "MRN",
                "MRN",
                "PHN",
                "ULI",
                "HCN",
                "HCN",
                "SSN",
                "INSURANCE",
                "ACCOUNT",
                "LICENSE",
                "ACCESSION",
                "DEVICE",
                "SIN",
            )
        )
        if kind == "MRN":
            v = r.choice(
                (
                    d(7),
                    d(8),
                    f"{d(3)}-{d(2)}-{d(2)}",
                    f"MR{d(6)}",
                    f"{d(2)}{r.choice('ABCDEFGH')}{d(5)}",
                    d(10),
                )
            )
        elif kind == "PHN":  # BC PHN: 10 digits starting with 9
            v = r.choice((f"9{d(9)}", f"9{d(3)} {d(3)} {d(3)}"))
        elif kind == "ULI":  # Alberta ULI / PHN: 9 digits
            v = r.choice((d(9), f"{d(5)}-{d(4)}"))
        elif kind == "HCN":  # Ontario HCN with version code, Quebec RAMQ, others
            letters = "".join(r.choice(string.ascii_uppercase) for _ in range(2))
            v = r.choice(
                (
                    f"{d(4)}-{d(3)}-{d(3)}-{letters}",
                    f"{d(4)} {d(3)} {d(3)} {letters}",
                    f"{d(10)}{letters}",
                    f"{''.join(r.choice(string.ascii_uppercase) for _ in range(4))} {d(4)} {d(4)}",
                    f"{d(4)} {d(3)} {d(3)}",
                )
            )
        elif kind in ("SSN", "SIN"):
            v = r.choice((f"{d(3)}-{d(2)}-{d(4)}", f"{d(3)} {d(3)} {d(3)}", d(9)))
        elif kind == "INSURANCE":
            v = r.choice(
                (
                    f"{r.choice(('BCBS', 'SUN', 'GWL', 'MAN'))}{d(9)}",
                    f"{d(3)}-{d(6)}-{d(2)}",
                    f"W{d(8)}",
                )
            )
        elif kind == "ACCESSION":
            v = r.choice(
                (f"S{d(2)}-{d(5)}", f"{r.choice(('CT', 'MR', 'US', 'XR'))}{d(8)}", f"A{d(9)}")
            )
        elif kind == "DEVICE":
            v = (
                f"SN {d(4)}-{d(6)}"
                if r.random() < 0.5
                else f"{r.choice(string.ascii_uppercase)}{d(9)}"
            )
        elif kind == "LICENSE":
            v = r.choice((d(5), f"CPSA {d(5)}", f"{r.choice(string.ascii_uppercase)}{d(7)}"))
        else:
            v = r.choice((d(8), f"{d(4)}-{d(4)}", f"ACC{d(7)}"))
        return kind, v

    def phone(self) -> str:
        a, b, c = self.digits(3), self.digits(3), self.digits(4)
        a = str(self.rng.choice((2, 3, 4, 5, 6, 7, 8, 9))) + a[1:]
        fmts = (
            f"({a}) {b}-{c}",
            f"{a}-{b}-{c}",
            f"{a}.{b}.{c}",
            f"{a} {b} {c}",
            f"1-{a}-{b}-{c}",
            f"+1 {a} {b} {c}",
            f"{a}{b}{c}",
            f"{b}-{c}",
            f"({a}) {b}-{c} ext. {self.digits(3)}",
            f"+44 20 {self.digits(4)} {self.digits(4)}",
            f"0{self.digits(4)} {self.digits(6)}",
        )
        return self.rng.choice(fmts)

    def email(self, first: str | None = None, last: str | None = None) -> str:
        f = (first or self.first()).lower().replace(" ", "").replace("'", "")
        l_ = (last or self.last()).lower().replace(" ", "").replace("'", "")
        user = self.rng.choice((f"{f}.{l_}", f"{f[0]}{l_}", f"{f}{self.digits(2)}", f"{l_}.{f[0]}"))
        return f"{user}@{self.rng.choice(DOMAINS)}"

    def url(self) -> str:
        return self.rng.choice(
            (
                f"www.{self.last().lower()}clinic.ca",
                f"https://{self.last().lower()}health.com/portal",
                f"http://myhealth.{self.rng.choice(('ab', 'bc', 'on'))}.ca/{self.digits(6)}",
            )
        )

    def ip(self) -> str:
        return ".".join(str(self.rng.randrange(1, 255)) for _ in range(4))

    # -- places --------------------------------------------------------------------------
    def street(self) -> str:
        fk = self._fk(self.rng.choice(ADDRESS_LOCALES))
        s = str(fk.street_address())
        if self.rng.random() < 0.2:
            s = (
                f"{self.rng.choice(('Unit', 'Apt', 'Suite', '#'))} "
                f"{self.rng.randrange(1, 2000)}, {s}"
                if self.rng.random() < 0.5
                else f"{self.rng.randrange(1, 2000)}-{s}"
            )
        return s

    def city(self) -> str:
        return str(self._fk(self.rng.choice(ADDRESS_LOCALES)).city())

    def province(self) -> str:
        if self.rng.random() < 0.6:
            return self.rng.choice(PROVINCES)
        return str(
            self._fk("en_US").state_abbr() if self.rng.random() < 0.5 else self._fk("en_US").state()
        )

    def postal(self) -> str:
        r = self.rng.random()
        if r < 0.55:
            L = (
                string.ascii_uppercase.replace("D", "")
                .replace("F", "")
                .replace("I", "")
                .replace("O", "")
                .replace("Q", "")
                .replace("U", "")
            )
            c = self.rng.choice
            sep = self.rng.choice((" ", " ", ""))
            d = self.rng.randrange
            return f"{c(L)}{d(10)}{c(L)}{sep}{d(10)}{c(L)}{d(10)}"
        if r < 0.85:
            return (
                self.digits(5) if self.rng.random() < 0.7 else f"{self.digits(5)}-{self.digits(4)}"
            )
        return str(self._fk("en_GB").postcode())

    def country(self) -> str:
        return self.rng.choice(COUNTRIES)

    def hospital(self) -> str:
        r = self.rng.random()
        if r < 0.3:
            return f"{self.city()} {self.rng.choice(HOSPITAL_KINDS)}"
        if r < 0.45:
            kind = ("Hospital", "Health Centre", "Medical Center")
            return f"St. {self.rng.choice(SAINTS)}'s {self.rng.choice(kind)}"
        if r < 0.6:
            return f"{self.last()} {self.rng.choice(HOSPITAL_KINDS)}"
        if r < 0.72:
            return self.rng.choice(PHARMACIES) + (
                f" #{self.rng.randrange(100, 9999)}" if self.rng.random() < 0.4 else ""
            )
        if r < 0.85:
            return (
                str(self._fk(self.rng.choice(ADDRESS_LOCALES)).company())
                + " "
                + self.rng.choice(("Clinic", "Medical", "Health"))
            )
        return self.rng.choice(
            (
                "Foothills Medical Centre",
                "Peter Lougheed Centre",
                "Royal Alexandra Hospital",
                "Vancouver General Hospital",
                "Mount Sinai Hospital",
                "Toronto Western Hospital",
                "Massachusetts General Hospital",
                "Johns Hopkins Hospital",
                "Mayo Clinic",
                "Cleveland Clinic",
                "Guy's and St Thomas'",
                "Sunnybrook",
                "Lakeview PCN",
                "Alberta Children's Hospital",
                "Kaiser Permanente",
                "LifeLabs",
                "Dynacare",
            )
        )

    def profession(self) -> str:
        return str(self._fk("en_US").job()).split(",")[0]


class TeleGen:
    """PHI as staff type it in telegraphic notes; shares ``PhiGen``'s rng."""

    def __init__(self, gen: PhiGen) -> None:
        self.gen = gen
        self.rng = gen.rng

    def cased(self, text: str) -> str:
        """Names and places are often typed all lower-case or shouted."""
        r = self.rng.random()
        if r < 0.3:
            return keep_len(text, str.lower)
        if r < 0.45:
            return keep_len(text, str.upper)
        return text

    def name(self, first: str, last: str) -> str:
        r, mid = self.rng.random(), self.rng.choice(string.ascii_uppercase)
        if r < 0.22:
            s = f"{first[0]}. {last}"
        elif r < 0.3:
            s = f"{first[0]}.{mid}. {last}"
        elif r < 0.42:
            s = f"{first} {last[0]}."
        elif r < 0.6:
            s = last
        elif r < 0.72:
            s = first
        elif r < 0.78:
            s = f"{first[0]}{last}" if self.rng.random() < 0.3 else f"{first[0]} {last}"
        else:
            s = f"{first} {last}"
        return self.cased(s)

    def nickname(self) -> str:
        return self.cased(self.rng.choice(NICKNAMES))

    def hospital_short(self) -> str:
        r = self.rng.random()
        if r < 0.45:
            s = self.rng.choice(HOSPITAL_STEMS)
            if self.rng.random() < 0.3:
                s += self.rng.choice((" Hospital", " Medical Center", " Hosp", " MC"))
        elif r < 0.75:
            s = acronym(self.gen.hospital()) if self.rng.random() < 0.5 else self._acronym()
        else:
            s = f"{self.gen.city()} {self.rng.choice(('General', 'Memorial', 'Regional', 'Gen'))}"
        return self.cased(s) if len(s) > 4 else s

    def _acronym(self) -> str:
        letters = "".join(
            self.rng.choice("ABCDEFGHJKLMNPRSTVW") for _ in range(self.rng.choice((1, 2)))
        )
        return letters + self.rng.choice(("MC", "GH", "RH", "CH", "MH", "H", "HC", "RMC", "UH"))

    def unit(self) -> str:
        """A named ward or unit of a hospital ('Ward 4', '6 West'); generic ICU names are not."""
        n, r = self.rng.randrange(1, 13), self.rng.random()
        if r < 0.35:
            s = f"{self.rng.choice(WARD_WORDS)} {n}{self.rng.choice(('', '', 'A', 'B'))}"
        elif r < 0.7:
            s = (
                f"{n} {self.rng.choice(WINGS[:4])}"
                if self.rng.random() < 0.7
                else f"{n}{self.rng.choice(WINGS[4:])}"
            )
        else:
            s = f"{self.gen.last()} {n}"
        return self.cased(s)

    def mrn(self) -> str:
        d, p = self.gen.digits, self.rng.choice(ID_PREFIXES)
        return self.rng.choice(
            (f"{p}-{d(6)}", f"{p}{d(6)}", f"{p}-{d(3)}-{d(3)}", f"{p[0]}{d(7)}", f"{p}/{d(5)}")
        )

    def date(self) -> str:
        y = self.rng.choice((self.rng.randrange(2015, 2026), self.rng.randrange(2085, 2195)))
        m, dd = self.rng.randrange(1, 13), self.rng.randrange(1, 29)
        mon = MONTHS[m - 1][:3]
        return self.rng.choice(
            (
                f"{m}/{dd}",
                f"{m}/{dd}",
                f"{dd}-{mon}",
                f"{mon}-{dd}",
                f"{m}-{dd}-{y}",
                f"{m}/{dd}/{y % 100:02d}",
                f"{m}/{dd}/{y}",
                f"{y}-{m}-{dd}",
                f"{dd}{mon.upper()}",
                f"{mon} {dd}",
            )
        )

    def town(self) -> str:
        c = self.gen.city()
        return keep_len(c, str.lower) if self.rng.random() < 0.5 else self.cased(c)

    def street(self) -> str:
        s = str(self.gen._fk(self.rng.choice(ADDRESS_LOCALES)).street_name())
        return keep_len(s, str.lower) if self.rng.random() < 0.5 else self.cased(s)


def keep_len(text: str, fn: Callable[[str], str]) -> str:
    """Change case without moving offsets: a character whose mapping is longer ('ß' -> 'SS',
    'İ' -> 'i̇') keeps its own form."""
    out = fn(text)
    if len(out) == len(text):  # case mappings only expand, so equal length means aligned
        return out
    return "".join(c2 if len(c2 := fn(c)) == 1 else c for c in text)


def acronym(name: str) -> str:
    """'St. Mary's General Hospital' -> 'SMGH'."""
    words = [
        w
        for w in name.replace("-", " ").split()
        if w[:1].isupper() and w.lower() not in ("of", "the", "and")
    ]
    return "".join(w[0] for w in words)[:5] or name[:3].upper()
