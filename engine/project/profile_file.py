"""Profile files: a project's profile carried to another run (``--profile F`` on detect, deid,
batch and spark), encrypted with a passphrase the way projects are.

A profile file is a one-table SQLCipher database (engine.store.crypto: scrypt key from the
passphrase and the file's own salt, AES-256 pages with an HMAC each) with its own
application id. SQLCipher encrypts every page before it is written, the temporary file and
its journal included, so no plain copy of the profile (which holds names) ever reaches the
disk; the file is renamed into place only once it reads back.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from engine.core.errors import InputError, WrongPassphraseError
from engine.core.files import create_private_file
from engine.profile.model import Profile
from engine.store import crypto

PROFILE_APPLICATION_ID = 0x434C4E50  # "CLNP"; projects are "CLNT"
SUFFIX = ".clearnote-profile"


def write_profile_file(profile: Profile, path: str | Path, passphrase: str) -> Path:
    """Write ``profile`` to ``path`` (replacing it), encrypted with ``passphrase``."""
    path = Path(path)
    if path.is_dir():
        raise InputError(path, "is a folder; give a file name for the profile")
    key = crypto.new_key(passphrase)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    body = profile.to_bytes()
    try:
        create_private_file(tmp)  # owner-only before SQLCipher writes a byte
        conn = crypto.connect(tmp, key)
        try:
            conn.execute("CREATE TABLE profile (body BLOB NOT NULL)")
            conn.execute("INSERT INTO profile (body) VALUES (?)", (body,))
            conn.execute(f"PRAGMA application_id = {PROFILE_APPLICATION_ID}")
            conn.commit()
        finally:
            conn.close()
        if _read(tmp, key) != body:
            raise InputError(path, "the profile file did not read back; nothing was written")
        os.replace(tmp, path)
    finally:
        for leftover in (tmp, Path(f"{tmp}-journal")):
            leftover.unlink(missing_ok=True)
    return path


def read_profile_file(path: str | Path, passphrase: str) -> Profile:
    """The profile in ``path``; a wrong passphrase raises ``WrongPassphraseError``."""
    path = Path(path)
    if not path.is_file():
        raise InputError(path, "no such profile file")
    if not crypto.is_encrypted(path):
        raise InputError(path, "not an encrypted ClearNote profile file")
    with open(path, "rb") as fh:
        salt = fh.read(crypto.SALT_BYTES)
    try:
        body = _read(path, crypto.derive(passphrase, salt))
    except WrongPassphraseError:
        raise WrongPassphraseError(f"{path.name}: wrong passphrase for this profile file "
                                   "(or not a ClearNote profile)") from None
    return Profile.from_bytes(body, where=str(path))


def _read(path: Path, key: crypto.ProjectKey) -> bytes:
    conn = crypto.connect(path, key)
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        if app_id != PROFILE_APPLICATION_ID:
            raise InputError(path, "not a ClearNote profile file")
        row = conn.execute("SELECT body FROM profile").fetchone()
    except crypto.dbapi().DatabaseError:
        raise InputError(path, "not a ClearNote profile file") from None
    finally:
        conn.close()
    if row is None:
        raise InputError(path, "the profile file is empty")
    return bytes(row[0])
