"""The compiled-rules cache: a hit behaves exactly like ``re.compile``, and a missing,
damaged, stale or unwritable cache only costs time."""

from __future__ import annotations

import hashlib
import marshal
import re
from pathlib import Path

import pytest

from engine.core.regex_cache import PatternCache
from engine.detectors.regex import FAMILIES

PATTERNS = [rule.pattern for _, _, rules, _ in FAMILIES for rule in rules]
TEXT = ("Seen by Dr. Mara Quinn-O'Neil at Lakeside Général Hospital, 1450 Oakwood Avenue, "
        "Edmonton, AB T5K 2M4 on 3 March 2021 (DOB 1956-09-10). Call 416-555-0142, "
        "MRN 6433012, PHN 9876 543 210. cc: Dr. Şahin Ødegaard\nPatient: NGUYỄN, Thị Ánh\n")


def _fill(path: Path) -> PatternCache:
    cache = PatternCache(path)
    for pattern in PATTERNS:
        cache.compile(pattern)
    cache.save()
    return cache


def test_a_cached_pattern_matches_as_re_compile_does(tmp_path: Path) -> None:
    path = tmp_path / "rules.marshal"
    _fill(path)
    assert path.is_file()
    again = PatternCache(path)
    for pattern in PATTERNS:
        cached, fresh = again.compile(pattern), re.compile(pattern)
        assert (cached.pattern, cached.flags, cached.groups, cached.groupindex) == (
            fresh.pattern, fresh.flags, fresh.groups, fresh.groupindex)
        assert [m.span() for m in cached.finditer(TEXT)] == [m.span() for m in fresh.finditer(TEXT)]
    assert again.hits == len(set(PATTERNS))


def test_the_shipped_rules_match_some_of_the_sample() -> None:
    # Guards the test above against a sample that no rule matches.
    assert sum(bool(re.search(p, TEXT)) for p in PATTERNS) >= 10


def test_a_damaged_file_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "rules.marshal"
    _fill(path)
    blob = bytearray(path.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    path.write_bytes(bytes(blob))
    cache = PatternCache(path)
    assert cache.compile(PATTERNS[0]).pattern == PATTERNS[0]
    assert cache.hits == 0


def test_an_entry_the_regex_engine_rejects_is_compiled_afresh(tmp_path: Path) -> None:
    # A well-formed file whose code is not valid for this engine (another release wrote it
    # under the same name): _sre refuses it, the pattern is compiled again.
    path = tmp_path / "rules.marshal"
    pattern = r"\b(?P<mrn>\d{7})\b"
    entries = {(pattern, 0): (32, [17, 4, 0, 1], 1, {"mrn": 1}, (None, "mrn"))}
    payload = marshal.dumps(entries)
    path.write_bytes(hashlib.sha256(payload).digest() + payload)
    cache = PatternCache(path)
    compiled = cache.compile(pattern)
    assert cache.hits == 0
    assert compiled.findall("MRN 6433012") == ["6433012"]
    cache.save()
    assert PatternCache(path).compile(pattern).findall("MRN 6433012") == ["6433012"]


def test_an_unwritable_cache_folder_is_not_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = PatternCache(blocker / "rules.marshal")
    assert cache.compile(r"\d+").findall("a 12 b 3") == ["12", "3"]
    cache.save()  # cannot create the folder: the run goes on
    assert not (blocker / "rules.marshal").exists()


def test_a_bad_pattern_still_raises(tmp_path: Path) -> None:
    with pytest.raises(re.error):
        PatternCache(tmp_path / "rules.marshal").compile("(unclosed")
