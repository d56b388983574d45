"""Dates in every common format. Times, doses, scores, ratios and BP readings stay out."""

from __future__ import annotations

from engine.core.labels import Label
from engine.detectors.regex.fragments import (
    CHART_EVENTS,
    CLOCK_AFTER,
    HISTORY_EVENTS,
    HOLIDAY,
    MONTH,
    MOVED_TO,
    NOTE_HEADING,
    STATUS_POST,
    WEEKDAY,
)
from engine.detectors.regex.rule import RegexRule
from engine.detectors.regex.validators import (
    month_day,
    month_day_range,
    month_year,
    numeric_date,
    uneven_month_day,
)

D = Label.DATE
# Not glued to other digits, slashes, colons (times) or decimal points.
_L = r"(?<![\w/:.\-])"
_R = r"(?![\w/]|:\d|\.\d|-\d)"  # "TTE 6/3: EF 55%" ends at the colon, "6/4:30" no
_DAY = r"(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?"
_YEAR = r"(?:1[89]\d\d|20\d\d)"
_YEAR_ANY = r"(?:'?\d\d|1[89]\d\d|20\d\d)"
_MON = rf"{MONTH}\.?"
_WD = rf"(?:{WEEKDAY},?\s+)?"
# Things after "m/d" that say it is not a date: doses, pain scores, tablet fractions.
_NOT_AFTER = (r"(?!\s*(?:of\s+(?:a\s+)?)?(?:tab|cap|pill|pain|strength|power|dose|mg|mcg|ml|"
              r"bottles?|"
              r"units?|scale|score|times|x\b|%|mmhg|bpm|hours?|hrs?|days?|weeks?|months?"
              r"|bilat(?:eral(?:ly)?)?\b|b/l\b))")  # "(last 5/5 bilat)": a strength
# Words that announce a date before an ambiguous "4/12".
_DATE_CUE = (r"(?i:\b(?:on|since|from|until|till|by|before|after|dated?|seen|of|in|"
             r"dob|d\.o\.b\.?|born|admitted|discharged|visit|surgery|last)\b[:\s]+)")

_ES_MONTH = (r"(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|se?ptiembre|octubre"
             r"|noviembre|diciembre)")

