"""Where a place or a contact span ends, for every detector.

- A street address and the town after it are two places, as annotators and the surrogates
  see them: "48 orchard ln, dunmore" is "48 orchard ln" and "dunmore"; a flat stays with its
  street ("229 Cardinal Way, Apt 3B"), a state with its town ("Naples, FL").
- A model's e-mail is the address alone, its phone loses a clock taken with it
  (``contact_core``); its place a count or clock after it (``place_without_a_count``).
- A name right after a facility's head word is the facility's ("Hospital San Teodoro",
  ``facility_head_before``); a place or facility followed by its head word takes it in
  ("pinecrest rehab", "Tennick Falls": ``with_facility_head``).
"""

from __future__ import annotations

import re

from engine.core.domain import Span
from engine.core.labels import Label
from engine.detectors.regex.fragments import EMAIL, HHMM

_CLOCK = re.compile(HHMM)

# "48 orchard ln, dunmore": a street (its kind of way, or a flat after it) and then a town.
_STREET_THEN_TOWN = re.compile(
    r"(?i:\b(?:street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|court|ct|way|terrace"
    r"|terr|ter|place|pl|circle|cir|pike|row|bend|highway|hwy|parkway|pkwy|trail|trl|square|sq"
    r"|crescent|cres|close|crossing|loop|run|alley|walk|(?:apt|apartment|unit|suite|ste|#)\.?"
    r"[ \t]*[0-9]+[a-z]?))\.?(,[ \t]+)(?=[^\W\d_])")
_FLAT_OR_STATE = re.compile(r"(?i:(?:apt|apartment|unit|suite|ste|floor|fl|bldg|building|room|rm"
                            r"|po box|box)\b)|[A-Z]{2}\b(?![ \t]*[A-Za-z])")


