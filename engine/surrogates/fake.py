"""One Faker per locale, reseeded for every value so results are reproducible."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from faker import Faker

T = TypeVar("T")


class SeededFaker:
    def __init__(self, locale: str) -> None:
        try:
            self._faker = Faker(locale)
        except AttributeError:  # unknown locale: names and places still work in en_US
            self._faker = Faker("en_US")
        self._lock = threading.Lock()  # seed + draw must not interleave between threads

    def draw(self, seed: int, fn: Callable[[Faker], T]) -> T:
        with self._lock:
            self._faker.seed_instance(seed)
            return fn(self._faker)

    def has(self, method: str) -> bool:
        try:
            getattr(self._faker, method)
        except AttributeError:
            return False
        return True