RULES: tuple[RegexRule, ...] = (
    RegexRule("date.numeric", D,
              rf"{_L}(\d{{1,2}}[/\-.]\d{{1,2}}[/\-.](?:\d{{4}}|\d{{2}})){_R}(?![ \t]*%)",
              0.9, group=1, validate=numeric_date),
    RegexRule("date.dob", D,
              r"(?i:\b(?:dob|d\.o\.b\.?|date\s+of\s+birth|birth\s*date|born(?:\s+on)?)\s*[:\-]?\s*)"
              r"((?:\d{1,2}[/\-.]\d{1,2}[/\-.]\d{2,4}|\d{4}-\d{1,2}-\d{1,2}|[A-Za-z]{3,9}\.?\s+\d{1,2}"
              r"(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-z]{3,9}\.?,?\s+\d{4}))"
              r"(?![\w/])", 0.97, subtype="DOB", group=1),
    RegexRule("date.iso", D,
              rf"{_L}({_YEAR}[\-/.](?:0?[1-9]|1[0-2])[\-/.](?:0?[1-9]|[12]\d|3[01]))(?![\d/])",
              0.95, group=1),
    RegexRule("date.compact", D,
              rf"(?<!\d)({_YEAR}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01]))(?!\d)"
              r"(?=\s*(?i:\b(?:dob|date)\b)?)", 0.4, group=1),
    # "March 3, 2021", "Mar. 3rd 2021", "aug 26/1997", "Monday, March 3"
    RegexRule("date.month_day_year", D,
              rf"(?i:\b({_WD}{_MON}\s*{_DAY}(?:\s*,\s*|\s+|/|-)(?:{_YEAR}|'\d\d))\b)", 0.95,
              group=1),
    RegexRule("date.month_day", D,
              rf"(?i:\b({_WD}(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|january|"
              rf"february|march|april|june|july|august|september|october|november|december)"
              rf"\.?\s+{_DAY})\b(?!\s*(?:mg|ml|%|:)))", 0.8, group=1),
    RegexRule("date.may_day", D, rf"\b((?:May|MAY)\s+{_DAY})\b(?!\s*(?:mg|ml|%|:))", 0.7,
              group=1),
    # "3 March 2021", "3rd of March, 2021", "12-Mar-2021", "03 MAR 21"
    RegexRule("date.day_month_year", D,
              rf"(?i:\b({_WD}{_DAY}(?:\s+of)?[\s\-]*{_MON}(?:\s*,\s*|[\s\-]+)(?:{_YEAR}|\d\d))\b)"
              r"(?!:\d)", 0.95, group=1),  # "9 Apr 14:00" is a day and a time
    RegexRule("date.day_month", D,
              rf"(?i:\b({_DAY}(?:\s+of)?\s+(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|"
              rf"january|february|march|april|may|june|july|august|september|october|november|"
              rf"december))\b)", 0.75, group=1),
    # "March 2021", "Aug. 2019", "Sept '98"
    RegexRule("date.month_year", D, rf"(?i:\b({_MON}\s*,?\s*(?:{_YEAR}|'\d\d))\b)", 0.9,
              group=1),
    # "11/93", "03/2019": month / year (a 2-digit "year" must not be a plausible day).
    RegexRule("date.month_year_numeric", D,
              rf"{_L}((?:0?[1-9]|1[0-2])[/\-](?:{_YEAR}|3[2-9]|[4-9]\d|0\d)){_R}{_NOT_AFTER}",
              0.75, group=1, validate=month_year),
    # "on 4/12", "since 11/20": month/day only after a date cue.
    RegexRule("date.month_day_cued", D,
              rf"{_DATE_CUE}(\d{{1,2}}/\d{{1,2}}){_R}{_NOT_AFTER}", 0.7, group=1,
              validate=month_day),
    # Any other month/day: the guards keep it only with charting context ("extub 4/1",
    # "sent to floor 12/13", "4/13 0446"; resolution/chartdates.py), not "PS 5/5".
    RegexRule("date.month_day_charted", D,
              rf"(?i:(?<![\w/])\??(?:{CHART_EVENTS})\b[ \t:,\-~(]*(?:[?#]?\w+[ \t]+)?)"
              rf"(\d{{1,2}}/\d{{1,2}}){_R}{_NOT_AFTER}", 0.45, group=1, validate=month_day),
    # "s/p CABG x3 3/2", "d/c to Park 6A 2/6": status post or a move, a few words back.
    RegexRule("date.month_day_status_post", D,
              rf"(?i:(?<![\w/])(?:{STATUS_POST}|{MOVED_TO})[ \t(~])(\d{{1,2}}/\d{{1,2}}){_R}"
              rf"{_NOT_AFTER}", 0.45, group=1, validate=month_day),
    RegexRule("date.month_day_heading", D,
              rf"(?m:{NOTE_HEADING}(\d{{1,2}}/\d{{1,2}}){_R}{_NOT_AFTER})", 0.45, group=1,
              validate=month_day),
    RegexRule("date.month_day_after_clock", D,
              rf"(?<![\d/.:])(?:[01]\d|2[0-3])[0-5]\d[ \t]+(\d{{1,2}}/\d{{1,2}}){_R}{_NOT_AFTER}",
              0.4, group=1, validate=month_day),
    RegexRule("date.month_day_clock", D,
              rf"{_L}(\d{{1,2}}/\d{{1,2}})(?={CLOCK_AFTER})", 0.45, group=1,
              validate=month_day),
    # "MI '92", "CABG 81": two-digit years in history lines (PHI under strict only: the
    # policies that keep years keep these).
    RegexRule("date.history_year", D,
              rf"(?i:\b(?:{HISTORY_EVENTS})[ \t]+(?:in[ \t]+)?)(['’]\d\d|\d\d)(?![\w/:.%\-])", 0.5,
              group=1),
    # Bare years: the policy decides (keep_years drops them).
    RegexRule("date.year", D,
              r"(?<![\w/:.$#\-])((?:1[89]\d\d|20[0-4]\d)(?:'?s)?)(?![\w/:%]|\.\d|-\d|,\d)"
              r"(?!\s*(?i:mg|mcg|ml|cc|units?|kcal|cal|calories|kg|g\b|lbs?|ft|feet|meters|m\b|"
              r"steps|patients|people|cases|hours|mmhg))", 0.5, group=1),
    # Spanish: "15 de enero de 2001", "agosto de 2000", "en marzo del 2006" (a day or a year).
    RegexRule("date.es_written", D,
              rf"(?i:\b((?:{_DAY}[ \t]+de[ \t]+)?{_ES_MONTH}(?:[ \t]+del?[ \t]+(?:{_YEAR}|'?\d\d))"
              rf"|{_DAY}[ \t]+de[ \t]+{_ES_MONTH})\b)", 0.85, group=1),
    # "BCX 3/14 and 3/15", "3/17, 3/18": a month/day listed after another (the guards keep it
    # when the first is a date).
    RegexRule("date.month_day_listed", D,
              rf"(?<![\w/])\d{{1,2}}/\d{{1,2}}[ \t]*(?:,|&|\+|(?i:and))[ \t]*"
              rf"(\d{{1,2}}/\d{{1,2}}){_R}{_NOT_AFTER}", 0.45, group=1, validate=month_day),
    # "TTE 9/14", "R IJ TLC 3/13": a month/day that reads as no fraction (a day past 10, or a
    # month past the day); the guards keep it unless vent, vital or score words stand before
    # it (resolution/chartdates.uneven_month_day).
    RegexRule("date.month_day_uneven", D,
              rf"{_L}(\d{{1,2}}/\d{{1,2}}){_R}{_NOT_AFTER}", 0.4, group=1,
              validate=uneven_month_day),
    # "was on the 9th", "since the 21st": a day of the month.
    RegexRule("date.ordinal_day", D,
              r"(?i:\b(?:on|since|until|till|by|before|after|from)[ \t]+)"
              r"(the[ \t]+(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th))\b(?![ \t]+(?i:of\b"
              r"|day|week|month|time|percentile|floor|grade|rib|ics|cycle|dose))", 0.6, group=1),
    # "intubated 6/1-6/2", "adm 6/30-7/26": a range of two month/days; "dc ~10/25" (about a
    # day); a month/day alone at the head of a line or an entry ("10/16\n0930 - Peer to peer").
    RegexRule("date.month_day_range", D,
              rf"(?<![\w/.])(\d{{1,2}}/\d{{1,2}}[ \t]?[-–][ \t]?\d{{1,2}}/\d{{1,2}})"
              rf"{_R}{_NOT_AFTER}",
              0.6, group=1, validate=month_day_range),
    RegexRule("date.month_day_about", D, rf"~[ \t]?(\d{{1,2}}/\d{{1,2}}){_R}{_NOT_AFTER}", 0.55,
              group=1, validate=month_day),
    RegexRule("date.month_day_heading", D,
              r"(?m:^[ \t]*(\d{1,2}/\d{1,2})(?=[ \t]*(?:$|[-–:][ \t])))", 0.55, group=1,
              validate=month_day),
    # "died January", "since December", "last March": a month named alone after a cue.
    RegexRule("date.month_alone", D,
              r"(?i:\b(?:in|since|until|till|by|last|this|next|early|late|mid|from|before|after"
              r"|during|died|passed|loss)[ \t]+)((?:January|February|April|June|July|August"
              r"|September|October|November|December|JANUARY|FEBRUARY|APRIL|JUNE|JULY|AUGUST"
              r"|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER))\b(?![ \t]+\d)", 0.55, group=1),
    # A season of a given year: "UBW 72kg spring 2005", "in the fall of 2008". Said relative
    # to now ("last spring") it is no more a date than "last month" is.
    RegexRule("date.season", D,
              r"(?i:\b((?:(?:early|late|mid-?)[ \t]*)?(?:spring|summer|autumn|winter|fall)"
              r"[ \t]+(?:of[ \t]+)?(?:19|20)\d\d)\b)", 0.6, group=1),
    # Not the things named after one: "a Christmas tree farm", "Halloween costume".
    RegexRule("date.holiday", D,
              rf"(?i:\b({HOLIDAY})\b(?![ \t]+(?:trees?|cards?|lights|decorations|ornaments?"
              r"|carols?|music|songs?|shopping|gifts?|presents|cookies|candy|costumes?)\b))",
              0.6, group=1),
    RegexRule("date.weekday", D, r"(?i:\b((?:mon|tues|wednes|thurs|fri|satur|sun)day)\b)", 0.4,
              group=1),
)
