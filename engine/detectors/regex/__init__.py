"""Rule-based detectors: one ``RuleDetector`` per family of ``RegexRule`` data."""

from __future__ import annotations

from engine.core.regex_cache import rule_patterns
from engine.detectors.base import Detector
from engine.detectors.regex.ages import AGE_RULES
from engine.detectors.regex.aliases import ALIAS_RULES
from engine.detectors.regex.bed_lists import BED_LIST_RULES
from engine.detectors.regex.compound_names import COMPOUND_NAME_RULES
from engine.detectors.regex.contact import EMAIL_RULES, IP_RULES, PHONE_RULES, URL_RULES
from engine.detectors.regex.dates import RULES as DATE_RULES
from engine.detectors.regex.facilities import FACILITY_RULES
from engine.detectors.regex.ids import FINANCE_RULES, ID_RULES, PHN_RULES, SIN_RULES, SSN_RULES
from engine.detectors.regex.locations import ADDRESS_RULES, POSTAL_RULES
from engine.detectors.regex.names import NAME_RULES
from engine.detectors.regex.rule import RegexRule, RuleDetector
from engine.detectors.regex.sex import SEX_RULES
from engine.detectors.regex.staff import STAFF_RULES
from engine.detectors.regex.towns import TOWN_RULES
from engine.detectors.regex.wards import WARD_RULES

# (spec id, version, rules, description). Bump a version when a family's behaviour changes.
FAMILIES: tuple[tuple[str, int, tuple[RegexRule, ...], str], ...] = (
    ("regex.date", 22, DATE_RULES, "numeric, ISO, written and partial dates; years"),
    ("regex.phone", 9, PHONE_RULES, "phone, fax and pager numbers"),
    ("regex.email", 1, EMAIL_RULES, "e-mail addresses"),
    ("regex.url", 3, URL_RULES, "URLs and domain names"),
    ("regex.ip", 1, IP_RULES, "IPv4 and IPv6 addresses"),
    ("regex.ssn", 1, SSN_RULES, "US social security numbers"),
    ("regex.sin", 1, SIN_RULES, "Canadian social insurance numbers (Luhn)"),
    ("regex.id", 13, ID_RULES, "MRN, account, insurance, licence and other cued IDs"),
    ("regex.phn", 2, PHN_RULES, "Canadian PHN, Alberta ULI, provincial health card numbers"),
    ("regex.finance", 1, FINANCE_RULES, "credit card numbers (Luhn) and IBANs (mod 97)"),
    ("regex.postal", 2, POSTAL_RULES, "US ZIP, Canadian and Spanish (CP) postal codes"),
    ("regex.address", 29, ADDRESS_RULES + TOWN_RULES,
     "street addresses with unit and city lines; lower-case towns after from/in/to,"
     " eponym towns after lives in/pt from; hyphenated Quebec and Acadian towns"),
    ("regex.sex", 1, SEX_RULES, "the patient's sex in a demographic field or description"),
    ("regex.age", 3, AGE_RULES, "ages (English, Spanish), every one proposed; the policy filters"),
    ("regex.name", 23, NAME_RULES + COMPOUND_NAME_RULES + BED_LIST_RULES + ALIAS_RULES,
     "names in titles, credentials, form fields, signatures; two-word tribal surnames;"
     " trauma aliases"),
    ("regex.facility", 27, FACILITY_RULES + WARD_RULES,
     "hospitals, clinics and companies by head word; acronyms and wards after at/to/from"),
    ("regex.staff", 19, STAFF_RULES,
     "staff names without a title: lower case or initial and surname in provider phrases"),
)

rule_patterns().save()  # every shipped rule is compiled by now (a no-op when all were cached)

# Families whose rules read capitals: they also run on a cased view of caseless lines.
CASED_VIEW = frozenset({"regex.address", "regex.name", "regex.facility"})
# Families for which a caseless line is read only through that view: an address reads every
# capital as a place word, while names and facilities also read acronyms ("to CMC").
VIEW_ONLY = frozenset({"regex.address"})


def default_rule_detectors() -> list[Detector]:
    return [RuleDetector(id, rules, version=version, description=description,
                         cased_view=id in CASED_VIEW, view_only=id in VIEW_ONLY)
            for id, version, rules, description in FAMILIES]


__all__ = ["FAMILIES", "RegexRule", "RuleDetector", "default_rule_detectors"]
