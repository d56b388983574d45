from __future__ import annotations

import pytest

from engine.detectors.regex import validators as v


@pytest.mark.parametrize(("value", "ok"), [
    ("4111 1111 1111 1111", True), ("4111-1111-1111-1112", False), ("0000000000000", False),
    ("5500 0000 0000 0004", True),
])
def test_credit_card(value: str, ok: bool) -> None:
    assert v.credit_card(value) is ok


@pytest.mark.parametrize(("value", "ok"), [
    ("046 454 286", True), ("046-454-287", False), ("846 454 286", False), ("12345678", False),
])
def test_sin(value: str, ok: bool) -> None:
    assert v.sin(value) is ok


@pytest.mark.parametrize(("value", "ok"), [
    ("123-45-6789", True), ("000-45-6789", False), ("666-45-6789", False),
    ("923-45-6789", False), ("123-00-6789", False), ("123-45-0000", False),
])
def test_ssn(value: str, ok: bool) -> None:
    assert v.ssn(value) is ok


def test_health_numbers() -> None:
    assert v.ontario_hcn("1234-567-897")
    assert not v.ontario_hcn("1234-567-898")
    assert v.bc_phn("9876 543 218")
    assert not v.bc_phn("9876 543 219")
    assert not v.bc_phn("1876 543 218")


def test_iban_and_ip() -> None:
    assert v.iban("GB82 WEST 1234 5698 7654 32")
    assert not v.iban("GB83WEST12345698765432")
    assert v.ip_address("10.0.0.1") and v.ip_address("2001:db8::1")
    assert not v.ip_address("999.1.1.1")


def test_numeric_dates() -> None:
    assert v.numeric_date("12/03/2021") and v.numeric_date("31/12/99")
    assert not v.numeric_date("13/13/2021") and not v.numeric_date("0/5/2021")
    assert v.month_year("11/93") and not v.month_year("13/93")
    assert v.month_day("4/12") and not v.month_day("4/32")


@pytest.mark.parametrize(("text", "expected"), [
    ("hr.no", False), ("residuals.no", False), ("pt.sister", False), ("pt.in", False),
    ("example.com", True), ("www.clinic.ca", True), ("albertahealthservices.ca", True),
    ("jane.doe@example.org", True), ("https://x.no/a", True), ("fjordklinikk.no", True),
    ("192.168.0.1", True),
])
def test_web_shape(text: str, expected: bool) -> None:
    from engine.detectors.regex.validators import web_shape

    assert web_shape(text) is expected
