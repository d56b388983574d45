"""Identifiers: SSN, SIN, MRN-like numbers with context, Canadian health numbers, cards."""

from __future__ import annotations

import re

from engine.core.labels import Label
from engine.detectors.regex import validators as v
from engine.detectors.regex.rule import RegexRule

ID = Label.ID
_L = r"(?<![\w\-/.])"
_R = r"(?![\w\-/]|\.\d)"
# "HCN - 6266 944 227"; a full stop that ends a line ends the sentence ("per chart.⏎2300-0130
# uneventful": a shift's hours, no chart number)
_SEP = r"\s*(?:#|no\.?|num(?:ber)?\.?|n°)?\s*(?:[:#]|\.(?![ \t]*\n)|-(?=[ \t]))?\s*"
# The value after a cue: letters and digits with at least one digit, dashes allowed.
_VALUE = r"((?=[A-Za-z\-]*\d)[A-Za-z0-9](?:[A-Za-z0-9]|[\-/.](?=[A-Za-z0-9])){3,24})(?![\w\-])"


# How often, not which: "meetings at the millrace group 3x/wk", "group 2x weekly".
_FREQUENCY = re.compile(r"(?i:\d{1,2}x(?:/(?:wk|week|day|d|mo|month|yr))?)")


# A blood gas, saturation or test after "ID" ("PER ID.⏎SPO2 86%", "PER ID. G6PD NORMAL"): a
# reading, not a number.
_GAS = re.compile(r"(?i:sp[o0]2|sa[o0]2|sv[o0]2|scv[o0]2|fi[o0]2|pa[o0]2|paco2|etco2|pco2|po2"
                  r"|g6pd|hiv-?[12]|hsv-?[12]|cd[48]|hba1c|a1c|b12|covid-?19|sars-cov-2|il-?6)")


# A visa's class after "Insurance:" is whose workers they are ("H-2A workers covered by employer").
_VISA = re.compile(r"(?i:[hjfloe]-?[1-3][a-c]?)")


def _not_a_frequency(value: str) -> bool:
    return not _FREQUENCY.fullmatch(value) and not _GAS.fullmatch(value) \
        and not _VISA.fullmatch(value)


# A span of time after the value: "Duration per ID: 7-14 days" is how long, not which.
_NOT_A_DURATION = r"(?![ \t]*(?i:d|days?|wks?|weeks?|hrs?|hours?|mos?|months?)\b)"


def _cued(name: str, cue: str, subtype: str | None, confidence: float = 0.9) -> RegexRule:
    return RegexRule(name, ID, rf"(?i:\b(?:{cue})){_SEP}{_VALUE}{_NOT_A_DURATION}", confidence,
                     subtype=subtype, group=1, validate=_not_a_frequency)


SSN_RULES: tuple[RegexRule, ...] = (
    RegexRule("ssn.dashed", ID, rf"{_L}(\d{{3}}-\d{{2}}-\d{{4}}){_R}", 0.9, subtype="SSN",
              group=1, validate=v.ssn),
    RegexRule("ssn.cued", ID,
              rf"(?i:\b(?:ssn|social\s+security(?:\s+(?:number|no\.?|#))?))\s*[:#]?\s*"
              rf"(\d{{3}}[\s\-]?\d{{2}}[\s\-]?\d{{4}}){_R}", 0.97, subtype="SSN", group=1,
              validate=v.ssn),
)

SIN_RULES: tuple[RegexRule, ...] = (
    RegexRule("sin.cued", ID,
              rf"(?i:\b(?:sin|social\s+insurance(?:\s+(?:number|no\.?|#))?))\s*[:#]?\s*"
              rf"(\d{{3}}[\s\-]?\d{{3}}[\s\-]?\d{{3}}){_R}", 0.97, subtype="SIN", group=1,
              validate=v.sin),
    RegexRule("sin.formatted", ID, rf"{_L}(\d{{3}}-\d{{3}}-\d{{3}}){_R}", 0.6, subtype="SIN",
              group=1, validate=v.sin),
)

