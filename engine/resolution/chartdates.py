"""Month/day charting dates without a year ("extub 4/1", "line 8/5", "sent to floor 12/13")
told apart from ventilator settings, ratios and vitals ("PS 5/5", "CPAP 5/10/35%", "BP 120/60")
by their context, and two-digit years in history lines ("MI '92", "CABG 81").

``charting_date`` is the classifier: evidence for a date is an event word (a procedure too:
"sphincterotomy 6/1"), ``on``/``since``/``until`` or a weekday just before, ``s/p`` a few words
back ("s/p CABG x3 3/2") or a move to a place ("d/c to Park 6A 2/6"), or a clock time just
after ("4/18 5am") or a procedure ("5/8 debridement"), or a note's heading before it ("MICU
PROGRESS NOTE - 1/3"); evidence against is vent or
vital vocabulary just before, a ``%`` or a third part (``10/5/40%``) after, or a slash before.
Against wins.
"""

from __future__ import annotations

import re

from engine.detectors.regex.fragments import CHART_EVENTS as _EVENTS
from engine.detectors.regex.fragments import (
    CLOCK_AFTER,
    HISTORY_EVENTS,
    MOVED_TO,
    NOTE_HEADING,
    STATUS_POST,
)
from engine.detectors.regex.validators import uneven_month_day as uneven_value

# "extub 4/1", "Admitted here: 2/4": an event, then at most one word, or where it went
# ("returned to ship 2/9", "TRANSFERRED OUT OF MICU 2/3").
_EVENT_BEFORE = re.compile(rf"(?i:(?<![\w/])\??(?:{_EVENTS})\b[ \t:,\-~(]*"
                           r"(?:[?#]?\w+(?:/[^\W\d_]*)?[ \t:]+"  # "CT A/P 2/3"
                           r"|(?:to|into|from|out[ \t]+of|back[ \t]+to)[ \t]+"
                           r"(?:[\w'-]+[ \t:]+){1,2})?$)")  # "Admit to MICU: 2/8"
# A procedure right after: "; 5/8 debridement", "4/2 thoracotomy".
_PROCEDURE_AFTER = re.compile(r"^[ \t]+(?i:\w+(?:ectomy|ectomies|otomy|otomies|ostomy|plasty"
                              r"|scopy|pexy)|debridement|excision|autograft|amputation|washout"
                              r"|extubation|intubation|admit|admission)\b")  # "5/5 ADMIT"
# "rewarm starting 1600 10/17", "ambulance for 10am 9/9": a clock time just before.
_CLOCK_BEFORE = re.compile(r"(?<![\d/.:])(?:(?:[01]\d|2[0-3])[0-5]\d"
                           r"|(?i:(?:1[0-2]|0?[1-9])(?::[0-5]\d)?[ \t]?[ap]m))[ \t]+$")
_DIRECT_EVENT_BEFORE = re.compile(rf"(?i:(?<![\w/])(?<!post-)(?<!pre-)\??(?:{_EVENTS})\b"
                                  r"[ \t:,\-~(]*$)")
_STATUS_POST_BEFORE = re.compile(rf"(?i:(?<![\w/])(?:{STATUS_POST}|{MOVED_TO})[ \t(~]$)")
_VENT_VITALS = (r"ps|psv|peep|cpap|bipap|simv|imv|ac|a/c|pc|pcv|prvc|aprv|vc|tv|vt|rr|fio2"
                r"|bp|nbp|abp|art|map|sbp|hr|rate|set|vent|settings|ratio|i:e|ie|trial|sbt"
                r"|x|by|@|to|gcs|rass|cpot|pain|strength|score|murmur|grade|gr|power|sounds"
                r"|mmse|moca|slums|nihss"
                r"|day|dose|cycle|round|course|bottles?|pod"  # "IVIG day 2/5": day 2 of 5
                r"|beds")  # "cxr beds 2/4": beds 2 and 4
# A slash before ("10/5/40%") is against; not one inside a word ("COMPARED W/ 4/5", "CT A/P 2/3").
_AGAINST_BEFORE = re.compile(rf"(?i:(?:\b(?:{_VENT_VITALS})|(?<![a-z])/)[ \t:=]*$)")
# An event up to two words back ("last dose 10/19", "weaned off bipap 10/16").
_EVENT_NEAR = re.compile(rf"(?i:(?<![\w/])(?:{_EVENTS}|weaned)\b(?:[ \t]+[\w/]+){{0,2}}[ \t:]*$)")
# A dose already counted by an ordinal: what follows it is when, not which of how many.
_COUNTED_DOSE_BEFORE = re.compile(r"(?i:\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth"
                                  r"|next|final|last)[ \t]+(?:[a-z]+[ \t]+)?dose[ \t:]*$)")
