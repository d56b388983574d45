"""Measurement strings and date shapes: what a number in a clinical note is, by its form.

``measurement_ranges`` finds lab panels and ABGs (``7.43/41/76/28``), hemodynamics
(``5.8/2.71/497``), vitals (``BP 120/80``, ``HR 88``), scores (``GCS 3/6``), doses and
quantities with units (``5 mg``, ``40%``), and times of day (``0400``, ``4pm``, ``@2300``,
``14:30``). ``looks_like_date`` says whether a DATE candidate parses as a date.
"""

from __future__ import annotations

import re

from engine.core.domain import Source, Span
from engine.detectors.regex.fragments import HHMM, HOLIDAY, MONTH, WEEKDAY
from engine.detectors.regex.validators import (
    day_month,
    month_day,
    month_day_range,
    month_year,
    numeric_date,
)
from engine.detectors.regex.validators import uneven_month_day as uneven_value
from engine.resolution.chartdates import (
    charting_date,
    counted_dose_before,
    culture_result_after,
    earlier_score_of_ten,
    fraction_in_context,
    history_year,
    quantity_or_next_score,
    rising_day,
    scale_range_before,
    scored_before,
    two_ribs,
    uneven_month_day,
)
from engine.resolution.edges import drug_before, line_around

_NUM = r"[<>~]?\d+(?:\.\d+)?"
# Slash chains: ABGs, hemodynamics, BP, ratios, scores, dates (told apart by _chain_is_date).
_CHAIN = re.compile(rf"(?<![\w./])(?:{_NUM}|\.\d+)(?:[ \t]?/[ \t]?(?:{_NUM}|\.\d+))+(?![\w/]|\.\d)")
_TIME = re.compile(
    r"(?i:(?<![\w:.])(?:@[ \t]*)?(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?:[ \t]*[ap]\.?m\b\.?)?"
    r"|(?<![\w.])(?:1[0-2]|0?[1-9])(?::[0-5]\d)?[ \t]?[ap]\.?m\b\.?"
    r"|@[ \t]*\d{1,4}\b"
    r"|(?<![\w.:/\-])(?:[01]\d|2[0-3])[0-5]\d[ \t]?(?:h|hrs?|hours|z)\b"
    r"|(?<![\w.:/\-])0\d{3}(?![\w/.:]|-\d)"
    r"|(?<![\w.:/\-])(?:0\d[0-5]\d[ \t]?-[ \t]?(?:[01]\d|2[0-3])"
    r"|(?:1\d|2[0-3])[0-5]\d[ \t]?-[ \t]?0\d)[0-5]\d(?![\w/])"
    r"|\b(?:at|around|approx)[ \t]+(?:[01]\d|2[0-3])[0-5]\d(?![\w/:.]))")
_UNITS = (r"mg|mcg|µg|ug|ng|g|gm|grams?|kg|lbs?|oz|ml|cc|l|dl|units?|u|iu|meq|mmol|mol|mmhg"
          r"|cmh2o|bpm|cm|mm|inch(?:es)?|ft|mg/dl|mg/kg|mcg/kg|mcg/min|mg/hr?|ml/hr?"
          r"|ml/kg|l/min|lpm|mcg/kg/min|units?/hr?|gtts?|drops?|tabs?|caps?|puffs?|breaths|beats"
          r"|hrs?|h|min|mins|minutes|sec|secs|seconds|days?|d|wks?|weeks?|mos?|months?"
          r"|x|times|degrees|deg|°[cf]?|%|fr|g/dl|k/ul|mosm|meq/l|mmol/l|iu/l|u/l|kcal|cal"
          r"|kcal/kg|kcal/oz")  # "similac 22kcal": a formula's strength
# A count "x2", "x 10" (not the extension "x4417"), a frequency "q4h".
_QUANTITY = re.compile(rf"(?i:(?<![\w.]){_NUM}(?:[ \t]?-[ \t]?{_NUM})?[ \t]?(?:{_UNITS})(?![a-z])"
                       rf"|(?<![\w.])x[ \t]?\d{{1,3}}(?![\w.])|(?<![\w.])q\d+h?\b)")
