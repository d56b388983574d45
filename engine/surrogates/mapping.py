"""The persistence seam for surrogates: (patient, label, normalised original) -> surrogate.

The key is PHI. It lives only inside a map (the project store keeps an HMAC of it); it is
never logged or put in an exception message.
"""

from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable


@runtime_checkable
class SurrogateMap(Protocol):
    def get(self, patient: str, label: str, key: str) -> str | None: ...

    def put(self, patient: str, label: str, key: str, surrogate: str) -> None: ...


class InMemorySurrogateMap:
    """A run-scoped map: consistent across the documents of one run, forgotten after."""

    def __init__(self) -> None:
        self._data: dict[tuple[str, str, str], str] = {}
        self._lock = threading.Lock()

    def get(self, patient: str, label: str, key: str) -> str | None:
        with self._lock:
            return self._data.get((patient, str(label), key))

    def put(self, patient: str, label: str, key: str, surrogate: str) -> None:
        # First writer wins, like the store: a value never changes once handed out.
        with self._lock:
            self._data.setdefault((patient, str(label), key), surrogate)

    def __len__(self) -> int:
        with self._lock:
            return len(self._data)

    def __bool__(self) -> bool:
        # An empty map is still a map: ``mapping or InMemorySurrogateMap()`` must keep it.
        return True

    def __repr__(self) -> str:  # never show keys (PHI)
        return f"InMemorySurrogateMap(<{len(self)} entries>)"
