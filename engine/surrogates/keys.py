"""Keyed randomness: every surrogate is a pure function of (secret, patient, label, value).

HMAC-SHA256 with the project secret means surrogates are reproducible across sessions even
without the stored map, and independent between projects (different secrets).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re

_SEP = "\x1f"  # unit separator: cannot occur inside a normalised key or label
_ID_JUNK = re.compile(r"[\W_]+", re.UNICODE)
_SPACES = re.compile(r"\s+")

# Date shifts: never 0, and at least a week so a shifted date is not trivially guessable.
MIN_SHIFT_DAYS = 7
# Below 365 so that wrapping within a year (keep_years) can never return the same date.
MAX_SHIFT_DAYS = 364


def digest(secret: bytes, *parts: str) -> bytes:
    msg = _SEP.join(parts).encode("utf-8", "surrogatepass")
    return hmac.new(secret, msg, hashlib.sha256).digest()


def rng_for(secret: bytes, *parts: str) -> random.Random:
    """A private PRNG seeded from the keyed digest (never the global ``random``)."""
    return random.Random(int.from_bytes(digest(secret, "seed", *parts), "big"))


def date_shift_days(secret: bytes, patient: str) -> int:
    """The per-patient date shift in days: ±[MIN_SHIFT_DAYS, MAX_SHIFT_DAYS], never 0."""
    d = digest(secret, "date-shift", patient)
    span = MAX_SHIFT_DAYS - MIN_SHIFT_DAYS + 1
    magnitude = MIN_SHIFT_DAYS + int.from_bytes(d[:8], "big") % span
    return magnitude if d[8] & 1 else -magnitude


def norm_text(value: str) -> str:
    """Key for free text (names, places): case- and whitespace-insensitive."""
    return _SPACES.sub(" ", value.strip()).casefold()


def norm_id(value: str) -> str:
    """Key for identifiers: only letters and digits count (``123-45 6`` == ``123456``)."""
    return _ID_JUNK.sub("", value).casefold()