_OF_AFTER = re.compile(r"[ \t]+(?i:of)\b")
# "day 10/14", "dose 2/5", "cycle 3/12": the x of a course of y, rising like a date.
_COURSE_BEFORE = re.compile(r"(?i:\b(?:day|cycle|round|course|bottles?|pod|hd|wk|week|#)"
                            r"[ \t:=]*$)")


def counted_dose_before(text: str, start: int, end: int) -> bool:
    """An ordinal's dose just before ("after 3rd dose 8/11", "NEXT DOSE 6/10", "LAST APIXABAN
    DOSE 9/6 AM")."""
    return bool(_COUNTED_DOSE_BEFORE.search(text, max(0, start - 32), start)) \
        and not _OF_AFTER.match(text, end)  # "next dose 2/3 of usual": a fraction


def rising_day(core: str) -> bool:
    """"10/16": a day past 12 after a smaller first number, which no pressure pair, blood
    pressure or score writes."""
    parts = core.split("/")
    return len(parts) == 2 and all(p.isdigit() for p in parts) \
        and 1 <= int(parts[0]) <= 12 and 12 < int(parts[1]) <= 31
# Scores and settings a few words back: "rated his pain today as 6/10", "PS today at 10/5",
# the encephalopathy score of cell therapy ("ICE 6/10 at 0400").
_SCORED = re.compile(r"(?i:\b(?:pain|rated|rates|score|scale|grade|murmur|strength|power|ps"
                     r"|mmse|moca|psv|peep|cpap|bipap|simv|vent|settings|bp|rpe|borg|gcs"
                     r"|nihss|cpot|rass|ciwa|cows|braden|nodes|ice|icans|sppb|tug|mrc|mmt"
                     r"|pram|pews|flacc"  # children's asthma, warning and pain scores
                     # muscles graded right/left ("biceps 5/5, triceps 3/2, grip 4/3")
                     r"|biceps|triceps|deltoids?|grip|quads?|quadriceps|hamstrings?|iliopsoas"
                     r"|ehl|dorsiflexion|plantarflexion|flex"
                     r"|ha|h/a|headache|c/o)\b"  # "C/O HA 6/10 -> TYLENOL": a pain's score
                     r"(?:[ \t:=,]+[^\s/]+){0,3}[ \t:=]*$)")
_AGAINST_AFTER = re.compile(r"^(?:[ \t]*%|/\d|[ \t]*(?:cm|mmhg|mm|h2o|x\b|breaths|on\s+\d"
                            r"|bilat(?:eral(?:ly)?)?\b|b/l\b))",  # "(last 5/5 bilat)"
                            re.IGNORECASE)
# A clock, a part of the day or a line's day count after: "4/18 5am", "remove 2/4 AM",
# "L IJ TLC 6/7 (day 7)".
_CLOCK_AFTER = re.compile(rf"^(?:{CLOCK_AFTER}|[ \t]+\((?i:day)[ \t]*\d)")

# The start of a period that runs until now: "ICU course 10/3 to present", "10/3-present".
_UNTIL_NOW_AFTER = re.compile(r"^[ \t]*(?:-|–|to|thru|through|until)[ \t]*(?i:present|now|date)\b",
                              re.IGNORECASE)

# A culture's result after its date: "4/4 NGTD", "4/6 no growth".
_CULTURE_AFTER = re.compile(r"^[ \t,:\-]*(?i:ngtd|no[ \t]+growth)\b")


def culture_result_after(text: str, end: int) -> bool:
    """A culture's result right after a month/day ("4/4 NGTD"): a date even in a list that
    began with a bottle count ("BCx 4/2 MRSA 2/2, 4/4 NGTD")."""
    return bool(_CULTURE_AFTER.match(text[end:end + 16]))


# A pressure pair before its oxygen ("Bipap weaned to 10/5 40%", "mask 12/6, FiO2 50%").
_OXYGEN_AFTER = re.compile(r"^[ \t,]*(?:\d{2,3}[ \t]*%|(?i:fio2|fi02|o2)\b)")
# Bottles that grew an organism ("bcx 1/2 e coli", "2/4 GPC in clusters").
_ORGANISM_AFTER = re.compile(
    r"^[ \t]+(?i:e\.?[ \t]?coli|gpc|gnr|gpr|mrsa|mssa|vre|staph|strep|kleb|klebsiella"
    r"|pseudomonas|enterococc|enterobacter|candida|yeast|serratia|proteus|acinetobacter"
    r"|sets?|bottles?"  # "Periph BCx 1/2 sets same"
    r"|bcx|blood[ \t]+(?:cx|cultures?))")  # "E. coli in urine and 2/4 blood cx"
