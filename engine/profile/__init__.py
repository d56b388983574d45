"""What a project learned about its institution (issue 25), as data.

``Profile`` is a frozen, versioned, canonical-JSON object: the local PHI dictionary (names of
patients, relatives and staff, wards, places, hospitals, from review and imported lists), the
local clinical vocabulary (words the reviewer rejected, words the corpus shows are clinical
language), an optional learned resolver (its ``to_dict()``) and counts. ``build_profile``
makes one from reviewed decisions, imported lists and corpus statistics; the same inputs
give the same bytes. The pipeline reads it (``PipelineConfig.profile``); the project stores
its versions and exports it encrypted.
"""

from __future__ import annotations

from engine.profile.build import Decision, ListEntry, build_profile
from engine.profile.corpus import CorpusStats, DocumentSample, corpus_statistics
from engine.profile.model import (
    SCHEMA_VERSION,
    EntrySource,
    PhiEntry,
    PhiKind,
    Profile,
    VocabEntry,
    normal_key,
)

__all__ = [
    "SCHEMA_VERSION", "CorpusStats", "Decision", "DocumentSample", "EntrySource", "ListEntry",
    "PhiEntry", "PhiKind", "Profile", "VocabEntry", "build_profile", "corpus_statistics",
    "normal_key",
]
