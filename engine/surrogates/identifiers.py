"""Format-preserving identifiers: digit for digit, letter for letter, checksums kept.

Every function takes the original and a private PRNG and returns a value with the same
separators, length, letter/digit positions and case. Callers retry until it differs.
"""

from __future__ import annotations

import random
import re
import string

_DIGITS = "0123456789"
# Canadian postal codes never use D F I O Q U; W and Z never start one.
_CA_FIRST = "ABCEGHJKLMNPRSTVXY"
_CA_OTHER = "ABCEGHJKLMNPRSTVWXYZ"

SSN_RE = re.compile(r"^\d{3}([- ]?)\d{2}\1\d{4}$")
CA_POSTAL_RE = re.compile(r"^[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d$")
ZIP_RE = re.compile(r"^\d{5}(?:-\d{4})?$")
IBAN_RE = re.compile(r"^[A-Za-z]{2}\d{2}[A-Za-z0-9 ]{8,}$")


# ---------------------------------------------------------------- checksums

def luhn_valid(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return len(digits) > 1 and total % 10 == 0


def luhn_complete(body: str) -> str:
    """``body`` plus the check digit that makes it Luhn-valid."""
    for check in _DIGITS:
        if luhn_valid(body + check):
            return body + check
    raise AssertionError("unreachable: some check digit always fits")


_BC_WEIGHTS = (2, 4, 8, 5, 10, 9, 7, 3)


def bc_phn_check(digits: str) -> int | None:
    """Check digit of a BC PHN (10 digits, leading 9, mod 11); None: no valid digit."""
    total = sum(int(d) * w % 11 for d, w in zip(digits[1:9], _BC_WEIGHTS, strict=True))
    check = 11 - total % 11
    return None if check >= 10 else check


def bc_phn_valid(digits: str) -> bool:
    return (len(digits) == 10 and digits[0] == "9" and digits.isdigit()
            and bc_phn_check(digits) == int(digits[9]))


def iban_valid(value: str) -> bool:
    s = re.sub(r"\s+", "", value).upper()
    if len(s) < 5 or not s.isalnum():
        return False
    moved = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


# ---------------------------------------------------------------- shape helpers

def _rand_letter(rng: random.Random, like: str) -> str:
    c = rng.choice(string.ascii_uppercase)
    return c.lower() if like.islower() else c


def shape_replace(value: str, rng: random.Random) -> str:
    """Every digit -> a random digit, every letter -> a random letter of the same case;
    everything else kept. A run of digits keeps a non-zero lead (no "0382135" for a MRN)."""
    out: list[str] = []
    prev_digit = False
    for ch in value:
        if ch.isdigit():
            if not prev_digit and ch != "0":
                out.append(rng.choice("123456789"))
            else:
                out.append(rng.choice(_DIGITS))
            prev_digit = True
        else:
            out.append(_rand_letter(rng, ch) if ch.isalpha() else ch)
            prev_digit = False
    return "".join(out)


def _digit_positions(value: str) -> list[int]:
    return [i for i, ch in enumerate(value) if ch.isdigit()]


def put_digits(value: str, digits: str) -> str:
    """Write ``digits`` over the digit positions of ``value`` in order."""
    out = list(value)
    for i, d in zip(_digit_positions(value), digits, strict=True):
        out[i] = d
    return "".join(out)


def digits_of(value: str) -> str:
    return "".join(ch for ch in value if ch.isdigit())


def render_like(original: str, canonical: str) -> str:
    """Lay a stored alphanumeric surrogate over the original's separators and case."""
    chars = iter(canonical)
    out: list[str] = []
    for ch in original:
        if ch.isalnum():
            new = next(chars)
            out.append(new.lower() if ch.islower() else new.upper() if ch.isupper() else new)
        else:
            out.append(ch)
    return "".join(out)


# ---------------------------------------------------------------- identifier kinds

def ssn(value: str, rng: random.Random) -> str:
    """US SSN: area 001-899 except 666, group 01-99, serial 0001-9999."""
    area = rng.choice([a for a in range(1, 900) if a != 666])
    digits = f"{area:03d}{rng.randint(1, 99):02d}{rng.randint(1, 9999):04d}"
    return put_digits(value, digits)


def luhn_id(value: str, rng: random.Random, *, keep_first: bool = False,
            first_choices: str = "123456789") -> str:
    """Random digits whose full digit string passes Luhn (SIN, credit card, Ontario HCN)."""
    orig = digits_of(value)
    first = orig[0] if keep_first else rng.choice(first_choices)
    body = first + "".join(rng.choice(_DIGITS) for _ in range(len(orig) - 2))
    return _letters(put_digits(value, luhn_complete(body)), rng)


def sin(value: str, rng: random.Random) -> str:
    # First digit is the province of registration; 9 marks a temporary resident: keep that.
    temporary = digits_of(value)[:1] == "9"
    return luhn_id(value, rng, first_choices="9" if temporary else "1234567")


def bc_phn(value: str, rng: random.Random) -> str:
    while True:
        body = "9" + "".join(rng.choice(_DIGITS) for _ in range(8))
        check = bc_phn_check(body + "0")
        if check is not None:
            return _letters(put_digits(value, body + str(check)), rng)


def iban(value: str, rng: random.Random) -> str:
    """Keep the country code, randomise the account part, recompute the mod-97 check."""
    compact = re.sub(r"\s+", "", value)
    bban = shape_replace(compact[4:], rng).upper()
    cc = compact[:2].upper()
    num = int("".join(str(int(c, 36)) for c in bban + cc + "00"))
    new = cc + f"{98 - num % 97:02d}" + bban
    return render_like(value, new)


def ca_postal(value: str, rng: random.Random) -> str:
    letters = iter([rng.choice(_CA_FIRST), rng.choice(_CA_OTHER), rng.choice(_CA_OTHER)])
    out: list[str] = []
    for ch in value:
        if ch.isalpha():
            new = next(letters)
            out.append(new.lower() if ch.islower() else new)
        elif ch.isdigit():
            out.append(rng.choice(_DIGITS))
        else:
            out.append(ch)
    return "".join(out)


def _letters(value: str, rng: random.Random) -> str:
    """Randomise the letters of an already digit-replaced value (e.g. an HCN version code)."""
    return "".join(_rand_letter(rng, ch) if ch.isalpha() else ch for ch in value)


def identifier(value: str, subtype: str | None, rng: random.Random) -> str:
    """Pick the generator for an ID by subtype, falling back on the shape of the value."""
    digits = digits_of(value)
    n = len(digits)
    if (subtype == "SSN" or (subtype is None and SSN_RE.match(value))) and n == 9:
        return ssn(value, rng)
    if subtype == "SIN" and n == 9:
        return sin(value, rng)
    if subtype == "CREDIT_CARD" and n >= 12:
        # The first digit names the network (4 Visa, 5 Mastercard, 3 Amex): keep it.
        return luhn_id(value, rng, keep_first=True)
    if ((subtype == "IBAN" or (subtype is None and IBAN_RE.match(value) and iban_valid(value)))
            and IBAN_RE.match(value)):
        return iban(value, rng)
    if n == 10 and bc_phn_valid(digits) and subtype in (None, "PHN", "HCN"):
        return bc_phn(value, rng)
    if subtype == "HCN" and n == 10:
        return luhn_id(value, rng)  # Ontario: 10 digits, Luhn check digit
    if n >= 8 and luhn_valid(digits):
        # The original carries a Luhn check digit (SIN, card, HCN, many MRNs): keep one.
        return luhn_id(value, rng, keep_first=subtype == "CREDIT_CARD")
    return shape_replace(value, rng)


# ---------------------------------------------------------------- phones

def _area_code(rng: random.Random) -> str:
    while True:
        a, b, c = rng.choice("23456789"), rng.choice("012345678"), rng.choice(_DIGITS)
        code = a + b + c
        # Not N11 (service codes), not N9X (reserved), not 37X/96X (reserved), not 555.
        if not (b == "1" and c == "1") and code[:2] not in ("37", "96") and code != "555":
            return code


def _exchange(rng: random.Random) -> str:
    while True:
        a, b, c = rng.choice("23456789"), rng.choice(_DIGITS), rng.choice(_DIGITS)
        if not (b == "1" and c == "1") and a + b + c != "555":
            return a + b + c


def phone_country_digits(value: str) -> int:
    """How many leading digits are a country code that must be kept."""
    stripped = value.lstrip()
    digits = digits_of(value)
    if stripped.startswith("+"):
        m = re.match(r"\+\s*(\d+)", stripped)
        run = m.group(1) if m else ""
        if run.startswith("1") and (len(run) == 1 or len(digits) == 11):
            return 1
        if run and len(run) <= 3:
            return len(run)
        return 1 if digits.startswith("1") else min(2, len(digits))
    if len(digits) == 11 and digits.startswith("1"):
        return 1
    return 0


def phone(value: str, rng: random.Random) -> str:
    """NANP numbers get a valid area code and exchange; others random digits."""
    digits = digits_of(value)
    cc = phone_country_digits(value)
    body = digits[cc:]
    nanp = cc == 0 or digits[:cc] == "1"
    if nanp and len(body) >= 10:
        new = _area_code(rng) + _exchange(rng) + "".join(
            rng.choice(_DIGITS) for _ in range(len(body) - 6))
    elif nanp and len(body) == 7:
        new = _exchange(rng) + "".join(rng.choice(_DIGITS) for _ in range(4))
    else:
        new = digits_of(shape_replace(body, rng)) if body else ""
    return put_digits(value, digits[:cc] + new)