_BOTTLES = re.compile(r"([1-4])/([24])")
# Two ribs by number after their side: "L 11/12 rib fx", "R 9/10 RIBS".
_RIBS_AFTER = re.compile(r"[ \t]*(?i:ribs?)\b")
_SIDE_BEFORE = re.compile(r"(?i:\b(?:l|r|lt|rt|left|right|bilat|bilateral)[ \t]+\Z)")


def two_ribs(text: str, start: int, end: int) -> bool:
    """"Also L 11/12 rib fx": two ribs by number, the smaller first, after a side."""
    first, _, second = text[start:end].partition("/")
    return first.isdigit() and second.isdigit() and int(first) < int(second) <= 12 \
        and bool(_RIBS_AFTER.match(text, end)) \
        and bool(_SIDE_BEFORE.search(text, max(0, start - 8), start))


# The pupils' sizes, right and left: "pupils back to 3/3", "PUPILS 4/4 BRISK".
_PUPILS_BEFORE = re.compile(r"(?i:\bpupils?\b[^.\n]{0,16}\Z)")
# Specimens that grew it: "MSSA 3/3 TISSUE SPECIMENS".
_SPECIMENS_AFTER = re.compile(r"^[ \t]+(?i:tissue|specimens?|samples?|swabs?)\b")
# An organism right before its bottle count ("BCx from adm MRSA 2/2 -> repeat BCx x2").
_ORGANISM_BEFORE = re.compile(r"(?i:\b(?:gpcs?|gnrs?|gprs?|mrsa|mssa|vre|e\.?[ \t]?coli|yeast"
                              r"|candida|klebsiella|kleb|pseudomonas|enterococcus)[ \t:]*\Z)")
_ORGANISM_IN_BEFORE = re.compile(r"(?i:\b(?:gpc|gnr|gpr|gpcs|gnrs|yeast|e\.?[ \t]?coli|mrsa|vre)"
                                 r"(?:[ \t]+in[ \t]+clusters)?[ \t]+in[ \t]*$)")
# Blood cultures right before a bottle count, unless a culture's result follows its date
# ("BCx 4/4 NGTD").
_CULTURES_BEFORE = re.compile(r"(?i:\b(?:bcx|bc|blood[ \t]+(?:cx|cultures?))[ \t:]*\Z)")
_EQUALS_AFTER = re.compile(r"^[ \t]*=[ \t]*\d+(?![\d/])")  # not "from 2/1 = 4/26": dates
# A strength or pain score on the scale the line already used ("LE 2-3/5 R > L, improved from
# 1/5"); dates repeat too ("BCX 1/3 ... BCX 1/3"), so only these two scales.
_SCALE_BEFORE = re.compile(r"(?<![\d/])\d(?:-\d)?/(\d{1,2})(?![\d/])")


# A quantity of something ("D50 1/2 amp", "1/5 vodka daily", "1/2 tab", "1/2 bath on 1st",
# "1/2 NS") or a score going on to another on its scale ("pain 9/10 -> 5/10").
_QUANTITY_AFTER = re.compile(r"^[ \t]*(?i:amps?|tabs?|tablets?|vials?|bags?|cups?|pints?"
                             r"|fifths?|packs?|ppd|gallons?|quarts?|qt|oz|vodka|whiskey|beers?"
                             r"|wine|liquor|of[ \t]+(?:a|an|the)\b"
                             r"|baths?\b|bathrooms?|doses?\b|strength|ns\b|nss\b|way\b"
                             r"|bottles?\b|sl\b|mg\b|mcg\b"  # "in 1/2 bottles", "bup 8/2 SL"
                             r"|bid\b|tid\b|qid\b"  # "bup-nal 8/2 BID"
                             r"|pain\b"  # "pt reports 6/10 pain l chest wall"
                             r"|l\b|lpm\b|liters?\b|litres?\b"  # "on 1/2 l nc"
                             r"|of\b(?=[^\n]{0,30}\bdoses?\b)"  # "at 2/3 of waking dose"
                             r"|(?:lymph[ \t]+)?nodes?\b|lns?\b)")  # "4/42 nodes positive"
# "pain 9/10 -> 5/10", "CP BETTER (4/10 FROM 7/10)"
# "pre-op ble 2/5, now hf 3/5": the same scale again, now and for another muscle group.
_NEXT_SCORE = re.compile(r"^[ \t]*(?:->|→|-->|(?i:to|from|down[ \t]+from|up[ \t]+from|was)"
                         r"|,?[ \t]*(?i:now)(?:[ \t]+[a-z/]{1,6})?)[ \t]*"
                         r"\d{1,2}/(\d{1,2})(?!\d)")


