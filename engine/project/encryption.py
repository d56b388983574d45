"""Encrypting a plain project and changing a project's passphrase, as whole-file steps:
a new file is written and checked before it replaces the old one, so a wrong passphrase or
a crash never leaves a corrupt project. The plain file that encryption replaces is
overwritten with zeros (no plain backup is ever taken), and so are
the schema-migration backups (``NAME.clearnote.vN.bak``) once the new file is checked: they
hold the documents under the old key (or none), which must open nothing after a rekey."""

from __future__ import annotations

import glob
import logging
from pathlib import Path

from sqlalchemy import text

from engine.core.errors import ProjectError, UsageError
from engine.core.files import (
    claimed,
    fsync_file,
    overwrite_and_unlink,
    replace_and_wipe,
    temp_copy,
)
from engine.project.settings import SUFFIX
from engine.store import crypto, leftovers, migrations
from engine.store.db import Database

log = logging.getLogger(__name__)


def is_encrypted(path: str | Path) -> bool:
    return crypto.is_encrypted(Path(path))


def _project_file(path: str | Path) -> Path:
    path = Path(path)
    if path.suffix != SUFFIX or not path.is_file():
        raise UsageError(f"{path.name}: no such project file")
    return path


def _fingerprint(db: Database) -> tuple[int, int, str]:
    """What must survive the copy: document and span counts, and the project secret."""
    with db.read() as s:
        docs = int(s.execute(text("SELECT count(*) FROM documents")).scalar() or 0)
        spans = int(s.execute(text("SELECT count(*) FROM spans")).scalar() or 0)
        secret = str(s.execute(text("SELECT value FROM settings WHERE key='secret'")
                               ).scalar() or "")
    return docs, spans, secret


def encrypt_project(path: str | Path, passphrase: str) -> Path:
    """Encrypt a plain project in place (``clearnote project encrypt``): an encrypted copy
    is written beside it, checked, renamed over it, and the plain file's bytes are zeroed.
    No plain copy is ever taken: until the rename the project itself is intact, and a kill
    at any moment leaves only files that the next open wipes (``engine.store.leftovers``).
    Returns ``path``."""
    path = _project_file(path)
    leftovers.recover(path)
    if crypto.is_encrypted(path):
        raise UsageError(f"{path.name}: already encrypted")
    plain = Database(path)
    try:
        migrations.check_application(plain.engine, path)
        if migrations.user_version(plain.engine) != migrations.LATEST:
            raise UsageError(f"{path.name}: open it once with this version (schema "
                             "migration) before encrypting it")
        if plain.integrity_check() != "ok":
            raise ProjectError(f"{path.name}: integrity check failed; not encrypted")
        expected = _fingerprint(plain)
        with plain.engine.connect() as conn:  # everything into the main file
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        plain.close()

    with claimed(temp_copy(path, "encrypt")) as tmp:
        try:
            crypto.encrypt_plain(path, tmp, passphrase)
            check = Database(tmp, passphrase=passphrase)
            try:
                if check.integrity_check() != "ok" or _fingerprint(check) != expected:
                    raise ProjectError(f"{path.name}: the encrypted copy does not match; "
                                       "the project was left as it was")
            finally:
                check.close()
            fsync_file(tmp)
            for suffix in ("-wal", "-shm"):
                overwrite_and_unlink(Path(f"{path}{suffix}"))
            replace_and_wipe(tmp, path)  # the plain file is zeroed in place
        except BaseException:
            if not crypto.is_encrypted(path):  # not renamed: the plain project is intact
                for suffix in leftovers.JOURNALS:
                    overwrite_and_unlink(Path(f"{tmp}{suffix}"))
            raise
    removed = remove_migration_backups(path)
    log.info("project encrypted (%d migration backup(s) removed)", removed)
    return path


def recover_leftovers(path: str | Path) -> int:
    """``engine.store.leftovers.recover`` for a project path (0 when there is none)."""
    return leftovers.recover(Path(path))


def rekey_project(path: str | Path, old: str, new: str) -> None:
    """Change an encrypted project's passphrase (``clearnote project rekey``); a wrong
    ``old`` passphrase raises ``WrongPassphraseError`` and leaves the file untouched."""
    path = _project_file(path)
    leftovers.recover(path)
    if not crypto.is_encrypted(path):
        raise UsageError(f"{path.name}: not encrypted; use `clearnote project encrypt`")
    crypto.rekey(path, old, new)
    removed = remove_migration_backups(path)
    log.info("project rekeyed (%d migration backup(s) removed)", removed)


def migration_backups(path: Path) -> list[Path]:
    """The schema-migration backups of ``path`` (``engine.store.migrations.backup``)."""
    pattern = f"{glob.escape(path.name)}.v*.bak"
    return sorted(p for p in path.parent.glob(pattern) if p.is_file())


def remove_migration_backups(path: Path) -> int:
    """Overwrite and unlink every migration backup of ``path`` (and its journal files): after
    encrypt or rekey they would still open without the new passphrase."""
    found = migration_backups(path)
    for backup in found:
        for leftover in (backup, *(Path(f"{backup}{s}") for s in ("-journal", "-wal", "-shm"))):
            overwrite_and_unlink(leftover)
    return len(found)
