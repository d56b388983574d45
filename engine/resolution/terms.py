"""The shipped allowlist files read as terms (resources/allowlist/): one term a line, '#'
comments. Its own module so that word tests (resolution/unknown_words.py) read the drug list
without the allowlist's detectors."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from engine.paths import resource


def read_terms(names: Iterable[str]) -> list[str]:
    terms: list[str] = []
    for name in names:
        with resource("allowlist", name).open(encoding="utf-8") as fh:
            for line in fh:
                line = line.split("#", 1)[0].strip()
                if line:
                    terms.append(line)
    return terms


@lru_cache(maxsize=1)
def drug_words() -> frozenset[str]:
    """One-word drug names of the shipped allowlist, casefolded ("coumadin", "keppra")."""
    return frozenset(t.casefold() for t in read_terms(("drugs.txt",)) if " " not in t)


@lru_cache(maxsize=1)
def faith_and_language_words() -> frozenset[str]:
    """One-word faiths, peoples and languages of the shipped allowlist, casefolded ("filipino",
    "lutheran")."""
    return frozenset(t.casefold() for t in read_terms(("faiths_and_languages.txt",))
                     if " " not in t)
