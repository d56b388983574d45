"""What a killed ``project encrypt`` or ``rekey`` can leave beside a project, and the
recovery step that every open of the project runs first (``Database``).

Both operations write a complete new file under a temporary name, rename it over the
project, then zero the replaced file. The rename is atomic, so the project file is always
a whole project (the old one or the new one) and what lies beside it is never the only good
copy:

- ``.NAME.encrypt-XXXXXXXX`` / ``.NAME.rekey-XXXXXXXX`` (and their -journal/-wal/-shm): the
  new file, not yet renamed: the project is still the old one. Wiped and removed, unless a
  running operation holds it (an exclusive ``flock``, POSIX only).
- ``.NAME.replaced-XXXXXXXX``: a second name for the file being replaced
  (``engine.core.files.replace_and_wipe``), so that a kill between the rename and the wipe
  still leaves it findable: the same file as the project (the rename never happened) is
  only unlinked; a different one (the old plain or old-key file) is zeroed and unlinked.
- ``NAME.plain-backup``: the plain copy that ClearNote 0.x took before encrypting; the
  project (plain and untouched, or encrypted and checked) supersedes it.
- ``NAME.vN.bak`` migration backups that an encrypted project no longer opens with its own
  key (plain, or another salt, so another key): encrypt and rekey remove them on success.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path

from engine.core.files import in_use, overwrite_and_unlink
from engine.store import crypto

log = logging.getLogger(__name__)

JOURNALS = ("", "-journal", "-wal", "-shm")
TEMP_KINDS = ("encrypt", "rekey")  # engine.core.files.temp_copy


def _wipe_all(path: Path) -> None:
    for suffix in JOURNALS:
        overwrite_and_unlink(Path(f"{path}{suffix}"))


def _head(path: Path, n: int) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(n)
    except OSError:
        return b""


def recover(path: Path) -> int:
    """Wipe and remove what a killed encrypt or rekey of ``path`` left beside it; returns
    how many files it removed. Nothing is touched while the project file itself is missing
    or empty (a leftover could then be the only copy)."""
    path = Path(path)
    try:
        if path.stat().st_size == 0:
            return 0
        names = os.listdir(path.parent)
    except OSError:
        return 0
    name = re.escape(path.name)
    journal = r"(?:-journal|-wal|-shm)?"
    temp = re.compile(rf"(\.{name}\.(?:{'|'.join(TEMP_KINDS)})-[0-9a-f]{{8}}){journal}")
    replaced = re.compile(rf"\.{name}\.replaced-[0-9a-f]{{8}}")
    bak = re.compile(rf"({name}\.v\d+(?:\.\d+)?\.bak){journal}")
    encrypted = crypto.is_encrypted(path)
    salt = _head(path, crypto.SALT_BYTES)
    removed = 0
    for entry in sorted(names):
        leftover = path.with_name(entry)
        if found := temp.fullmatch(entry):
            leftover = path.with_name(found.group(1))
            if in_use(leftover):
                continue
        elif replaced.fullmatch(entry):
            if _same_file(leftover, path):  # the rename never happened: just a second name
                leftover.unlink(missing_ok=True)
                removed += 1
                continue
            if not encrypted:  # not one of ours to judge: leave it
                log.warning("a replaced copy of the project was left as it is")
                continue
        elif entry == f"{path.name}.plain-backup":
            pass
        elif found := bak.fullmatch(entry):
            leftover = path.with_name(found.group(1))
            if not encrypted or _head(leftover, crypto.SALT_BYTES) == salt:
                continue  # a migration backup under the project's own key: kept
        else:
            continue
        if any(Path(f"{leftover}{s}").exists() for s in JOURNALS):
            _wipe_all(leftover)
            removed += 1
    if removed:
        log.info("removed %d file(s) left by an interrupted encrypt or rekey", removed)
    return removed


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
