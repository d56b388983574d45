"""Phone/fax/pager numbers, e-mail, URLs and IP addresses."""

from __future__ import annotations

import re

from engine.core.labels import Label
from engine.detectors.regex.fragments import EMAIL
from engine.detectors.regex.rule import RegexRule
from engine.detectors.regex.validators import ip_address, web_shape

P, W = Label.PHONE, Label.WEB
_EXT_WORD = r"\s*(?:(?i:x|ext\.?|extension|poste)|#)\s*"  # Quebec's "poste 3"
_EXT = rf"(?:{_EXT_WORD}\d{{1,6}})?"  # "555-276-4410 X2", "ext 3"
# A number's groups are split by a space, a dot or a hyphen, never a tab or a line break (a
# table's cells: "0000\t200\t2000").
_NANP = (rf"(?:\+?1[ .\-]?|001[ .\-])?(?:\(\d{{3}}\) *|\d{{3}}[ .\-])\d{{3}}[ .\-]\d{{4}}"
         rf"{_EXT}")
_NANP_BARE = r"(?:\+?1)?\d{10}"
_INTL = (r"(?:\+|00)[1-9]\d{0,2}[ .\-]?(?:\(0?\d{1,4}\)[ .\-]?)?\d{1,5}(?:[ .\-]?\d{2,5}){1,4}"
         + _EXT)
# National formats (UK 07700 900123, FR 01.84.17.61.18, AU (08) 8747 6301 and 1800 123 456,
# 450 0840).
_NATIONAL = (r"(?:\(0?\d{1,4}\) ?\d{3,4}[ .\-]?\d{3,4}"
             r"|0\d{4}[ .\-]?\d{6}"  # a British mobile or town number: "07700 900123"
             r"|1[38]00[ .\-]?\d{3}[ .\-]?\d{3}"  # Australia's 1300 and 1800 numbers
             r"|0\d{1,4}(?:[ .\-]\d{2,4}){2,4}"
             r"|\d{2}(?:[.\-]\d{2}){3,4}"
             r"|\d{3}[ .\-]\d{3}[ .\-]\d{3}"
             r"|\d{3}[ \-]\d{4})"
             r"(?:\s*(?i:ext\.?|extension|poste)\s*\d{1,6})?")  # "at 555-0153 x2": tried twice
_L = r"(?<![\w+/.\-])"
_R = r"(?![\w/]|[.\-]\d)"
_CTX = (r"(?i:\b(?:tel(?:ephone)?|ph(?:one)?|cell(?:ular)?|mobile|home|work|contact|call)\b"
        r"\.?\s*(?:#|no\.?|number)?\s*[:.]?\s*)")
_FAX = r"(?i:\b(?:fax|facsimile|f)\b\.?\s*(?:#|no\.?|number)?\s*[:.]?\s*)"
_PAGER = r"(?i:\b(?:pager|pgr|pg|page|beeper|bleep)\b\.?\s*(?:#|no\.?|number)?\s*[:.]?\s*)"
_ANY = rf"(?:{_NANP}|{_INTL}|{_NATIONAL}|{_NANP_BARE})"

# Odd layouts: "301/555/0192", "301 5550192", "301555-0192" (area and exchange 2-9).
_ODD = r"[2-9]\d\d/[2-9]\d\d/\d{4}|[2-9]\d\d [2-9]\d{6}|[2-9]\d\d[2-9]\d\d-\d{4}"


_EXT_MARK = re.compile(rf"{_EXT_WORD}(?=\d)")
_DOTTED_DATE = re.compile(r"(?:0?[1-9]|[12]\d|3[01])\.(?:0?[1-9]|1[0-2])\.(?:19|20)\d\d\b")


def _not_a_range(text: str) -> bool:
    """"900-1300", "500 1000": two round numbers, the second larger, are a range; so are
    two clock times. "02.05.2024 10" is a date and an hour."""
    if _DOTTED_DATE.match(text):
        return False
    number = _EXT_MARK.split(text.split("\n")[0])[0]  # "NS 500-1000 x 2": a range, twice
    parts = [p for p in number.replace("-", " ").split() if p.isdigit()]
    if len(parts) >= 2 and all(len(p) == 4 and int(p[:2]) < 24 and int(p[2:]) < 60
                               for p in parts):
        return False  # "0700-1900", a shift; "given 0800 1200 1600 2000", a dose's times
    if len(parts) != 2:
        return True
    low, high = int(parts[0]), int(parts[1])
    return not (low < high and low % 50 == 0 and high % 50 == 0)


def _enough_digits(text: str) -> bool:
    """An international number has a country code and a subscriber number: "+3300" (a fluid
    balance) has neither."""
    return sum(c.isdigit() for c in text) >= 8