_MBI_LETTER = "[AC-HJKMNP-RT-Y]"
_MBI_ANY = "[AC-HJKMNP-RT-Y0-9]"

ID_RULES: tuple[RegexRule, ...] = (
    _cued("id.mrn", r"mrn|mr\s*#|medical\s+record(?:\s+number)?|med\s+rec|hospital\s+(?:number|no)"
          r"|chart(?:\s+number)?|unit\s+number|patient\s+id|pt\s+id"
          r"|record\s+(?:id|number|no\b|#)", "MRN", 0.93),
    _cued("id.account", r"acct|account(?:\s+number)?|billing(?:\s+number)?|invoice"
          r"|claim(?:\s+number)?|encounter(?:\s+id)?|visit\s+(?:id|number)|fin|csn|har",
          "ACCOUNT", 0.9),
    _cued("id.insurance", r"insurance(?:\s+(?:id|number|policy))?|policy(?:\s+number)?|member\s+id"
          r"|group(?:\s+number)?|subscriber(?:\s+id)?|medicare|medicaid|plan\s+id|blue\s+cross"
          r"|mbi|hicn",  # Medicare's beneficiary identifier, and the claim number before it
          "INSURANCE", 0.88),
    # NPI: the provider's ten digits, not the pupillometer's index ("NPi 4.2/4.3")
    # "dl" after a slash is a unit: "548 mcg/dl. hco3 17"
    _cued("id.license", r"licen[cs]e(?:\s+number)?|driver'?s?\s+licen[cs]e|(?<!/)dl|cpso"
          r"|npi(?=\s*[:#]?\s*\d{10}\b)|dea"
          r"|registration(?:\s+number)?|college\s+(?:number|no)|billing\s+number|ohip\s+billing",
          "LICENSE", 0.88),
    _cued("id.device", r"serial(?:\s+number)?|s/n|device(?:\s+id)?|implant(?:\s+id)?"
          r"|lot\s+(?:number|no\b|#)"
          r"|model(?:\s+number)?|vin|plate", "DEVICE", 0.8),
    _cued("id.accession", r"accession(?:\s+number)?|specimen(?:\s+id)?|requisition|lab\s+id"
          r"|sample\s+id|case(?=\s*(?:#|no\b|id\b|number))|study\s+id"
          r"|order\s+(?:id|number)|incident\s+report|(?:safety\s+)?event\s+report(?:\s+filed)?",
          "ACCESSION", 0.85),
    _cued("id.generic", r"id|identifier|ref(?:erence)?|file(?:\s+number)?", None, 0.75),
    # "Last4: S6612": a veterans' chart key, the surname's initial and the SSN's last four.
    RegexRule("id.last4", ID, rf"(?i:\blast[ \t]?4)[ \t]*:[ \t]*([A-Za-z]?\d{{4}}){_R}", 0.85,
              group=1),
    # An unidentified trauma patient's alias, which the chart keeps until the name is known:
    # 'ARMBAND ALIAS "TRAUMA ZULU 4417"', "Trauma Bravo 2281 per EMS".
    RegexRule("id.trauma_alias", ID,
              r"(?i:\btrauma[ \t]+((?:alpha|bravo|charlie|delta|echo|foxtrot|golf|hotel|india"
              r"|juliet|kilo|lima|mike|november|oscar|papa|quebec|romeo|sierra|tango|uniform"
              r"|victor|whiskey|x-?ray|yankee|zulu)[ \t]+\d{2,6}))\b", 0.85, group=1),
    # Spanish record, social-security and college numbers, often in spaced groups:
    # "NHC: 2569870", "NASS: 47 39047534 02", "NºCol: 28 28 70973", "CIPA: nhc-739146".
    RegexRule("id.es_cued", ID,
              r"(?i:\b(?:nhc|nass|cipa|n[º°o]\.?[ \t]*col(?:egiado)?|dni|nie|nuhsa)[ \t]*[:#.]?"
              r"[ \t]*)((?:[a-z]{1,4}-)?\d{1,10}(?:[ \t]\d{1,10}){0,3}(?:[ \t]?[a-z])?)(?![\w\-])",
              0.9, group=1),
    # Medicare's beneficiary identifier by its shape, cued or not ("MEDICARE A/B 1EG4-TE5-MK72"):
    # eleven places of fixed kinds, letters without S, L, O, I, B or Z.
    RegexRule("id.mbi", ID,
              rf"{_L}([1-9]{_MBI_LETTER}{_MBI_ANY}\d-?{_MBI_LETTER}{_MBI_ANY}\d-?"
              rf"{_MBI_LETTER}{{2}}\d{{2}}){_R}", 0.8, subtype="INSURANCE", group=1),
    # Uncued: long digit runs and letter-prefixed numbers ("A1234567", "U62928788557186").
    RegexRule("id.long_number", ID, rf"{_L}(\d{{7,}}){_R}", 0.45, group=1),
    RegexRule("id.alnum", ID, rf"{_L}([A-Z]{{1,3}}\d{{6,}}[A-Z]?){_R}", 0.5, group=1),
    # Letter-prefixed identifiers after "#" or with a dash: "#KX-448120", "AB-123456".
    RegexRule("id.prefixed", ID,
              r"(?:#[ \t]?|(?<![\w\-/.#]))([A-Z]{1,4}-?\d{5,}[A-Z]?)(?![\w\-/])", 0.6, group=1),
    RegexRule("id.dashed_number", ID, rf"{_L}(\d{{4}}-\d{{2,3}}-\d{{4}}){_R}", 0.4, group=1),
)

