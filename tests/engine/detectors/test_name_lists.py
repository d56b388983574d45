"""The shipped name lists: names typed without their diacritics, compound family names."""

from __future__ import annotations

import pytest

from engine.detectors.dictionary.names import (
    compound_surnames,
    is_listed_name,
    plain_letters,
    with_plain_letters,
)


@pytest.mark.parametrize(("name", "plain"), [
    ("petrović", "petrovic"), ("kovačič", "kovacic"), ("nguyễn", "nguyen"),
    ("łukasz", "lukasz"), ("đorđević", "dordevic"), ("søren", "soren"), ("müller", "muller"),
])
def test_plain_letters_are_what_an_english_keyboard_types(name: str, plain: str) -> None:
    assert plain_letters(name) == plain


def test_plain_forms_join_the_lists_unless_they_are_words() -> None:
    names = {"petrović", "cândida", "cólic"}  # "candida" and "colic" are words
    assert with_plain_letters(names) == names | {"petrovic"}


@pytest.mark.parametrize("name", ["petrovic", "kovacic", "nikolic", "haddad", "khoury"])
def test_the_shipped_lists_hold_names_as_english_notes_spell_them(name: str) -> None:
    assert is_listed_name(name)


@pytest.mark.parametrize("word", ["candida", "america", "slovak", "colic", "matar"])
def test_words_stay_out_of_the_shipped_lists(word: str) -> None:
    assert not is_listed_name(word)


def test_compound_family_names_are_word_tuples() -> None:
    names = compound_surnames()
    assert ("two", "bulls") in names and ("afraid", "of", "bear") in names
    assert ("black", "bear") not in names  # an injury's animal, left out on purpose