PHONE_RULES: tuple[RegexRule, ...] = (
    RegexRule("phone.nanp", P, rf"{_L}({_NANP}){_R}", 0.9, subtype="PHONE", group=1),
    RegexRule("phone.intl", P, rf"{_L}({_INTL}){_R}", 0.85, subtype="PHONE", group=1,
              validate=lambda text: _enough_digits(text) and _not_a_range(text)),  # "0035-0700:"
    RegexRule("phone.national", P, rf"{_L}({_NATIONAL}){_R}", 0.55, subtype="PHONE", group=1,
              validate=_not_a_range),
    RegexRule("phone.odd", P, rf"{_L}({_ODD}){_R}", 0.6, subtype="PHONE", group=1),
    RegexRule("phone.cued", P, rf"{_CTX}({_ANY}){_R}", 0.95, subtype="PHONE", group=1),
    RegexRule("phone.fax", P, rf"{_FAX}({_ANY}){_R}", 0.96, subtype="FAX", group=1),
    # "PAGER 38214", "PAGER 4-0917" (an exchange digit, then the number)
    RegexRule("phone.pager", P, rf"{_PAGER}({_ANY}|\d{{3,6}}|\d{{1,2}}-\d{{3,5}}){_R}", 0.96,
              subtype="PAGER", group=1),
    # An extension alone, as signatures and call-backs give it: "LICSW  x4417", "(ext 3-5512)",
    # "EXT 6-4410"; never a count ("2 x 1000", "bolus x1000"). The number is the span.
    RegexRule("phone.extension", P,
              r"(?:(?<![\w.])(?i:ext\.?|extension)[ \t]?|(?:^|(?<=[ \t]{2})|(?<=[(,;])[ \t]?)x"
              r"|(?<![\w.])(?<!\d[ \t])x(?=\d-\d{4})"  # "security x5-5000"
              r"|(?<![\w.])(?<!\d[ \t])x(?=\d{3}[1-9]\d?[ \t]*$)"  # "Services x6214" ends a line
              # "paged resident at x4417", "unit direct line x3382", "PAGED AT X4417", "call x4417"
              r"|(?:(?<=\b(?i:at|to)[ \t])|(?<=\b(?i:line|call|page)[ \t])|(?<=\b(?i:paged)[ \t]))"
              r"(?i:x)(?=\d{4}(?!\d))(?!\d000))"
              r"(\d(?:-?\d){3,4})(?![\w\-/]|\.\w)"  # a sentence's period may follow
              r"(?![ \t]*(?i:mg|mcg|ml|cc|units?|%|/))", 0.6, subtype="PAGER", group=1),
)

_TLD = (r"(?:com|org|net|edu|gov|mil|int|info|biz|io|co|us|ca|uk|au|nz|ie|de|fr|es|it|nl|be|"
        r"ch|at|se|no|dk|fi|pl|cz|sk|hu|pt|br|ar|mx|uy|cl|ee|lv|lt|si|hr|gr|cy|ro|bg|ru|ua|"
        r"in|jp|cn|kr|za|health|med|clinic|app|dev|me|tv|ly)")
EMAIL_RULES: tuple[RegexRule, ...] = (
    RegexRule("email", W,
              rf"(?<![\w.+\-])({EMAIL})\b",
              0.98, subtype="EMAIL", group=1),
)
URL_RULES: tuple[RegexRule, ...] = (
    RegexRule("url.scheme", W, r"(?i:\b((?:https?|ftp)://[^\s<>\"')\]]+[^\s<>\"')\].,;:!?]))",
              0.98, subtype="URL", group=1),
    RegexRule("url.www", W, r"(?i:(?<![\w./@])(www\.[\w\-]+(?:\.[\w\-]+)+"
              r"(?:/[^\s<>\"')\]]*[^\s<>\"')\].,;:!?])?))",
              0.95, subtype="URL", group=1),
    RegexRule("url.domain", W,
              rf"(?<![\w./@\-])([A-Za-z][\w\-]*(?:\.[\w\-]+)*\.{_TLD}(?:\.{_TLD})?"
              r"(?:/(?:[^\s<>\"')\]]*[^\s<>\"')\].,;:!?])?)?)(?![\w@])",
              0.6, subtype="URL", group=1, validate=web_shape),
)
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IP_RULES: tuple[RegexRule, ...] = (
    RegexRule("ip.v4", W, rf"(?<![\w.])({_OCTET}(?:\.{_OCTET}){{3}})(?![\w]|\.\d)", 0.9,
              subtype="IP", group=1),
    RegexRule("ip.v6", W,
              r"(?i:(?<![\w:])((?:[0-9a-f]{1,4}:){2,7}(?::|[0-9a-f]{1,4})(?:[0-9a-f:]*))(?![\w:]))",
              0.85, subtype="IP", group=1, validate=ip_address),
)
