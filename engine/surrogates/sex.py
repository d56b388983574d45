"""The patient's sex under the strict policy: a value of the same form, not letters at random
("Sexo: H" becomes "Sexo: M" or stays "H"; "varón" becomes "mujer" or stays "varón")."""

from __future__ import annotations

import random

# Same form, same language: a field's letter or word, a description's word.
_FORMS: tuple[tuple[str, ...], ...] = (
    ("h", "m"), ("m", "f"), ("f", "m"), ("v", "m"),
    ("hombre", "mujer"), ("mujer", "hombre"), ("varón", "mujer"), ("varon", "mujer"),
    ("niño", "niña"), ("niña", "niño"), ("masculino", "femenino"), ("femenino", "masculino"),
    ("male", "female"), ("female", "male"), ("man", "woman"), ("woman", "man"),
)


def sex_surrogate(original: str, rng: random.Random) -> str:
    """One of the two values of ``original``'s form, chosen by the keyed ``rng`` (so the same
    patient keeps one value across the project), in ``original``'s case."""
    key = original.strip().casefold()
    pair = next((form for form in _FORMS if form[0] == key), None)
    if pair is None:
        return "X" if len(key) == 1 else "[SEX]"
    value = rng.choice(pair)
    if original.isupper():
        return value.upper()
    return value.capitalize() if original[:1].isupper() else value
