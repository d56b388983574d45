"""Session.warm_up runs the detectors once on a synthetic note, so the lists they read on
first use (the English word list holds the GIL for a tenth of a second while it is read)
are loaded before the first document: the desktop warms up while the project opens."""

from __future__ import annotations

from engine.api import PipelineConfig, Session, SessionConfig
from engine.detectors.dictionary.context import english_words


def test_warm_up_reads_the_lazily_loaded_lists() -> None:
    english_words.cache_clear()
    session = Session(SessionConfig(pipeline=PipelineConfig(policy="strict", ner=False)))
    session.warm_up()
    assert english_words.cache_info().currsize == 1
    assert session.pipeline is not None
