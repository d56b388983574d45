"""Dictionary detectors: name and location gazetteers, per-project user dictionaries."""

from __future__ import annotations

from engine.detectors.dictionary.cues import CueNameDetector
from engine.detectors.dictionary.locations import LocationGazetteerDetector
from engine.detectors.dictionary.names import NameGazetteerDetector
from engine.detectors.dictionary.signout import SignoutNameDetector
from engine.detectors.dictionary.user import UserDictionaryDetector, load_user_dictionary

__all__ = ["CueNameDetector", "LocationGazetteerDetector", "NameGazetteerDetector",
           "SignoutNameDetector", "UserDictionaryDetector", "load_user_dictionary"]
