"""One SQLAlchemy engine per project file: WAL, foreign keys, busy timeout, short
transactions. Safe to call from worker threads: each unit of work opens its own session.

A project opened with a passphrase is a SQLCipher file (``engine.store.crypto``): the key is
derived once here and every pooled connection is keyed with it before any other statement;
WAL and everything else work as for a plain file (the -wal file is encrypted too)."""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import QueuePool

from engine.core.errors import disk_problem
from engine.core.files import create_private_file
from engine.store import crypto, leftovers
from engine.store.crypto import ProjectKey

BUSY_TIMEOUT_MS = 30_000
# engine -> its project key, for code handed only the engine (migrations' backup).
_KEYS: weakref.WeakKeyDictionary[Engine, ProjectKey | None] = weakref.WeakKeyDictionary()


def key_of(engine: Engine) -> ProjectKey | None:
    return _KEYS.get(engine)


def make_engine(path: Path, key: ProjectKey | None = None) -> Engine:
    # hide_parameters: SQLAlchemy errors would otherwise quote document text (PHI).
    if key is None:
        engine = create_engine(f"sqlite:///{path}", hide_parameters=True,
                               connect_args={"timeout": BUSY_TIMEOUT_MS / 1000,
                                             "check_same_thread": False})
    else:
        # The pysqlite dialect over SQLCipher's DB-API module; each connection is keyed
        # (and checked) by crypto.connect before SQLAlchemy sees it.
        # The "sqlite://" URL alone would make SQLAlchemy pick its in-memory pool (one
        # connection per thread), so a read nested in a write would share a transaction;
        # a file needs QueuePool, as the plain engine gets.
        engine = create_engine(
            "sqlite://", hide_parameters=True, module=crypto.dbapi(), poolclass=QueuePool,
            creator=lambda: crypto.connect(path, key, timeout=BUSY_TIMEOUT_MS / 1000,
                                           check_same_thread=False))

    _KEYS[engine] = key

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event emit BEGIN itself (pysqlite's implicit BEGIN
        # cannot be IMMEDIATE), see the SQLAlchemy pysqlite "serializable" recipe.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints; WAL stays intact
        # Checkpoint every 16 MB of WAL instead of 4 MB: a batch writes ~70 KB per
        # document, and each checkpoint rewrites the same hot index pages (measured:
        # commit time -25 %).
        cur.execute("PRAGMA wal_autocheckpoint=4000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Writers take the lock up front: a deferred transaction that upgrades to a write
        # gets SQLITE_BUSY immediately, without waiting for the busy timeout.
        immediate = conn.get_execution_options().get("clearnote_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


class Database:
    """The engine plus two session factories (reads, writes) for units of work.

    ``passphrase``: ``None`` opens a plain project (and refuses an encrypted one with
    ``PassphraseRequiredError``); a string opens an encrypted project (``WrongPassphraseError``
    if it does not match, the file untouched) or creates a new encrypted one."""

    def __init__(self, path: Path, *, passphrase: str | None = None) -> None:
        self.path = path
        leftovers.recover(path)  # what a killed encrypt or rekey left beside the project
        self.key = crypto.key_for(path, passphrase)
        # Owner-only from the first byte; SQLite gives -wal and -shm the same mode.
        create_private_file(path)
        self.encrypted = self.key is not None
        if self.key is not None and path.exists():
            crypto.connect(path, self.key).close()  # a wrong passphrase fails here, clearly
        self.engine = make_engine(path, self.key)
        self._reads = sessionmaker(self.engine, expire_on_commit=False)
        self._writes = sessionmaker(self.engine.execution_options(clearnote_write=True),
                                    expire_on_commit=False)
        # In-process writers queue here rather than spinning on SQLite's busy handler.
        self.write_lock = threading.RLock()

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self.disk_errors(), self._reads() as session, session.begin():
            yield session

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A unit of work: commits on success, rolls back on any exception."""
        with self.disk_errors(), self.write_lock, self._writes() as session, session.begin():
            yield session

    @contextmanager
    def disk_errors(self) -> Iterator[None]:
        """SQLite's "database or disk is full" and "disk I/O error" (raised by SQLAlchemy
        as an OperationalError with a traceback) become ``DiskFullError``, a message that
        names the project and says what to do. The transaction is rolled back first, so
        the project is intact and the same command can be run again."""
        try:
            yield
        except (OperationalError, sqlite3.OperationalError, OSError) as exc:
            problem = disk_problem(exc, self.path)
            if problem is None:
                raise
            raise problem from None

    def integrity_check(self) -> str:
        with self.engine.connect() as conn:
            return str(conn.exec_driver_sql("PRAGMA integrity_check").scalar())

    def raw_connection(self, path: Path | None = None) -> Any:
        """A new DB-API connection to ``path`` (default: this project) keyed like this one
        (for SQLite's backup API: a backup of an encrypted project stays encrypted)."""
        return crypto.connect(path or self.path, self.key)

    def close(self) -> None:
        self.engine.dispose()