def quantity_or_next_score(text: str, start: int, end: int) -> bool:
    """"D50 1/2 amp", "1/5 vodka daily", "pain 9/10 -> 5/10", "air leak 2/7 w/ cough (was
    1/7)": what comes after says it is a fraction (even of a month/year shape: "9/10")."""
    after = text[end:end + 16]
    denominator = text[start:end].rsplit("/", 1)[-1]
    next_score = _NEXT_SCORE.match(after)
    earlier = _EARLIER_SCORE.match(text, end)
    return bool(_QUANTITY_AFTER.match(after)) or any(
        m is not None and m.group(1) == denominator for m in (next_score, earlier))


# The same score before, in brackets a few words on: "2/7 w/ cough (was 1/7)".
_EARLIER_SCORE = re.compile(r"[^\n()]{0,16}\((?i:was|prev|previously|from)[ \t]*"
                            r"\d{1,2}/(\d{1,2})\)")


def fraction_in_context(text: str, start: int, end: int) -> bool:
    """A month/day shape that a setting, bottle count, quantity or score around it shows is
    none."""
    core = text[start:end]
    after = text[end:end + 16]
    if _OXYGEN_AFTER.match(after) or quantity_or_next_score(text, start, end):
        return True
    line = text[max(0, start - 60):start].rsplit("\n", 1)[-1]
    bottles = _BOTTLES.fullmatch(core)
    if bottles and int(bottles.group(1)) <= int(bottles.group(2)) \
            and (_ORGANISM_AFTER.match(after) or _ORGANISM_IN_BEFORE.search(line)
                 or (_CULTURES_BEFORE.search(line) or _ORGANISM_BEFORE.search(line))
                 and not culture_result_after(text, end)):
        return True  # "bcx 1/2 e coli", "5/31 gnr in 1/2", "BCx 2/2 from outside lab"; not
        # a culture's date with its result ("BCX 2/2 NGTD")
    numerator, _, denominator = core.partition("/")
    if _SPECIMENS_AFTER.match(after) and numerator.isdigit() and denominator.isdigit() \
            and int(numerator) <= int(denominator) <= 6:
        return True  # "MSSA 3/3 TISSUE SPECIMENS"
    if _EQUALS_AFTER.match(after):
        return True  # "RSBI ON 5/5 = 98": a calculation
    if two_ribs(text, start, end):
        return True  # "Also L 11/12 rib fx"
    if numerator.isdigit() and denominator.isdigit() and int(numerator) <= 9 \
            and int(denominator) <= 9 and _PUPILS_BEFORE.search(text, max(0, start - 24), start):
        return True  # "pupils back to 3/3": millimetres, right and left
    if split_dose(text, start, end):
        return True  # "NPH 2/3 AM + 1/3 PM"
    return core.rsplit("/", 1)[-1] in ("5", "10") and _on_a_scale_before(text, start, core,
                                                                         _SCALE_BEFORE)


_PROPER_FRACTION = re.compile(r"(?<![\d/])([1-3])/([2-4])(?![\d/])")
_WHEN_GIVEN = re.compile(r"[ \t]*(?i:am|pm|hs|qhs|qam|qpm|now|at[ \t]+hs|tonight)\b")


def split_dose(text: str, start: int, end: int) -> bool:
    """A proper fraction beside another of the same denominator that makes up the whole with
    it, the two joined by "+" or given at times of day ("NPH 2/3 AM + 1/3 PM", "1/2 now and
    1/2 at hs"): a dose split, not two dates ("extubated 1/3 and reintubated 2/3")."""
    this = _PROPER_FRACTION.fullmatch(text, start, end)
    if this is None or int(this.group(1)) >= int(this.group(2)):
        return False
    offset = max(0, start - 24)
    for other in _PROPER_FRACTION.finditer(text[offset:end + 24]):
        a, b = other.start() + offset, other.end() + offset
        if a == start or other.group(2) != this.group(2) \
                or int(other.group(1)) + int(this.group(1)) != int(this.group(2)):
            continue
        between = text[min(end, b):max(start, a)]
        if "+" in between or _WHEN_GIVEN.match(text, end) or _WHEN_GIVEN.match(text, b):
            return True
    return False


# A score's range earlier in the line ("pain 3-6/10 back, 7/10 w/ logroll"): its scale.
_SCALE_RANGE = re.compile(r"(?<![\d/])\d-\d{1,2}/(\d{1,2})(?![\d/])")


