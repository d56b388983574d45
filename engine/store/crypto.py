"""Projects encrypted at rest with SQLCipher (the ``sqlcipher3`` wheel: SQLCipher 4,
AES-256 pages with an HMAC each, bundled for Linux, macOS and Windows).

Key derivation: scrypt (memory-hard, stdlib) from the passphrase and the file's own 16-byte
salt, which SQLCipher keeps in plain at the start of the file. We derive once per open and
hand SQLCipher the raw key, instead of ``PRAGMA key = 'passphrase'``: SQLCipher would run
its PBKDF2 (about 0.2 s) on every new pooled connection and in every worker, and scrypt is
the stronger KDF against GPU guessing. A new file gets a random salt that SQLCipher writes
into its header (raw key + salt form), so nothing but the passphrase is needed to reopen.

Wrong passphrases are detected on open by reading the schema (page 1's HMAC fails); the
file is only ever read in that case. Migration (plain -> encrypted) and rekeying write a
new file with ``sqlcipher_export`` and replace the old one only once the new one opens.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.errors import PassphraseRequiredError, ProjectError, WrongPassphraseError
from engine.core.files import (
    claimed,
    create_private_file,
    fsync_file,
    replace_and_wipe,
    temp_copy,
)

PLAIN_HEADER = b"SQLite format 3\x00"
SALT_BYTES = 16
KEY_BYTES = 32
# scrypt cost: ~0.2 s and 32 MiB per open on a laptop core (OWASP minimum is N=2**17 with
# r=8 for passwords stored on servers; a local file key derived once per open can use N=2**15
# with the per-file salt and still cost an attacker 32 MiB per guess).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1


@dataclass(frozen=True)
class ProjectKey:
    """A raw SQLCipher key and the salt it was derived with. Never printed."""

    key: bytes = field(repr=False)
    salt: bytes = field(repr=False)

    def pragma(self) -> str:
        # Raw key and salt: SQLCipher skips its own KDF and writes this salt into a new file.
        return f"PRAGMA key = \"x'{self.key.hex()}{self.salt.hex()}'\""

    def __repr__(self) -> str:
        return "ProjectKey(<hidden>)"


def derive(passphrase: str, salt: bytes, *, normalize: bool = True) -> ProjectKey:
    """The key for ``passphrase`` in Unicode NFC: "é" typed as one code point or as "e" and
    a combining accent (macOS input methods, some keyboards) is the same passphrase.
    ``normalize=False``: the bytes as typed, as projects before issue 29 were keyed."""
    if not passphrase:
        raise ProjectError("the project passphrase must not be empty")
    if normalize:
        passphrase = unicodedata.normalize("NFC", passphrase)
    key = hashlib.scrypt(passphrase.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R,
                         p=SCRYPT_P, maxmem=64 * 1024 * 1024, dklen=KEY_BYTES)
    return ProjectKey(key, salt)


def new_key(passphrase: str) -> ProjectKey:
    return derive(passphrase, secrets.token_bytes(SALT_BYTES))


def is_encrypted(path: Path) -> bool:
    """An existing, non-empty file that does not start with SQLite's plain header."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(len(PLAIN_HEADER))
    except FileNotFoundError:
        return False
    return len(head) == len(PLAIN_HEADER) and head != PLAIN_HEADER


def key_for(path: Path, passphrase: str | None) -> ProjectKey | None:
    """The key to open ``path`` (``None`` for a plain project); a new file gets a new salt.
    An encrypted file without a passphrase is refused before anything is opened."""
    if not is_encrypted(path):
        if passphrase is not None and path.exists() and path.stat().st_size > 0:
            raise ProjectError(f"{path.name}: this project is not encrypted; encrypt it "
                               "first (encrypt_plain) to use a passphrase")
        return None if passphrase is None else new_key(passphrase)
    if passphrase is None:
        raise PassphraseRequiredError(f"{path.name}: this project is encrypted; a passphrase "
                                      "is needed to open it")
    with open(path, "rb") as fh:
        salt = fh.read(SALT_BYTES)
    key = derive(passphrase, salt)
    if unicodedata.normalize("NFC", passphrase) != passphrase:
        # Made before passphrases were normalised, with this passphrase typed in another
        # form: keyed with the bytes as typed. Such a project still opens; a rekey moves it
        # to the NFC key.
        try:
            connect(path, key).close()
        except WrongPassphraseError:
            return derive(passphrase, salt, normalize=False)
    return key


