"""Guard against the PySide6 6.12.0 / CPython 3.11 reference leak that aborted the app:
every signal emission dropped a reference to True and every Qt→Python call one to None."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    fired = Signal(object)


def test_signal_emission_keeps_singleton_refcounts() -> None:
    emitter = _Emitter()
    received: list[object] = []
    emitter.fired.connect(received.append)
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for i in range(2000):
        emitter.fired.emit(i)
    assert len(received) == 2000
    received.clear()
    # A clean binding leaves both counts where they were (give or take a few temporaries).
    assert abs(sys.getrefcount(None) - none_before) < 50
    assert abs(sys.getrefcount(True) - true_before) < 50
