from __future__ import annotations

import random
import re
from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.labels import Label
from engine.surrogates import keys
from engine.surrogates.dates import shift_date

from .helpers import SECRET, make, one, surrogator


def _shape(value: str) -> str:
    return re.sub(r"\d", "9", value)


def _shift(text: str, days: int, keep_years: bool = False) -> str:
    return shift_date(text, days, keep_years=keep_years, rng=random.Random(0))


# (original, strptime format of the original, expected surrogate with a +40 day shift)
CASES = [
    ("03/05/2014", "%m/%d/%Y", "04/14/2014"),
    ("3/5/2014", None, "4/14/2014"),
    ("12/25/2014", "%m/%d/%Y", "02/03/2015"),
    ("2014-03-05", "%Y-%m-%d", "2014-04-14"),
    ("2014.03.05", "%Y.%m.%d", "2014.04.14"),
    ("20140305", "%Y%m%d", "20140414"),
    ("03-05-14", "%m-%d-%y", "04-14-14"),
    ("25.12.2019", "%d.%m.%Y", "03.02.2020"),
    ("31/12/2019", "%d/%m/%Y", "09/02/2020"),
    ("aug 26/1997", None, "oct 5/1997"),
    ("AUG 26/1997", None, "OCT 5/1997"),
    ("August 26, 1997", "%B %d, %Y", "October 5, 1997"),
    ("26-Aug-2014", None, "5-Oct-2014"),
    ("March 5th, 2014", None, "April 14th, 2014"),
    ("1ST MARCH 2020", None, "10TH APRIL 2020"),
    ("Tuesday, March 4, 2014", "%A, %B %d, %Y", "Sunday, April 13, 2014"),
    ("Sept. 3, 2001", None, "Oct. 13, 2001"),
    ("May 5, 2014", None, "June 14, 2014"),
    ("7/21", None, "8/30"),
    ("11/93", None, "12/93"),
    ("03/2014", None, "04/2014"),
    ("March 2014", None, "April 2014"),
    ("Dec 2019", None, "Jan 2020"),
    ("Mar '97", None, "Apr '97"),
    ("2020-03-05T10:30:00", None, "2020-04-14T10:30:00"),
    ("03/05/2014 10:30 AM", None, "04/14/2014 10:30 AM"),
]


@pytest.mark.parametrize("original,fmt,expected", CASES)
def test_format_preserved(original: str, fmt: str | None, expected: str) -> None:
    new = _shift(original, 40)
    assert new == expected
    if fmt:
        assert datetime.strptime(new, fmt).date() - datetime.strptime(original, fmt).date() \
            == timedelta(days=40)


@pytest.mark.parametrize("original,fmt,_", CASES)
def test_keep_years(original: str, fmt: str | None, _: str) -> None:
    for shift in (-364, -200, -7, 7, 200, 364):
        new = _shift(original, shift, keep_years=True)
        assert new != original
        if fmt and "%y" not in fmt.lower():
            assert datetime.strptime(new, fmt).year == datetime.strptime(original, fmt).year


def test_year_only_and_never_equal() -> None:
    assert _shift("1997", 40) == "1998"
    assert _shift("1997", -40) == "1996"


@settings(max_examples=100, deadline=None)
@given(st.dates(date(1900, 1, 1), date(2090, 12, 31)), st.dates(date(1900, 1, 1),
       date(2090, 12, 31)), st.text(min_size=1, max_size=12))
def test_intervals_preserved_for_a_patient(a: date, b: date, patient: str) -> None:
    sur = surrogator()
    text = f"Seen {a.strftime('%m/%d/%Y')} and {b.isoformat()}."
    doc, spans = make(text, (a.strftime("%m/%d/%Y"), Label.DATE), (b.isoformat(), Label.DATE))
    new_a = datetime.strptime(sur.surrogate_for(doc, spans[0], patient=patient),
                              "%m/%d/%Y").date()
    new_b = date.fromisoformat(sur.surrogate_for(doc, spans[1], patient=patient))
    assert new_b - new_a == b - a
    assert new_a != a
    shift = sur.date_shift(patient)
    assert shift != 0 and abs(shift) <= 365 and new_a - a == timedelta(days=shift)


def test_shift_is_per_patient_and_secret() -> None:
    shifts = {keys.date_shift_days(SECRET, f"patient-{i}") for i in range(50)}
    assert len(shifts) > 20 and 0 not in shifts
    assert keys.date_shift_days(b"other", "p1") != keys.date_shift_days(SECRET, "p1") or \
        keys.date_shift_days(b"other", "p2") != keys.date_shift_days(SECRET, "p2")


def test_keep_years_policy_in_surrogator() -> None:
    new = one("03/05/1952", Label.DATE, "DOB", policy="hipaa")
    assert new.endswith("/1952") and new != "03/05/1952"
    # A bare year is not PHI under HIPAA, so it is not replaced at all.
    assert one("1997", Label.DATE, policy="hipaa") == "1997"


@pytest.mark.parametrize("value", ["Hogmanay", "the 3rd week", "Q3 FY21", "10:30"])
def test_unparseable_fallback_is_consistent_and_shaped(value: str) -> None:
    a = one(value, Label.DATE)
    b = one(value, Label.DATE)
    assert a == b and a != value and len(a) == len(value)
    assert one(value, Label.DATE, patient="someone-else") is not None


def test_time_fallback_is_a_valid_time() -> None:
    new = one("10:30", Label.DATE, "TIME")
    h, m = new.split(":")
    assert 0 <= int(h) <= 23 and 0 <= int(m) <= 59


@pytest.mark.parametrize(("holiday", "expected"), [
    ("Christmas", "January 4"),  # December 25 + 10 days
    ("CHRISTMAS EVE", "JANUARY 3"),
    ("labor day", "september 13"),
])
def test_a_holiday_becomes_its_shifted_day(holiday: str, expected: str) -> None:
    assert shift_date(holiday, 10, keep_years=True, rng=random.Random(0)) == expected


def test_a_day_of_an_unnamed_month_moves_within_four_weeks() -> None:
    assert shift_date("the 9th", 10, keep_years=True, rng=random.Random(0)) == "the 19th"
    assert shift_date("THE 21ST", 10, keep_years=True, rng=random.Random(0)) == "THE 3RD"


def test_a_season_moves_with_the_shift() -> None:
    assert shift_date("spring 2005", 100, keep_years=True, rng=random.Random(0)) == "summer 2005"
    assert shift_date("FALL OF 2008", 100, keep_years=False, rng=random.Random(0)) \
        == "WINTER OF 2009"