# Vitals, labs and device settings announce the numbers that follow.
_CUES = (r"bp|sbp|dbp|nbp|abp|art|map|hr|pulse|rr|resp|sats?|spo2|o2|o2\s*sat|sao2|svo2|scvo2"
         r"|t|temp|tmax|tc|fio2|peep|ps|psv|tv|vt|rate|ci|co|svr|svri|pvr|pap|pas|pad|pcwp|cvp"
         r"|icp|cpp|gcs|rass|cpot|cam|ph|pco2|po2|pao2|paco2|hco3|lact(?:ate)?|k|na|cl|co2"
         r"|cr|creat|bun|wbc|hgb|hb|hct|plt|plts|inr|ptt|glu|gluc|glucose|bs|fs|fsbs|fsbg"
         r"|cbg|mg|phos|trop|tni|ck|ast|alt|alk\s*phos|tbili|bili|lipase|amylase|alb|abg|vbg"
         r"|uo|u/o|i/o|i&o|etco2|ins|outs|ekg|qtc|ef|lvef|grade|score|strength|power"
         r"|murmur|apgar|bmi|wt|weight|ht|height|pain|ratio|dose|rate|drip|gtt|ivf|fluids"
         r"|stool|urine|ngt|og|cvvh|uf|bolus|pip|plat|mv|ve|cpap|bipap|simv|imv|psv|prvc|pcv"
         r"|vent|settings|tinetti|barthel|mmse|moca|braden|waterlow|norton|berg|katz|phq-?9"
         r"|gad-?7|nihss|ciwa|cows|karnofsky|ecog|slums|epds|hads|q?sofa|apache(?:[ \t]+ii)?"
         # bleed, pancreatitis, airway and risk scores ("hunt-hess 3, fisher 3", "ranson 6")
         r"|hunt[ -]?hess|hh|fisher|wfns|ranson|mallampati|meld|child-?pugh|timi|chads2?"
         r"|goal(?:[ \t]+(?:trough|peak|level))?"  # "goal trough 15-20"; "trough 2/27" dates
         r"|cha2ds2-?vasc|curb-?65|mews"
         r"|paced|pacing|backup"  # "EKG: A-PACED 100": a rate, never a centenarian's age
         r"|p/f|pf|s/f|sf")  # oxygenation ratios: "FiO2 55%. P/F 132"
_CUED = re.compile(
    rf"(?i:\b(?:{_CUES})\b[ \t]*(?:[:=]|of|was|is|was\s+at|at|now|~|-)?[ \t]*"
    rf"({_NUM}(?:[ \t]?[/\-][ \t]?{_NUM})*))")
_MEASURE_BEFORE = re.compile(rf"(?i:\b(?:{_CUES})\b[ \t]*[:=]?[ \t]*$)")


# Vent settings ("600 X 14": tidal volume by rate), fluid balances ("+3300", "-450") and
# ranges of round numbers ("900-1300"): never a place or a phone.
_VENT_SETTING = re.compile(r"(?<![\w.])\d{2,4}[ \t]*[xX][ \t]*\d{1,2}(?![\w.])")
_BALANCE = re.compile(r"(?<![\w.+\-/])[+\-]\d{2,5}(?![\w.]|[ \t]?\d)")
_RANGE = re.compile(r"(?<![\w.\-/])(\d{2,4})[ \t]?-[ \t]?(\d{2,4})(?![\w.\-/])")


def _round_range(match: re.Match[str]) -> bool:
    low, high = int(match.group(1)), int(match.group(2))
    return low < high and low % 50 == 0 and high % 50 == 0


# A cue that is also a phone's word: "ph 555-0134", "t: 555-0134".
_PHONE_CUES = frozenset({"ph", "t"})


def measured_range(text: str, start: int, end: int) -> bool:
    """A rising range after a vital's or a setting's cue ("SVR 880-1000", "plt 120-1400"):
    the seven digits of a local phone number, which no cue announces."""
    numbers = _RANGE.fullmatch(text[start:end])
    if numbers is None or int(numbers.group(1)) >= int(numbers.group(2)):
        return False
    cue = _MEASURE_BEFORE.search(text[max(0, start - 16):start])
    return cue is not None and cue.group().strip(" \t:=").casefold() not in _PHONE_CUES


