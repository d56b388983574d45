"""The cased view of ALL CAPS / lower-case lines that the name, address and facility rules read."""

from __future__ import annotations

from engine.detectors.regex.recase import cased_view


def test_lines_with_case_have_no_view() -> None:
    assert cased_view("Seen by Dr. Okonjo today.\nPlan: rest.") is None


def test_caseless_lines_are_recased_in_place() -> None:
    text = ("SEEN BY DR. BAKER, AWARE. LIVES AT 15 LARKSPUR ROAD.\n"
            "transfer to riverside general hospital. ptolemy abernathy, md\n"
            "Tidy Line Stays As It Is")
    view = cased_view(text)
    assert view is not None and len(view) == len(text)
    assert view.split("\n") == [
        "seen by Dr. Baker, aware. lives at 15 Larkspur Road.",
        "transfer to Riverside General Hospital. Ptolemy Abernathy, MD",
        "Tidy Line Stays As It Is",
    ]


def test_generic_words_before_a_head_stay_words() -> None:
    view = cased_view("PRESENTED AT LOCAL HOSPITAL. DOCTOR BECAUSE OF BLISTER.")
    assert view == "presented at local Hospital. doctor because of blister."


def test_one_character_for_one() -> None:
    text = "lives at hauptstraße 5, groß-gerau"  # "ß".upper() is "SS": kept as it is
    view = cased_view(text)
    assert view == "lives at Hauptstraße 5, groß-Gerau" and len(view) == len(text)