def scale_range_before(text: str, start: int, core: str) -> bool:
    """A month/year shape on the scale of a range earlier in its line ("pain 3-6/10 back,
    7/10"); never "2-17", a month and day."""
    return "/" in core and _on_a_scale_before(text, start, core, _SCALE_RANGE)


# A score of ten earlier in the line ("PAIN 6/10 BETTER THAN ADMIT (10/10)").
_TEN_SCALE = re.compile(r"(?<![\d/])(?:[0-9]|10)/10(?![\d/])")


def earlier_score_of_ten(text: str, start: int, core: str) -> bool:
    """A score of ten after another earlier in its sentence: the same scale, not a date ("pain
    4/10. admitted 9/10" is one)."""
    line = text[max(0, start - 60):start].rsplit("\n", 1)[-1]
    sentence = re.split(r"[.;][ \t]", line)[-1]
    return core.endswith("/10") and int(core.split("/")[0]) <= 10 \
        and _TEN_SCALE.search(sentence) is not None


def _on_a_scale_before(text: str, start: int, core: str, scale: re.Pattern[str]) -> bool:
    """``core`` ("n/d") within its denominator, on a scale that ``scale`` finds earlier in the
    line (its group 1 the same denominator)."""
    numerator, denominator = core.split("/", 1)
    line = text[max(0, start - 60):start].rsplit("\n", 1)[-1]
    return int(numerator) <= int(denominator) \
        and any(m.group(1) == denominator for m in scale.finditer(line))


_HEADING_BEFORE = re.compile(NOTE_HEADING + "$")


def scored_before(text: str, start: int) -> bool:
    """A score or setting word a few words back ("pain today as 6/10", "PS 10/5")."""
    line = text[max(0, start - 40):start].rsplit("\n", 1)[-1]
    return bool(_SCORED.search(line)) and not _DIRECT_EVENT_BEFORE.search(line)


def charting_date(text: str, start: int, end: int) -> bool:
    """Is the month/day ``text[start:end]`` a charting date by its context?"""
    before = text[max(0, start - 70):start]
    line = before.rsplit("\n", 1)[-1]
    after = text[end:end + 12]
    if _AGAINST_AFTER.match(after):
        return False
    direct = bool(_DIRECT_EVENT_BEFORE.search(line))
    if _UNTIL_NOW_AFTER.match(after):
        return True  # "ICU course 10/3 to present": a period's first day
    if rising_day(text[start:end]) and _EVENT_NEAR.search(line) \
            and not _COURSE_BEFORE.search(line):
        return True  # "last dose 10/19", "WEANED OFF BIPAP 10/16": no setting rises past 12
    if counted_dose_before(text, start, end):
        return True  # "peak after 3rd dose 8/11", "NEXT DOSE 6/10": the dose is counted already
    if (_AGAINST_BEFORE.search(line) or _SCORED.search(line)) and not direct:
        return False
    return direct or bool(_EVENT_BEFORE.search(line) or _STATUS_POST_BEFORE.search(line)
                          or _CLOCK_BEFORE.search(line) or _HEADING_BEFORE.search(line)) \
        or bool(_CLOCK_AFTER.match(after)) \
        or bool(_PROCEDURE_AFTER.match(text[end:end + 24])) \
        or culture_result_after(text, end)


def uneven_month_day(text: str, start: int, end: int) -> bool:
    """A month/day that reads as no fraction ("3/15", "12/5": a day past 10, or a month past
    the day) is a date unless vent, vital or score words stand before it or a unit after it.
    Scores, strengths and bottle counts are fractions ("5/10", "4/5", "2/2"): those still need
    the charting evidence of ``charting_date``. In 510 hand-written ICU notes the uneven ones
    with no word against them were dates 85 times and settings 3 times."""
    if not uneven_value(text[start:end]):
        return False  # "(9/27)", "= 4/26" included: a day past 12 is never a small ratio
    line = text[max(0, start - 70):start].rsplit("\n", 1)[-1]
    return not (_AGAINST_AFTER.match(text[end:end + 12]) or _AGAINST_BEFORE.search(line)
                or _SCORED.search(line))


_HISTORY_BEFORE = re.compile(rf"(?i:\b(?:{HISTORY_EVENTS})[ \t]*(?:in[ \t]+)?$)")


def history_year(text: str, start: int) -> bool:
    """A two-digit number right after a history event ("CABG 81", "MI '92")."""
    before = text[max(0, start - 16):start].rstrip("'’")
    return bool(_HISTORY_BEFORE.search(before))
