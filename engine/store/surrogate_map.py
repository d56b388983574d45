"""The surrogate registry behind ``engine.surrogates.SurrogateMap``.

Originals are stored as HMAC-SHA256 digests keyed by the project secret: a lookup still
works, but the registry alone does not reveal the values it replaced.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import time
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.sqlite import insert

from engine.store import repositories as repo
from engine.store.db import Database
from engine.store.models import SurrogateRow, table_of

_LAST_ID = select(func.max(table_of(SurrogateRow).c.id))


class StoreSurrogateMap:
    """Same (patient, label, original) → same surrogate, in every document and session.

    A small in-memory cache keeps export fast; the first writer wins on a race (insert or
    ignore, then read back), so two sessions never store two surrogates for one value.
    Exports call ``sync`` when their write transaction starts: if another process stored
    surrogates since this cache was filled, the cache is dropped and read again, so two
    processes exporting one patient never put two surrogates for a value into files.
    """

    def __init__(self, db: Database, secret: bytes) -> None:
        self._db = db
        self._secret = secret
        self._cache: dict[tuple[str, str, str], str] = {}
        self._loaded: set[str] = set()  # patients whose registry rows are all in _cache
        self._pending: list[tuple[str, str, str, str]] = []
        self._defer = 0
        self._lock = threading.Lock()
        self._seen: int | None = None  # the registry's last row id this cache accounts for

    def _digest(self, label: str, key: str) -> str:
        msg = f"{label}\x1f{key}".encode("utf-8", "surrogatepass")
        return hmac.new(self._secret, msg, hashlib.sha256).hexdigest()

    def get(self, patient: str, label: str, key: str) -> str | None:
        label = str(label)
        ck = (patient, label, self._digest(label, key))
        with self._lock:
            if ck in self._cache or patient in self._loaded:
                return self._cache.get(ck)
        self._load(patient)
        with self._lock:
            return self._cache.get(ck)

    def _load(self, patient: str) -> None:
        """Read a patient's whole registry once: one query instead of one per new value.
        Values stored later by this process go through the cache; another process writing
        the same value meanwhile is settled by first-writer-wins in the table."""
        with self._db.read() as s:
            rows = list(s.execute(select(SurrogateRow.label, SurrogateRow.key_digest,
                                         SurrogateRow.surrogate)
                                  .where(SurrogateRow.patient == patient)))
        with self._lock:
            for label, digest, surrogate in rows:
                self._cache.setdefault((patient, label, digest), surrogate)
            self._loaded.add(patient)

    def sync(self, s: Any) -> None:
        """In a write transaction (no other writer can add rows until it ends): drop the
        cache if the registry has rows this process did not account for."""
        top = int(s.scalar(_LAST_ID) or 0)
        with self._lock:
            stale = self._seen != top and bool(self._cache or self._loaded)
        if stale:
            self.forget()
        with self._lock:
            self._seen = top

    def mark_seen(self, s: Any) -> None:
        """In the write transaction that stored this process's values, before it commits."""
        top = int(s.scalar(_LAST_ID) or 0)
        with self._lock:
            self._seen = top

    def forget(self) -> None:
        """Drop the cache (after a failed commit): later lookups read the registry."""
        with self._lock:
            self._cache.clear()
            self._loaded.clear()
            self._pending.clear()

    def known_empty(self, patient: str | None) -> None:
        """A patient created just now has no registry rows: skip reading them."""
        if patient is not None:
            with self._lock:
                self._loaded.add(patient)

    def put(self, patient: str, label: str, key: str, surrogate: str) -> None:
        label = str(label)
        ck = (patient, label, self._digest(label, key))
        with self._lock:
            if self._defer:
                # Exports store new surrogates in the same transaction that records the
                # export, not one transaction per value (see take_pending / store_pending).
                self._cache[ck] = surrogate
                self._pending.append((*ck, surrogate))
                return
        with self._db.write() as s:
            self.sync(s)
            s.execute(insert(SurrogateRow).values(
                patient=ck[0], label=ck[1], key_digest=ck[2], surrogate=surrogate,
                created_at=time.time()).on_conflict_do_nothing())
            stored = s.scalar(select(SurrogateRow.surrogate).where(
                SurrogateRow.patient == ck[0], SurrogateRow.label == ck[1],
                SurrogateRow.key_digest == ck[2]))
            self.mark_seen(s)
        with self._lock:
            self._cache[ck] = stored if stored is not None else surrogate

    def __len__(self) -> int:
        from sqlalchemy import func

        with self._db.read() as s:
            return int(s.scalar(select(func.count()).select_from(SurrogateRow)) or 0)

    def defer(self) -> _Deferred:
        """Within this block puts are cached; ``take_pending`` hands them to the caller's
        transaction. The caller holds the project's deidentify lock, so no other thread
        sees a pending value before it is stored."""
        return _Deferred(self)

    def peek_pending(self) -> list[tuple[str, str, str, str]]:
        """The pending values, left pending until ``take_pending`` (after the commit)."""
        with self._lock:
            return list(self._pending)

    def take_pending(self) -> list[tuple[str, str, str, str]]:
        with self._lock:
            pending, self._pending = self._pending, []
            return pending

    @staticmethod
    def store_pending(s: Any, pending: list[tuple[str, str, str, str]]) -> None:
        if not pending:
            return
        now = time.time()
        # One executemany on the table (first writer wins on a race, as in ``put``).
        repo.insert_rows(s, table_of(SurrogateRow),
                         [dict(patient=patient, label=label, key_digest=digest,
                               surrogate=surrogate, created_at=now)
                          for patient, label, digest, surrogate in pending], or_ignore=True)


class _Deferred:
    def __init__(self, owner: StoreSurrogateMap) -> None:
        self.owner = owner

    def __enter__(self) -> StoreSurrogateMap:
        with self.owner._lock:
            self.owner._defer += 1
        return self.owner

    def __exit__(self, *_: object) -> None:
        with self.owner._lock:
            self.owner._defer -= 1