_ROUTE_AFTER = re.compile(r"[ \t]*(?i:sl|po|iv|im|sc|sq|pr|tid|bid|qid|qd|daily|tabs?|q\d+h?)\b")


def _strength_after_drug(text: str, start: int, end: int) -> bool:
    """"buprenorphine/naloxone 8/2 SL BID": a combination's strengths between a drug and its
    route or frequency."""
    return _ROUTE_AFTER.match(text, end) is not None and drug_before(text, start)


def measurement_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges of measurement strings and times of day in ``text``."""
    ranges = [m.span() for m in _CHAIN.finditer(text) if not _chain_is_date(text, m)]
    ranges += [m.span() for m in _VENT_SETTING.finditer(text)]
    ranges += [m.span() for m in _BALANCE.finditer(text)]
    ranges += [m.span() for m in _RANGE.finditer(text) if _round_range(m)]
    ranges += [m.span() for m in _TIME.finditer(text)]
    ranges += [m.span() for m in _QUANTITY.finditer(text)]
    ranges += [m.span(1) for m in _CUED.finditer(text) if not _cued_date(m) and not _coded(m)]
    return sorted(ranges)


_TEMP_CUE = re.compile(r"(?i:t|temp|tmax|tc)")


def _event_day(text: str, start: int, end: int) -> bool:
    """"last dose 10/19", "WEANED OFF BIPAP 10/16": a day past 12 with a charting date's
    evidence is a date even where a cue or a two-digit year would make it a measure."""
    return rising_day(text[start:end]) and charting_date(text, start, end)


# Cues that name something given or sent, not a setting or a vital sign: a month/day and a
# clock time after one are when it happened ("bolus 10/3 2240"), never "PS 10/5".
_EVENT_CUE = re.compile(r"(?i:bolus|dose|drip|gtt|ivf|fluids|stool|urine|trop|ekg|abg|vbg)")
_EVENT_CUE_BEFORE = re.compile(rf"(?i:\b{_EVENT_CUE.pattern}[ \t]*[:=~\-]?[ \t]*\Z)")
_SATURDAY_BEFORE = re.compile(r"(?i:\bsat\.?,?[ \t]+\Z)")
_GIVEN_AT = re.compile(rf"[ \t]+{HHMM}(?![\w/.:])")


def _given_on_a_day(text: str, start: int, end: int) -> bool:
    """"last bicarb bolus 10/3 2240": a dose given on a day at a time; "after 3rd dose 8/11":
    a counted dose's day; "next chair Sat 10/12": a saturation is never a month and a day."""
    if not month_day(text[start:end]):
        return False
    if counted_dose_before(text, start, end):
        return True
    return bool(_GIVEN_AT.match(text, end)) \
        and bool(_EVENT_CUE_BEFORE.search(text[max(0, start - 16):start])) \
        or bool(_SATURDAY_BEFORE.search(text[max(0, start - 8):start]))


def _cued_date(match: re.Match[str]) -> bool:
    """A full date after a cue is a date ("T: 2019-08-16", "D: 8/29/24  T: 1/5/2023",
    "I&O 2023-4-6"): four-digit years, or any day/month/year after "T:" (transcribed)."""
    value = match.group(1)
    if _event_day(match.string, match.start(1), match.end(1)):
        return True
    if _given_on_a_day(match.string, match.start(1), match.end(1)):
        return True
    if "." in value or value.count("/") + value.count("-") != 2:
        return False
    if _iso_date(value):
        return True
    if not (_DMY.fullmatch(value) and numeric_date(value)):
        return False
    cue = match.group()[:match.start(1) - match.start()].split()
    return len(re.split(r"[/\-]", value)[2]) == 4 \
        or bool(cue) and bool(_TEMP_CUE.fullmatch(cue[0].rstrip(":=-~")))


