"""Organisations and facilities named with a telling head word ("Lakeside Clinic", "Acme Inc.")."""

from __future__ import annotations

from engine.core.labels import Label
from engine.detectors.regex.fragments import LETTER, UP
from engine.detectors.regex.rule import RegexRule

H = Label.HOSPITAL
_TOKEN = rf"(?:{UP}{LETTER}*(?:['’]s)?|St\.|&|and|of|de|du|la|for)"
_HEAD = (r"(?:Hospital|Clinic|Medical\s+Cent(?:er|re)|Health\s+Cent(?:er|re)|Health\s+Sciences?"
         r"|Infirmary|Sanatorium|Hospice|Pharmacy|Drug\s+Mart|Laboratories|Labs?|Imaging"
         r"|Radiology|Rehabilitation\s+Cent(?:er|re)|Nursing\s+Home|Care\s+Cent(?:er|re)"
         r"|Institute|University|College|Foundation|Group|Associates|Partners|Holdings"
         r"|Technologies|Consulting|Software|Systems|Solutions|Corporation|Company|Bank"
         r"|Capital|Insurance|Industries|Enterprises|Ventures)")
_SUFFIX = r"(?:Inc|LLC|L\.L\.C|Ltd|Limited|Corp|Co|PLC|GmbH|AG|S\.A|SA|LLP|LP|PC|PLLC|Pty)"

FACILITY_RULES: tuple[RegexRule, ...] = (
    RegexRule("facility.head", H,
              rf"\b((?:{UP}{LETTER}*(?:['’]s)?|St\.)(?:[ \t]+{_TOKEN}){{0,4}}[ \t]+{_HEAD})\b",
              0.7, group=1),
    RegexRule("facility.company", H,
              rf"\b({UP}[\w\-]*(?:,?[ \t]+{_TOKEN}){{0,3}},?[ \t]+{_SUFFIX}\b\.?)", 0.8, group=1),
)