def dbapi() -> Any:
    try:
        from sqlcipher3 import dbapi2
    except ImportError as exc:  # a broken install: it is a declared dependency
        raise ProjectError("encrypted projects need the sqlcipher3 package") from exc
    return dbapi2


def connect(path: Path, key: ProjectKey | None, **kwargs: Any) -> Any:
    """A DB-API connection: stdlib sqlite3 for plain files, SQLCipher keyed for the rest.
    Raises ``WrongPassphraseError`` (file untouched) when the key does not open it."""
    if key is None:
        return sqlite3.connect(path, **kwargs)
    conn = dbapi().connect(str(path), **kwargs)
    try:
        conn.execute("PRAGMA cipher_log_level = NONE")  # no "hmac check failed" on stderr
        conn.execute(key.pragma())
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except dbapi().DatabaseError as exc:
        conn.close()
        if "not a database" in str(exc):
            raise WrongPassphraseError(f"{path.name}: wrong passphrase (or not a ClearNote "
                                       "project)") from exc
        raise ProjectError(f"{path.name}: cannot open ({type(exc).__name__})") from exc
    return conn


def export_copy(conn: Any, target: Path, key: ProjectKey) -> None:
    """Write the open database ``conn`` (plain or keyed) to a new encrypted ``target`` with
    SQLCipher's ``sqlcipher_export``; user_version and application_id come along."""
    if target.exists() and target.stat().st_size > 0:
        raise ProjectError(f"{target.name}: already exists")
    create_private_file(target)  # owner-only before SQLCipher writes a byte
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    conn.execute(f"ATTACH DATABASE ? AS clearnote_new KEY \"x'{key.key.hex()}"
                 f"{key.salt.hex()}'\"", (str(target),))
    try:
        conn.execute("SELECT sqlcipher_export('clearnote_new')").fetchall()
        conn.execute(f"PRAGMA clearnote_new.user_version = {int(version)}")
        conn.execute(f"PRAGMA clearnote_new.application_id = {int(app_id)}")
    finally:
        conn.execute("DETACH DATABASE clearnote_new")


def _export_and_close(conn: Any, target: Path, key: ProjectKey) -> None:
    """``export_copy`` of everything committed (the WAL checkpointed first), then close
    ``conn``; a failed copy leaves no partial ``target`` behind."""
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        export_copy(conn, target, key)
    except BaseException:
        conn.close()
        _remove(target)
        raise
    conn.close()


def encrypt_plain(source: Path, target: Path, passphrase: str) -> Path:
    """A new encrypted project ``target`` holding everything in the plain ``source`` (left
    as it is: the caller removes it once the new one is checked)."""
    if is_encrypted(source):
        raise ProjectError(f"{source.name}: already encrypted")
    key = new_key(passphrase)
    conn = dbapi().connect(str(source))  # no key: SQLCipher reads plain SQLite as is
    _export_and_close(conn, target, key)
    _private(target)
    connect(target, key).close()  # it opens with the new key
    return target


def rekey(path: Path, old: str, new: str) -> None:
    """Change an encrypted project's passphrase (and salt): a new file is written, checked,
    then moved over the old one; a wrong ``old`` passphrase leaves the file untouched. A
    kill at any moment leaves the old or the new project whole, and what lies beside it is
    removed by the next open (``engine.store.leftovers``)."""
    key = key_for(path, old)
    if key is None:
        raise ProjectError(f"{path.name}: not encrypted; use encrypt_plain")
    new_k = new_key(new)
    with claimed(temp_copy(path, "rekey")) as tmp:
        _export_and_close(connect(path, key), tmp, new_k)
        try:
            _private(tmp)
            connect(tmp, new_k).close()
            fsync_file(tmp)
            for suffix in ("-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            replace_and_wipe(tmp, path)  # the old file opens with the old passphrase
        except BaseException:
            _remove(tmp)
            raise


def _private(path: Path) -> None:
    os.chmod(path, 0o600)


def _remove(path: Path) -> None:
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), Path(f"{path}-journal")):
        p.unlink(missing_ok=True)