_HCN_CUE = (r"phn|personal\s+health\s+(?:number|no)|health\s+(?:card|insurance|number)"
            r"(?:\s+(?:number|no|#))?|hcn|ohip|msp|ramq|carte\s+soleil|mcp|hsn|hin|mhsc")
PHN_RULES: tuple[RegexRule, ...] = (
    RegexRule("phn.cued", ID, rf"(?i:\b(?:{_HCN_CUE})){_SEP}"
              r"((?=[A-Za-z \-]*\d)[A-Za-z0-9](?:[A-Za-z0-9]|[ \-](?=[A-Za-z0-9])){6,16})"
              r"(?![\w\-])", 0.95, subtype="HCN", group=1, validate=v.health_number),
    RegexRule("uli.cued", ID,
              rf"(?i:\b(?:uli|ahcip|alberta\s+health(?:\s+care)?(?:\s+number)?)){_SEP}"
              rf"(\d{{5}}-?\d{{4}}){_R}", 0.96, subtype="ULI", group=1),
    RegexRule("uli.formatted", ID, rf"{_L}(\d{{5}}-\d{{4}}){_R}", 0.55, subtype="ULI", group=1,
              validate=v.luhn),
    RegexRule("phn.bc", ID, rf"{_L}(9\d{{3}}[\s\-]?\d{{3}}[\s\-]?\d{{3}}){_R}", 0.7,
              subtype="PHN", group=1, validate=v.bc_phn),
    RegexRule("hcn.ontario", ID,
              rf"{_L}(\d{{4}}[\s\-]\d{{3}}[\s\-]\d{{3}}(?:[\s\-]?[A-Z]{{2}})?){_R}", 0.75,
              subtype="HCN", group=1, validate=v.ontario_hcn),
    RegexRule("hcn.quebec", ID, rf"(?<![\w\-])([A-Z]{{4}}\s?\d{{4}}\s?\d{{4}}){_R}", 0.85,
              subtype="HCN", group=1),
)

FINANCE_RULES: tuple[RegexRule, ...] = (
    RegexRule("card.number", ID,
              rf"{_L}(\d{{4}}(?:[\s\-]?\d{{4}}){{2}}[\s\-]?\d{{1,7}}|\d{{12,19}}){_R}", 0.9,
              subtype="CREDIT_CARD", group=1, validate=v.credit_card),
    RegexRule("iban", ID,
              r"(?i:(?<![\w])([a-z]{2}\d{2}(?:\s?[a-z0-9]{4}){2,7}(?:\s?[a-z0-9]{1,4})?)(?![\w]))",
              0.9, subtype="IBAN", group=1, validate=v.iban),
)
