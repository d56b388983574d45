from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.labels import Label
from engine.surrogates import identifiers as ids

from .helpers import one, surrogator


def _shape(value: str) -> str:
    return "".join("9" if c.isdigit() else "a" if c.islower() else "A" if c.isupper() else c
                   for c in value)


id_text = st.text(alphabet="0123456789ABCDEFXYZabcxyz-/ .#", min_size=1, max_size=24).filter(
    lambda s: any(c.isalnum() for c in s))


@settings(max_examples=150, deadline=None)
@given(id_text, st.integers(0, 2**32))
def test_shape_replace_keeps_format(value: str, seed: int) -> None:
    new = ids.shape_replace(value, random.Random(seed))
    assert _shape(new) == _shape(value)


@settings(max_examples=80, deadline=None)
@given(id_text)
def test_id_surrogate_keeps_format_and_differs(value: str) -> None:
    new = one(value, Label.ID, "MRN")
    if new == "[ID]":  # nothing that could vary (all separators) would fail closed
        return
    assert _shape(new) == _shape(value)
    assert re.sub(r"\W", "", new).lower() != re.sub(r"\W", "", value).lower()


@pytest.mark.parametrize("value", ["046 454 286", "046-454-286", "130692544"])
def test_sin_luhn(value: str) -> None:
    new = one(value, Label.ID, "SIN")
    assert _shape(new) == _shape(value)
    assert ids.luhn_valid(ids.digits_of(new)) and ids.digits_of(new)[0] in "1234567"


@pytest.mark.parametrize("value", ["4111 1111 1111 1111", "5500-0000-0000-0004",
                                   "378282246310005"])
def test_credit_card_luhn_and_network(value: str) -> None:
    new = one(value, Label.ID, "CREDIT_CARD")
    assert _shape(new) == _shape(value)
    assert ids.luhn_valid(ids.digits_of(new))
    assert new[0] == value[0]


@pytest.mark.parametrize("value", ["1234-567-897-AB", "1234567897", "1234 567 897 ab"])
def test_ontario_hcn_luhn(value: str) -> None:
    new = one(value, Label.ID, "HCN")
    assert _shape(new) == _shape(value)
    assert ids.luhn_valid(ids.digits_of(new))


def test_bc_phn_mod11() -> None:
    assert ids.bc_phn_valid("9698658215")
    new = one("9698 658 215", Label.ID, "PHN")
    assert _shape(new) == "9999 999 999"
    assert ids.bc_phn_valid(ids.digits_of(new))


def test_luhn_kept_when_original_has_it() -> None:
    new = one("79927398713", Label.ID)  # valid Luhn, no subtype
    assert ids.luhn_valid(ids.digits_of(new)) and len(new) == 11


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_ssn_never_invalid_area(seed: int) -> None:
    new = ids.ssn("123-45-6789", random.Random(seed))
    assert re.fullmatch(r"\d{3}-\d{2}-\d{4}", new)
    area, group, serial = new.split("-")
    assert area != "000" and area != "666" and not area.startswith("9")
    assert group != "00" and serial != "0000"


def test_ssn_by_shape_without_subtype() -> None:
    new = one("123 45 6789", Label.ID)
    assert re.fullmatch(r"\d{3} \d{2} \d{4}", new) and new != "123 45 6789"


def test_iban_check_digits() -> None:
    value = "GB82 WEST 1234 5698 7654 32"
    assert ids.iban_valid(value)
    new = one(value, Label.ID, "IBAN")
    assert new.startswith("GB") and _shape(new) == _shape(value) and ids.iban_valid(new)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["M5V 2T6", "m5v2t6", "K1A-0B1", "H0H 0H0"]), st.integers(0, 2**32))
def test_canadian_postal_code(value: str, seed: int) -> None:
    new = ids.ca_postal(value, random.Random(seed))
    assert _shape(new) == _shape(value)
    letters = [c.upper() for c in new if c.isalpha()]
    assert letters[0] in "ABCEGHJKLMNPRSTVXY"
    assert all(c not in "DFIOQU" for c in letters)


def test_postal_code_as_location() -> None:
    new = one("M5V 2T6", Label.LOCATION, "POSTAL_CODE")
    assert ids.CA_POSTAL_RE.match(new) and new != "M5V 2T6"
    assert re.fullmatch(r"\d{5}-\d{4}", one("90210-1234", Label.LOCATION, "ZIP"))


_NANP = re.compile(r"[2-9][0-8]\d[2-9]\d{2}\d{4}")


@pytest.mark.parametrize("value,cc", [
    ("416-555-0199", ""), ("(905) 555-1234", ""), ("+1 (905) 555-1234", "1"),
    ("1-800-555-0100", "1"), ("416.555.0199", ""), ("4165550199", ""),
    ("416-555-0199 x204", ""),
])
def test_nanp_phone(value: str, cc: str) -> None:
    new = one(value, Label.PHONE)
    assert _shape(new) == _shape(value)
    digits = ids.digits_of(new)
    assert digits.startswith(cc)
    nanp = digits[len(cc):len(cc) + 10]
    assert _NANP.fullmatch(nanp), new
    assert nanp[1:3] != "11" and nanp[4:6] != "11"
    assert new != value


def test_international_phone_keeps_country_code() -> None:
    new = one("+44 20 7946 0958", Label.PHONE)
    assert new.startswith("+44 ") and _shape(new) == _shape("+44 20 7946 0958")


def test_formatted_ids_are_separator_insensitive() -> None:
    sur = surrogator()
    a = one("416-555-0199", Label.PHONE, sur=sur)
    b = one("(416) 555 0199", Label.PHONE, sur=sur)
    c = one("+1 416 555 0199", Label.PHONE, sur=sur)
    assert ids.digits_of(a) == ids.digits_of(b) == ids.digits_of(c)[1:]
    assert one("AB-1234", Label.ID, sur=sur).replace("-", "").lower() == \
        one("ab1234", Label.ID, sur=sur).lower()
