"""Policies decide what counts as PHI in a project. They are data, chosen by name."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.domain import Span
from engine.core.labels import Label
from engine.core.regions import broad_region

_AGE_NUMBER = re.compile(r"\d{1,3}")
_YEAR = r"(?:1[89]\d{2}|20\d{2})"
# A year, or a span of years ("1966-68", "1998 to 2001"; not "2001-02", an ISO month).
_YEAR_ONLY = re.compile(rf"^\s*(?:in\s+|from\s+)?['’]?(?:{_YEAR}|\d{{2}})s?"
                        rf"(?:\s*(?:-|–|to|through|until)\s*(?:{_YEAR}|1[3-9]|[2-9]\d)s?)?\s*$",
                        re.IGNORECASE)
# "Friday", "on Weds", "SAT AM", "Sun night": a weekday, with or without its part of the day
# or its hour.
_WEEKDAY_ONLY = re.compile(r"^\s*(?:on\s+)?(?:mon|tues?|weds?(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?"
                           r"|sun)(?:days?)?\.?,?(?:\s+(?:am|pm|a\.m\.|p\.m\.|morning|afternoon"
                           r"|evening|night|noc|eve))?(?:\s*(?:@|at)?\s*(?:[01]\d|2[0-3])[0-5]\d)?\s*$",
                           re.IGNORECASE)  # "MONDAY 1500", "Fri @ 1400", "Saturdays"
# An occupation as charted: a few words, letters only ("cook", "retired schoolteacher",
# "dental hygienist"); a user name or code ("jsmith42") has more than letters.
_WORD = r"[^\W\d_]+(?:['’\-][^\W\d_]+)*"
_OCCUPATION = re.compile(rf"^\s*{_WORD}(?:\s+{_WORD}){{0,3}}\s*$")


@dataclass(frozen=True)
class Policy:
    name: str
    description: str
    phi_labels: frozenset[Label]
    # Ages are PHI only above this value; None means every age is PHI (if AGE is a PHI label).
    age_over: int | None = None
    # A bare year ("1997", "in 2008") is not PHI, and surrogate dates keep the original year.
    keep_years: bool = False
    # A weekday name alone ("Friday") is not PHI: Safe Harbor removes dates, not weekdays.
    keep_weekdays: bool = False
    # The patient's sex ("Sexo: H") is not PHI: no Safe Harbor identifier, and clinical.
    keep_sex: bool = False
    # An occupation ("works as a cook") is not PHI: Safe Harbor lists none, and the
    # model's "other identifying characteristic" in charting is nearly always a job.
    keep_occupations: bool = False
    # A country, state or province ("Vietnam veteran", "family in Guatemala", "applied for
    # Ontario Works"): Safe Harbor removes geographic subdivisions smaller than a state only.
    keep_regions: bool = False

    def is_phi(self, span: Span, text: str) -> bool:
        """Does ``span`` (over document ``text``) need replacing under this policy?"""
        if span.label not in self.phi_labels:
            return False
        covered = text[span.start:span.end]
        if span.label is Label.OTHER and span.subtype == "SEX":
            return not self.keep_sex
        if span.label is Label.OTHER:
            return not (self.keep_occupations and _OCCUPATION.match(covered))
        if span.label is Label.AGE and self.age_over is not None:
            match = _AGE_NUMBER.search(covered)
            return match is None or int(match.group()) > self.age_over
        if span.label is Label.LOCATION:
            return not (self.keep_regions and broad_region(covered)
                        and not _in_an_address(text, span.start, span.end))
        if span.label is not Label.DATE:
            return True
        return not (self.keep_years and _YEAR_ONLY.match(covered)
                    or self.keep_weekdays and _WEEKDAY_ONLY.match(covered))


# A region that opens an address's line or stands before its postal code is part of the
# address ("Suite 245⏎ FÜRLING⏎ Austria 25173")...
_ADDRESS_BEFORE = re.compile(r"\n[ \t]*,?[ \t]*\Z")  # "Toronto⏎, ON⏎ 82269" too
_POSTAL_AFTER = re.compile(r"[ \t,]*(?!(?:19|20)\d\d\b)\d{4,6}\b")  # not "from Vietnam 1999"


# ... or ends an address whose street stands on its line or the line before ("51709 Spinatsch 94
# Apt. 615 Moosleerau Switzerland", "12 Elm St⏎Springfield, Texas"), or a longer name holds it
# ("Universidad de Chile", "Av/ Colombia, 19"). A town and its region in prose are no address:
# "visiting from Brisbane, Australia" keeps its country, as Safe Harbor keeps states.
_STREET_WORDS = (r"suite|ste|apt|unit|box|street|st|road|rua|rue|rd|avenue|ave|drive|lane|ln|blvd"
                 r"|way|utca|strasse|gasse")
# On the line before, "Dr" before a name is a doctor ("result called to Dr. Tarpeh today.⏎A/P:
# 68 yo M from Liberia"); on the region's own line it may be the street ("40 Oak Dr. Springfield,
# Texas").
_STREET_LINE_BEFORE = re.compile(
    rf"(?i:\d[^\n]{{0,40}}\b(?:{_STREET_WORDS}|dr)\b[^\n]{{0,50}}\Z"
    rf"|\d[^\n]{{0,40}}\b(?:{_STREET_WORDS}|dr(?!\.?[ \t]+(?-i:[A-Z][a-z])))\b[^\n]{{0,50}}"
    r"\n[^\n]{0,50}\Z)")
_PART_OF_A_NAME_BEFORE = re.compile(r"(?i:\b(?:de|del|of|la|av|avda|calle)[/.]?[ \t]+\Z)")


# ... but a region that says where someone belongs is no address's end, even after a comma
# ("76 YO M, Ontario resident", "retired trucker, Texas native").
_BELONGING_AFTER = re.compile(r"(?i:[ \t]+(?:residents?|natives?|citizens?|born)\b)")


def _in_an_address(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 100):start]
    return bool(_ADDRESS_BEFORE.search(before) and not _BELONGING_AFTER.match(text, end)
                or _POSTAL_AFTER.match(text, end)
                or _STREET_LINE_BEFORE.search(before) or _PART_OF_A_NAME_BEFORE.search(before))


STRICT = Policy(
    name="strict",
    description="Everything that can identify anyone: patients, providers, ages, all dates.",
    phi_labels=frozenset(Label),
)

HIPAA_SAFE_HARBOR = Policy(
    name="hipaa",
    description="HIPAA Safe Harbor: the 18 identifiers; ages over 89 only; years may stay.",
    phi_labels=frozenset(Label),
    age_over=89,
    keep_years=True,
    keep_weekdays=True,
    keep_sex=True,
    keep_occupations=True,
    keep_regions=True,
)

CANADIAN_REFERRAL = Policy(
    name="canadian-referral",
    description=("Canadian referral letter: patient identifiers (name, contact, address, "
                 "postal code, MRN/PHN/ULI/HCN, DOB); providers, clinics, ages and years stay."),
    phi_labels=frozenset({Label.PATIENT, Label.PERSON, Label.DATE, Label.ID, Label.PHONE,
                          Label.WEB, Label.LOCATION, Label.OTHER}),
    keep_years=True,
    keep_weekdays=True,
    keep_sex=True,
    keep_occupations=True,
)

POLICIES: dict[str, Policy] = {p.name: p for p in (STRICT, HIPAA_SAFE_HARBOR, CANADIAN_REFERRAL)}
DEFAULT_POLICY = "strict"


def get_policy(name: str) -> Policy:
    try:
        return POLICIES[name]
    except KeyError:
        known = ", ".join(sorted(POLICIES))
        raise ValueError(f"unknown policy {name!r} (known: {known})") from None