# A cue's letters glued by a hyphen to a long number are a code's prefix, not a reading:
# "CALL # TC-250128-0412" (a transfer centre's call), not a core temperature.
_CODE_AFTER_LETTERS = re.compile(r"[A-Za-z]-\d{5}")


def _coded(match: re.Match[str]) -> bool:
    return bool(_CODE_AFTER_LETTERS.match(match.string, match.start(1) - 2))


def _chain_is_date(text: str, match: re.Match[str]) -> bool:
    value = match.group()
    if value.startswith("~") and (_ABOUT_A_DAY.search(text[max(0, match.start() - 12):
                                                           match.start()])
                                  or uneven_value(value[1:])):
        value = value[1:]  # "dc ~10/25", "mtg ~2/24", "ICE DAM ~1/14": about a day, not about
        # a quantity (no ratio is written 1/14 or 6/2)
    if any(c in value for c in "<>~ \t") or ("." in value):
        return False
    parts = value.split("/")
    if len(parts) == 3:
        return len(parts[2]) in (2, 4) and numeric_date(value) or _iso_date(value)
    if len(parts) != 2:
        return False
    if _event_day(text, match.start(), match.end()) \
            or _given_on_a_day(text, match.start(), match.end()):
        return True
    if _MEASURE_BEFORE.search(text[max(0, match.start() - 20):match.start()]):
        return False
    if len(parts[1]) == 4:
        return month_year(value)
    return month_day(value) or month_year(value) \
        or day_month(value) and charting_date(text, match.start(), match.end()) \
        and not drug_before(text, match.start())  # "icu 22/3", not "hydrocortisone 15/5"


_MONTH_WORD = re.compile(rf"(?i:\b{MONTH}\b|\b{WEEKDAY}\b)")
# "23MAR", "4MAY", "16SEP2023": day and month run together (ICU charting).
_DAY_MONTH = re.compile(rf"(?i:(?:0?[1-9]|[12]\d|3[01]){MONTH}(?:\d{{2}}|\d{{4}})?)")
# A date in words: months and weekdays of other languages, holidays. "APRV" or "Review"
# proposed as a DATE has none of these; nor has a season alone ("unhoused since summer",
# "on spring break"), which names no day or month (with a year the number carries it).
_DATE_WORD = re.compile(
    rf"(?i:\b(?:{HOLIDAY}|enero|febrero|marzo|abril|mayo|junio|julio|agosto|se?ptiembre|octubre|noviembre"
    r"|diciembre|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro"
    r"|janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre"
    r"|gennaio|febbraio|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|januar|februar"
    r"|märz|juni|juli|oktober|dezember|lunes|martes|miércoles|jueves|viernes|sábado|domingo"
    r"|christmas|xmas|easter|thanksgiving|new\s+(?:year|yr)'?s?|hanukk?ah|ramadan|diwali|halloween"
    r"|valentine'?s|passover|kwanzaa|eid|labou?r\s+day|memorial\s+day|independence\s+day"
    r"|canada\s+day|boxing\s+day|t[eế]t)\b)")