def street_then_town(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``(start, end)`` cut between a street and the town after it; a flat or a state after
    the comma stays ("229 Cardinal Way, Apt 3B", "12 Main St, MA 02139")."""
    out: list[tuple[int, int]] = []
    pos = start
    for comma in _STREET_THEN_TOWN.finditer(text, start, end):
        if _FLAT_OR_STATE.match(text, comma.end(1), end):
            continue
        out.append((pos, comma.start(1)))
        pos = comma.end(1)
    out.append((pos, end))
    return out


_EMAIL = re.compile(EMAIL)
_CLOCK_AT_END = re.compile(rf"[ \t]+{HHMM}\Z")
_CLOCK_AT_START = re.compile(rf"{HHMM}(?:,[ \t]*|[ \t]+-[ \t]+|[ \t]+(?=\(|\d{{3}}[ .\-]))")
# A whole phone number or extension before that time: "(555) 902-6617", "X6-3391", "x4417".
_WHOLE_NUMBER = re.compile(r"(?:\+?1[ .\-]?)?\(?\d{3}\)?[ .\-]?\d{3}[ .\-]?\d{4}"
                           r"|\d{10}|(?i:x|ext\.?[ \t]?)?\d{0,3}-?\d{4}")


# A count or a clock a model's place took from the words after it: "returned from PORT AMARU 3
# wks ago", "arrived from Marisca 5 mo ago", "ECMO team at Kesterton Children's 0730".
_NUMBER_AT_END = re.compile(r"[ \t]+(\d{1,4})\Z")
# An address's numbered part: "Suite 1400", "Route 1800", "PO Box 2210".
_NUMBERED_BEFORE = re.compile(r"(?i:\b(?:suite|ste|unit|apt|room|rm|box|route|rte|hwy|highway"
                              r"|road|rd|st|street|ave|avenue|blvd|floor|fl|building|bldg))\.?\Z")
_DURATION_AFTER = re.compile(r"[ \t]*(?i:wks?|weeks?|mos?|months?|days?|d|yrs?|years?|hrs?"
                             r"|hours?|mins?)\b")


_TIMES_AT_END = re.compile(r"[ \t]+[xX]\Z")  # "was at saint brendan's x 2 days"
_NUMBER_NEXT = re.compile(r"[ \t]*\d")


def place_without_a_count(text: str, start: int, end: int) -> tuple[int, int]:
    times = _TIMES_AT_END.search(text, start, end)
    if times and _NUMBER_NEXT.match(text, end):
        return start, times.start()
    number = _NUMBER_AT_END.search(text, start, end)
    if number is None:
        return start, end
    digits = number.group(1)
    clock = bool(_CLOCK.fullmatch(digits)) \
        and not _NUMBERED_BEFORE.search(text, start, number.start())
    if clock or _DURATION_AFTER.match(text, end):
        return start, number.start()
    return start, end


def contact_core(text: str, start: int, end: int, web: bool) -> tuple[int, int]:
    """A model's address or phone without the words it took along: "CGC - ALOFTUS@..." is the
    address, "X6-3391 0315" the extension without the time it was called."""
    covered = text[start:end]
    if web:
        email = _EMAIL.search(covered)
        return (start + email.start(), start + email.end()) if email else (start, end)
    clock = _CLOCK_AT_END.search(covered)
    if clock and _WHOLE_NUMBER.fullmatch(covered[:clock.start()]):
        return start, start + clock.start()  # not the last group of "413 555 0143"
    clock = _CLOCK_AT_START.match(covered)
    if clock and _WHOLE_NUMBER.fullmatch(covered[clock.end():]):
        start += clock.end()
        if text[start] == "(" and ")" not in text[start:end]:
            start += 1  # the bracket's other half stayed out of the model's span
        return start, end  # "called 1330, 978-555-0154", "AT 2230 (614 555 0173", "AT 0315 410
        # 5550184"
    return start, end


# The words that head a facility's name: what the guards, the joins and the telegraphic rules
# know a facility by ("FOR MERCY HOSPITAL", "Hospital, Tulsa", "Sunrise Dialysis of Weslaco").
FACILITY_HEADS = ("hospital", "hosp", "clinic", "rehab", "rehabilitation", "center", "centre",
                  "institute", "infirmary", "hospice")


# A facility named head first, as Spanish and French ones and some hospices are: "Accepting
# facility: Hospital San Teodoro", "ADMITTED FROM CLINICA SANTA LUCIA", "Clinique Sainte-Anne",
# "REFERRAL TO HOSPICE ANUENUE".
_HEAD_FIRST = re.compile(r"(?<![\w\-])(?i:hospital|hospice|clinic|cl[ií]nica|h[oô]pital|clinique"
                         r"|centro|sanatorio)[ \t]+\Z")


def facility_head_before(text: str, start: int, end: int) -> int:
    """Where the facility whose name is ``text[start:end]`` begins, or -1: a name right after
    such a head, both capitalised alike, is the facility's (not "burn clinic q2wk", "went to
    hospital Mercy West")."""
    head = _HEAD_FIRST.search(text, max(0, start - 16), start)
    if head is None:
        return -1
    word = head.group().split()[0]
    return head.start() if word[:1].isupper() and _same_case(word, text[start:end]) else -1


# A facility's head word left outside a place's span ("pinecrest rehab", "NORTH END HEALTH
# CTR", "St. Casimir's Home", "BRINDLECOMBE REHAB & NURSING"): it is part of the name.
_KINDS = (r"nursing|rehab|rehabilitation|health|medical|community|cardiac|wellness|senior"
          r"|assisted|skilled|recovery|family|group|night|cancer|kidney|specialty|funeral"
          r"|rest|retirement")
# A town's head, taken in written in the span's case: "Tennick Falls", "KESTREL HARBOR".
_TOWN_HEADS = frozenset({"falls", "springs", "harbor", "harbour", "heights", "creek", "mills",
                         "crossing", "village"})
# A programme's head, also in the span's case: "Westbury Home Dialysis Program".
_CASED_HEADS = frozenset({"program", "programme"})
# Whom a hospital is for, in the name's case too: "Mercy Colfax Women's", "St. Rita Children's".
_WHOSE_HEADS = frozenset({"women's", "women’s", "children's", "children’s"})
_HEADS = frozenset({"rehab", "rehabilitation", "ctr", "center", "centre", "house", "inn",
                    "lodge", "shelter", "hospice", "recovery", "hospital", "hosp", "facility",
                    "manor", "residence", "commons", "living", "nursing", "home", "sons",
                    "regional", "general", "memorial", "vna", "ltach", "ltac",
                    "post-acute"})  # "LONE MOUNTAIN POST-ACUTE", "oak street post-acute"
_ALL_HEADS = _HEADS | _TOWN_HEADS | _CASED_HEADS | _WHOSE_HEADS
_HEAD_AFTER = re.compile(rf"(?i:(?P<dot>\.)?[ \t]+(?P<kinds>(?:(?:{_KINDS})[ \t]+){{0,2}})"
                         rf"(?P<and>(?:&|and)[ \t]+(?:(?:{_KINDS})[ \t]+)?)?"
                         rf"(?P<head>{'|'.join(sorted(_ALL_HEADS))})\b)")
_KIND_WORDS = frozenset(_KINDS.split("|"))  # "GLENHAVEN NURSING" goes on to its "CENTER"
# What follows a head word that is no part of a name ("tavish general surgery").
_NOT_A_NAME_AFTER = re.compile(r"(?i:[ \t]+(?:surgery|surg|medicine|med|anesthesia|appearance"
                               r"|supervisor|director|manager|staff|coordinator|w/|with|alone"
                               r"|health|care)\b)")
# A head that needs a kind before it: "assisted living", "group home", "REHAB & NURSING".
_NEEDS_KIND = frozenset({"living", "home"})
_NEEDS_AND = frozenset({"nursing", "sons"})


def _same_case(word: str, other: str) -> bool:
    return word.isupper() == other.isupper() and word[:1].isupper() == other[:1].isupper()


def with_facility_head(text: str, span: Span) -> Span:
    """A place or facility followed by its head word takes it in, unless it has one already
    ("Seaview Manor assisted living" is the manor)."""
    if span.label not in (Label.HOSPITAL, Label.LOCATION):
        return span
    match = _HEAD_AFTER.match(text, span.end)
    if match is None or _NOT_A_NAME_AFTER.match(text, match.end()):
        return span
    last = text[span.start:span.end].split()[-1].casefold().rstrip(".,")
    if match.group("dot") and len(last) > 4:
        return span  # "Univ. Hosp of Caldermoor"; not "Mercy. Hospital staff"
    if (last in _HEADS or last.endswith("'s") and last[:-2] in _HEADS) \
            and last not in _KIND_WORDS and not match.group("and"):
        return span  # "Seaview Manor assisted living"; "LINDEN REHAB & NURSING" goes on
    head = match.group("head")
    key = head.casefold()
    cased = _same_case(text[span.start:span.end].split()[-1], head)  # the name's case
    if key in _TOWN_HEADS and (span.label is not Label.LOCATION or match.group("kinds")
                               or not cased):
        return span  # "Hollis falls risk": a town's head only in its own case
    if key in _CASED_HEADS and (span.label is not Label.HOSPITAL or not cased):
        return span
    if key in _WHOSE_HEADS and (match.group("kinds") or not cased):
        return span
    if key in _NEEDS_AND and not match.group("and"):
        return span
    if key in _NEEDS_KIND and not match.group("kinds") and not match.group("and") \
            and last not in _KIND_WORDS \
            and not (key == "home" and head[0].isupper() and not head.isupper()
                     and text[span.end - 2:span.end] in ("'s", "’s")):
        return span  # "St. Casimir's Home", not "tern harbor home w/ wife"
    return span.moved(span.start, match.end())
