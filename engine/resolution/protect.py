"""The safety rule for everything a project learns (issue 25): recall first.

A learned recoverer (the local vocabulary, a learned resolver) never drops a span whose text
is in a PHI dictionary (the profile's entries), a checksum-validated identifier, or a DATE
that parses as one. The shipped allowlist is not learned and is not bound by this rule.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core.domain import Document, Source, Span
from engine.core.labels import Label
from engine.detectors.regex import validators as v
from engine.profile.model import normal_key
from engine.resolution.measurements import looks_like_date

# Identifier subtypes with a checksum, and the check (engine.detectors.regex.validators).
CHECKSUMS: dict[str, Callable[[str], bool]] = {
    "SSN": v.ssn, "SIN": v.sin, "PHN": v.bc_phn, "HCN": v.ontario_hcn, "ULI": v.luhn,
    "CREDIT_CARD": v.credit_card, "IBAN": v.iban,
}


def is_validated_identifier(doc: Document, span: Span) -> bool:
    """A rule-found identifier whose checksum holds (Luhn, mod 97, the SSN/SIN rules...)."""
    if span.source is not Source.RULE or span.label is not Label.ID:
        return False
    check = CHECKSUMS.get(span.subtype or "")
    return check is not None and check(doc.slice(span))


def is_protected(doc: Document, span: Span, profile_terms: frozenset[str]) -> bool:
    """May no learned recoverer drop ``span``?"""
    if span.label is Label.DATE and looks_like_date(doc.text, span.start, span.end):
        return True
    if is_validated_identifier(doc, span):
        return True
    return bool(profile_terms) and normal_key(doc.slice(span)) in profile_terms