_NUMERIC_CORE = re.compile(r"\d[\d/\-.,' \t]*\d|\d")
# Years up to 2199: shifted dates in de-identified exports ("2170-3-23") are still dates.
_ISO = re.compile(r"(?:1[89]|2[01])\d\d([\-/.])(\d{1,2})\1(\d{1,2})")
_COMPACT = re.compile(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")
_DMY = re.compile(r"\d{1,2}([/\-.])\d{1,2}\1(?:\d{4}|\d{2})")
_MY = re.compile(r"\d{1,2}[/\-](?:\d{4}|\d{2})")
_MD = re.compile(r"\d{1,2}/\d{1,2}")
_YEAR = re.compile(r"'?\d\d|(?:1[89]\d\d|20\d\d)")
_YEAR_RANGE = re.compile(r"(?:1[89]|20)\d\d[ \t]?[\-–][ \t]?(?:(?:1[89]|20)\d\d|\d\d)")
_TRAILING_TIME = re.compile(
    r"(?i:[ \t,]*(?:at|@)?[ \t]*\d{1,2}:\d{2}(?::\d{2})?(?:[ \t]*[ap]\.?m\.?)?$)")
_ORDINAL_DAY = re.compile(r"(?i:(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th))")
_THE_ORDINAL_DAY = re.compile(rf"(?i:the[ \t]+{_ORDINAL_DAY.pattern})")
_COUNTED_AFTER = re.compile(r"[ \t]+(?i:cups?|doses?|bags?|units?|times?|tries|try|attempts?"
                            r"|rounds?|liters?|litres?|sips?|bites?|boluses|bolus|sets?|runs?"
                            r"|floor|line|one|episode|pass|dressing|session)\b")
_DATE_CUE = re.compile(
    r"(?i:\b(?:on|since|from|until|till|by|before|after|dated?|seen|of|in|dob|d\.o\.b\.?|born"
    r"|admitted|admission|discharged?|visit|surgery|last|next|f/u|follow[\s\-]?up|as\s+of"
    r"|note|doa|adm|admit|dictated\w*|transcribed|signed"
    r"|starting|started|effective|between|and|through|to|-|during|year|class|summer|winter"
    r"|spring|fall|autumn|early|late|mid)\b[:\s,]*$)")
_SETTING_CHANGED = re.compile(r"(?i:^(?:to|from)\b)")
_TIME_CONTEXT = re.compile(r"(?i:(?:@|\bat|\baround|\bapprox\.?)[ \t]*$)")
_TIME_AFTER = re.compile(r"(?i:^[ \t]?(?:h|hrs?|hours|z|am|pm)\b)")
# "LAB RESULTS 7/1 @01:00", "10/6 0227": a month/day followed by a clock time is a date.
_CLOCK_AFTER = re.compile(r"^[ \t,]*(?:@[ \t]*\d{2}:?[0-5]\d|(?i:at)[ \t]+\d{1,2}:[0-5]\d"
                          r"|\d{1,2}:[0-5]\d|(?:[01]\d|2[0-3])[0-5]\d(?![\d./]|,\d))\b")


# Glued to a month/day's day, hours make a rate: "Na rise max 6-8/24h".
_PER_HOURS_AFTER = re.compile(r"(?i:h|hr|hrs|hours?)\b")
# "C/O 4/10 SUBSTERNAL PRESSURE", "pain 7/10 -> now 3/10": a score out of ten, not April 2010.
_OUT_OF_TEN = re.compile(r"(?:[0-9]|10)/10")
# How it feels, then the score: 'groin "burns" 4/10', "C/O TIGHTNESS"; not "step-down 8/10".
_FELT = (r"\bc/o|\brates?|\brated|\bpressure|\bdiscomfort|\btightness|\bache|\baching"
         r"|\bcramping|\bburning|\bsoreness|\bheadache|\bh/a|\bburns|\bhurts|\baches|\bsore"
         r"|\bstings")
_SCORE_OF_TEN_BEFORE = re.compile(rf"(?i:(?:{_FELT}|\bnow|->|\bto|\bfrom|\bat|@"
                                  r"|(?<!-)\bdown|(?<!-)\bup"
                                  # rechecked after a dose: "REASSESSED 1945 3/10"
                                  r"|\b(?:reassessed|re-assessed|rechecked)(?:[ \t:,]*(?:at[ \t]+)?"
                                  r"(?:[01]\d|2[0-3])[0-5]\d)?)[\"”’']?[ \t:]*$)")
# The same score earlier on the line: "pain 4/10 on hydromorphone pca (was 8/10)".
_EARLIER_SCORE = re.compile(r"(?i:(?<![\d/])(?:[0-9]|10)/10\b[^\n]{0,50}\((?:was|prev(?:iously)?"
                            r"|from)[ \t]*\Z)")
# How it feels just before a score of ten with its time after: "C/O CHEST TIGHTNESS 4/10 @ 2200"
# (not "moved to 3/10 1400").
_FELT_BEFORE = re.compile(rf"(?i:(?:{_FELT}|\bpain)[\"”’']?[ \t:]*$)")
# A dose changed by a fraction: "reduce tacro dose by ~2/3 today".
_CHANGED_BY = re.compile(r"(?i:\b(?:reduc|decreas|increas|cut|lower|rais|drop|titrat|wean)\w*\b"
                         r"[^\n]{0,40}\bby[ \t]*~?[ \t]*\Z)")
_FRACTION = re.compile(r"[1-3]/[2-4]")
_ABOUT_A_DAY = re.compile(r"(?i:\b(?:dc|d/c|discharge|mtg|meeting|f/u|due|by|until|on|date"
                          r"|anticipated|expected|planned|around)[ \t]*\Z)")
# "hypotension 2/2 sepsis", "delayed extubation 2/2 bleeding": "2/2" is "secondary to".
# "2/2" before a word is "secondary to" ("resp failure 2/2 pna", "adm 2/2 worsening RV
# failure"), unless a form's gap follows it ("ICU ADMIT 2/2   TRANSFER 2/9").
_SECONDARY_TO = re.compile(r"[ \t]+(?i:to\b|(?!(?:at|on|and|with|was|when|for|per|the|am|pm|noon"
                           r"|in|of|by|from|until|after|before|then|now|still|already|growing|grew"
                           r"|pending|positive|negative|neg|pos|without|showed|shows|ngtd)\b)[a-z]{3,})")
_MD_RANGE = re.compile(r"\d{1,2}/\d{1,2}[ \t]?[-–][ \t]?\d{1,2}/\d{1,2}")
_ABOUT_OR_HEADING = re.compile(r"(?:~[ \t]?|(?:\A|\n)[ \t]*)\Z")
_HEADING_AFTER = re.compile(r"[ \t]*(?:$|\n|[-–:][ \t])", re.MULTILINE)
# "BCX 3/14 and 3/15", "PS 15/5 -> 12/5": the one before decides
_LISTED_AFTER = re.compile(r"(?<![\w/])(\d{1,2}/\d{1,2})[ \t]*(?:,|&|\+|->|→|(?i:and))[ \t]*$")
# "vanco day 10/14", "cycle 3/12": a day of a course, not a month and year
# A day of a course, not a dialysis session's date ("LAST HD 4/11", "next hd 3/9").
_COURSE_DAY_BEFORE = re.compile(r"(?i:\b(?:day|dose|cycle|round|course|pod"
                                r"|(?<!last[ \t])(?<!next[ \t])(?<!missed[ \t])hd)[ \t#:]*$)")
_CHAIN_GOES_ON = re.compile(r"^(?:/\d|[ \t]*%)")
_PERCENT_AFTER = re.compile(r"^[ \t]*(?:%|(?i:hz|mmhg|cmh2o)\b)")  # "vest 12-14-16 hz"


def _iso_date(core: str) -> bool:
    """Year first ("2018/11/13", "2018-11-13") with a valid month and day."""
    m = _ISO.fullmatch(core)
    return m is not None and 1 <= int(m.group(2)) <= 12 and 1 <= int(m.group(3)) <= 31


_RECORD_BEFORE = re.compile(r"(?i:\b(?:of|w/|per|copy|copies|chart|updated|reviewed|on\s+the"
                            r"|(?:documented|charted|signed|recorded)\s+(?:on|in))[ \t,]*\Z)")
_WHEN_BEFORE = re.compile(r"(?i:\b(?:in|since|until|till|from|by|early|late|mid|last|next)"
                          r"[ \t]+\Z)")


def _month_acronym(text: str, start: int, end: int) -> bool:
    covered = text[start:end].strip()
    if "AUG" in re.findall(r"[A-Z]+", covered) and "IABP" in text[max(0, start - 60):start].upper():
        return True  # "IABP 1:1, AUG 110-122": the augmented pressure, whatever the span holds
    line = line_around(text, start, end)
    if covered == "mar" and line == line.lower():
        covered = "MAR"  # a line without case: "copies of mar, last 48h"
    if covered not in ("MAR", "DEC", "AUG"):  # administration record, decreased, augmentation
        return False
    near = text[max(0, start - 5):start] + text[end:end + 5]
    if any(c.isdigit() for c in near):
        return False
    # In capitals too, a record is copied, verified or sent, and a list goes on after it
    # ("COPIES OF MAR, LAST 48H", "VERIFIED W/ MAR)"); a month is when ("SURGERY IN MAR").
    return text[start:end].strip().isupper() and any(c.islower() for c in line) \
        or covered == "MAR" and (
        bool(_RECORD_BEFORE.search(text[max(0, start - 12):start]))
        or text[end:end + 1] in (",", ")") and not _WHEN_BEFORE.search(text[:start]))


def looks_like_date(text: str, start: int, end: int) -> bool:
    """Does the DATE candidate ``text[start:end]`` parse as a date?

    Words without digits pass when they name a month, a weekday, a holiday or a season
    ("Christmas", "Monday", "junio"); a month or weekday name passes; numbers must form a valid
    day/month/year shape, a bare year needs to be 1800-2049 and not a time.
    """
    covered = text[start:end]
    if _MONTH_WORD.search(covered) or _DAY_MONTH.fullmatch(covered.strip()):
        # A month's three capitals alone in a line with case are an acronym ("copies of MAR").
        return not _month_acronym(text, start, end)
    if not any(c.isdigit() for c in covered):
        return bool(_DATE_WORD.search(covered))
    bare = _TRAILING_TIME.sub("", covered)
    if bare != covered and any(c.isdigit() for c in bare):
        return looks_like_date(text, start, start + len(bare))
    if _MD_RANGE.fullmatch(covered.strip()):
        return month_day_range(covered)  # "6/1-6/2"
    cores = _NUMERIC_CORE.findall(covered)
    if len(cores) != 1 or _CHAIN_GOES_ON.match(text[end:end + 4]):
        return False  # "5/10" of "CPAP 5/10/35%" is part of a setting
    core = cores[0].strip().rstrip(".,")
    core_start = start + covered.index(core)
    before = text[max(0, start - 24):start] + covered[:core_start - start]
    after = text[end:end + 6]
    if _ISO.fullmatch(core):
        return _iso_date(core)
    if _COMPACT.fullmatch(core):
        return True
    if _DMY.fullmatch(core) and numeric_date(core):
        return not _PERCENT_AFTER.match(text[end:end + 8])  # "CPAP 5/10/35%" is a setting
    # "14/11" is no month/year, nor is a month/day with a clock or a culture's result after
    # ("moved to 3/10 1400", "BCX FROM 2/10 NGTD")
    if _MY.fullmatch(core) and not day_month(core) \
            and not two_ribs(text, core_start, core_start + len(core)) \
            and not (_MD.fullmatch(core) and (_CLOCK_AFTER.match(text[end:end + 12])
                                              or culture_result_after(text, end)
                                              or counted_dose_before(text, start, end))):
        two_digit_year = len(re.split(r"[/\-]", core)[1]) == 2  # "6/10" may be a score
        return month_year(core) and not _MEASURE_BEFORE.search(before.rstrip(" \t(=")) \
            and not (two_digit_year and (scored_before(text, core_start)
                                         or _COURSE_DAY_BEFORE.search(before)
                                         or quantity_or_next_score(text, core_start,
                                                                   core_start + len(core))
                                         or scale_range_before(text, core_start, core))) \
            and not (_OUT_OF_TEN.fullmatch(core) and (
                _SCORE_OF_TEN_BEFORE.search(before)
                or _EARLIER_SCORE.search(text[max(0, core_start - 70):core_start])
                or earlier_score_of_ten(text, core_start, core))) \
            or two_digit_year and _event_day(text, core_start, core_start + len(core))
    if _MD.fullmatch(core):
        if not (month_day(core) or day_month(core)) \
                or core == "2/2" and _SECONDARY_TO.match(text, end) \
                and text[end:end + 2] != "  " \
                or _PER_HOURS_AFTER.match(text, core_start + len(core)):
            return False  # "Na rise max 6-8/24h": a rate
        if day_month(core) and drug_before(text, core_start):
            return False  # "ON HYDROCORTISONE 15/5": a split dose, no day/month
        if _OUT_OF_TEN.fullmatch(core) and earlier_score_of_ten(text, core_start, core):
            return False  # "PAIN 6/10 BETTER THAN ADMIT (10/10)"
        if _OUT_OF_TEN.fullmatch(core) and _FELT_BEFORE.search(before) \
                or _FRACTION.fullmatch(core) \
                and _CHANGED_BY.search(text[max(0, core_start - 60):core_start]):
            return False  # "TIGHTNESS 4/10 @ 2200", "reduce dose by ~2/3": a score, a fraction
        if _ABOUT_OR_HEADING.search(text[max(0, core_start - 3):core_start]) \
                and (text[core_start - 1:core_start] == "~"
                     or _HEADING_AFTER.match(text, core_start + len(core))):
            return True  # "dc ~10/25", "10/16\n0930 - Peer to peer"
        if culture_result_after(text, core_start + len(core)):
            return True
        if fraction_in_context(text, core_start, core_start + len(core)) \
                or _strength_after_drug(text, core_start, core_start + len(core)):
            return False  # "Bipap 10/5 40%", "bcx 1/2 e coli", "2-3/5 ... from 1/5"
        window = max(0, core_start - 16)
        listed = _LISTED_AFTER.search(text[window:core_start])
        if listed:  # "BCX 3/14 and 3/15" is a date, "PS 10/5 and 5/5" no: the first decides
            first = window + listed.start(1)
            return looks_like_date(text, first, first + len(listed.group(1)))
        cue = _DATE_CUE.search(before)
        if cue and _SETTING_CHANGED.search(cue.group()) and scored_before(text, core_start):
            cue = None  # "0800 ps decreased to 10/5": a setting changed to another
        return (bool(cue or _CLOCK_AFTER.match(text[end:end + 12]))
                and not _MEASURE_BEFORE.search(before)) \
            or charting_date(text, core_start, core_start + len(core)) \
            or uneven_month_day(text, core_start, core_start + len(core)) \
            and not _MEASURE_BEFORE.search(before.rstrip(" \t(="))  # not "CVP (12/18)"
    if _ORDINAL_DAY.fullmatch(covered.strip()):
        return bool(re.search(r"(?i:\bthe\s*$)", before))
    if _THE_ORDINAL_DAY.fullmatch(covered.strip()):  # "on the 9th", the rule's span
        return not _COUNTED_AFTER.match(text, end)  # "after the 2nd cup": which one, not when
    if _YEAR_RANGE.fullmatch(core):
        return True
    if _YEAR.fullmatch(core.rstrip("s").rstrip("'")):
        history = history_year(text, start + covered.index(core))
        return _is_year(core, before, after, history)
    return False


def _is_year(core: str, before: str, after: str, history: bool = False) -> bool:
    digits = core.strip("'s")
    if len(digits) == 2:
        # "'98"; "CABG 81" in a history line; a bare "98" is a number.
        return before.endswith(("'", "’")) or history
    if _TIME_CONTEXT.search(before) or _TIME_AFTER.match(after):
        return False
    return 1800 <= int(digits) <= 2049


# A table's row: a label, then three or more cells of numbers set apart by runs of blanks
# ("AST             8420    6110    2980    1240", "urine   1450   1800   1100   4350").
_CELL_GAP = re.compile(r"(?:[ \t]{2,}|\t)")
_NUMBER_CELL = re.compile(r"[-+]?\d[\d.,]*%?")


def table_cells(text: str, span: Span) -> bool:
    """A model's phone or identifier made of a table's number cells: the row holds three or
    more number cells and the span is numbers and blanks only."""
    covered = text[span.start:span.end]
    if span.source not in (Source.NER, Source.LLM) or not re.fullmatch(r"[-+\d.,% \t]+",
                                                                        covered):
        return False
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    cells = _CELL_GAP.split(text[line_start:len(text) if line_end < 0 else line_end].strip())
    return sum(bool(_NUMBER_CELL.fullmatch(c.strip())) for c in cells) >= 3
