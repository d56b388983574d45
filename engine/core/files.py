"""Files: content hashes, and writes through a temp file beside the target that is verified,
then renamed, so no half-written or unverified file is ever left under the final name."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from engine.core.errors import ExportError


@contextlib.contextmanager
def atomic_target(path: Path) -> Iterator[Path]:
    """Yields a temp path in ``path``'s folder; on normal exit it replaces ``path``; on any
    exception the temp file is deleted and the exception propagates."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=".clearnote-", suffix=".tmp")
    except OSError as exc:
        raise ExportError(f"{path}: cannot write ({exc.strerror or type(exc).__name__})") from exc
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_atomic(path: Path, data: bytes, verify: Callable[[Path], None] | None = None) -> Path:
    with atomic_target(path) as tmp:
        try:
            tmp.write_bytes(data)
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise ExportError(f"{path}: cannot write ({reason})") from exc
        if verify is not None:
            verify(tmp)
    return Path(path)


def write_text_atomic(path: Path, text: str) -> Path:
    """UTF-8 text, newlines as given."""
    return write_atomic(path, text.encode("utf-8"))


def file_sha256(path: Path, *, chunk: int = 1 << 20,
                check: Callable[[], None] | None = None) -> str:
    """Hex sha256 of a file's bytes; ``check`` (a ``CancelToken``-style callable) runs
    before each block, so hashing a multi-GB model can be cancelled."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        for block in iter(lambda: handle.read(chunk), b""):
            if check is not None:
                check()
            digest.update(block)
    return digest.hexdigest()


def path_id(path: Path) -> str:
    """A stable id for an input that could not be read (so it has no content hash): a
    prefix of the sha256 of its absolute path, so a report can name it without the path."""
    return hashlib.sha256(os.fsencode(os.path.abspath(path))).hexdigest()[:16]


def short_name(path: Path, limit: int = 32) -> str:
    """The file's own name, shortened in the middle past ``limit`` characters: enough for a
    person to find the file, without the folders (which often name the patient)."""
    name = Path(path).name or str(path)
    if len(name) <= limit:
        return name
    keep = (limit - 1) // 2
    return f"{name[:keep]}\u2026{name[-keep:]}"


def os_reason(exc: OSError) -> str:
    """An OSError as a short problem, without the file name Python puts in its message."""
    return (exc.strerror or type(exc).__name__).lower()


def fsync_file(path: Path) -> None:
    """Flush a file's data to disk; before a rename, so that a power cut never leaves an
    empty file under the final name."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# Owner-only modes for everything ClearNote creates: projects (and SQLite's -wal/-shm,
# which take the main file's mode), backups, key files, exports and staging folders.
PRIVATE_FILE, PRIVATE_DIR = 0o600, 0o700


def private_dir(path: Path) -> Path:
    """``mkdir -p`` with owner-only folders for the ones created here (an existing folder
    the user chose is left as it is)."""
    path = Path(path)
    missing = []
    for p in (path, *path.parents):
        if p.exists():
            break
        missing.append(p)
    for p in reversed(missing):
        with contextlib.suppress(FileExistsError):
            p.mkdir(mode=PRIVATE_DIR)
            os.chmod(p, PRIVATE_DIR)  # mkdir's mode is filtered by the umask
    return path


def create_private_file(path: Path) -> bool:
    """Create an empty owner-only file where none is, before SQLite (or anyone) creates it
    with the umask's mode; False when it already existed."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return False
    os.close(fd)
    return True


def overwrite_and_unlink(path: Path) -> None:
    """Overwrite a file's bytes with zeros (fsynced), then unlink it: a removed plain copy
    of a project is not left readable in free blocks. On SSDs and copy-on-write file
    systems the old blocks may survive anyway; full-disk encryption covers that case."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY)
    except FileNotFoundError:
        return
    try:
        wipe_fd(fd)
    finally:
        os.close(fd)
    path.unlink(missing_ok=True)


def wipe_fd(fd: int, *, block: int = 1 << 20) -> None:
    """Zero the whole file behind ``fd`` in place and fsync it."""
    size = os.fstat(fd).st_size
    zeros = bytes(block)
    os.lseek(fd, 0, os.SEEK_SET)
    left = size
    while left > 0:
        left -= os.write(fd, zeros[:min(block, left)])
    os.fsync(fd)


def replace_and_wipe(new: Path, path: Path) -> None:
    """Rename ``new`` over ``path``, then zero the replaced file's blocks (it held plain
    text or opened with an old key). The replaced file keeps a second name,
    ``.NAME.replaced-XXXXXXXX``, from just before the rename until it is zeroed: a process
    killed in between leaves it where the next open of the project finds and wipes it
    (``engine.store.leftovers``), instead of unlinked blocks nobody can reach."""
    new, path = Path(new), Path(path)
    held: Path | None = path.with_name(f".{path.name}.replaced-{secrets.token_hex(4)}")
    fd = os.open(path, os.O_RDWR)
    try:
        try:
            os.link(path, held)  # type: ignore[arg-type]
        except OSError:  # no hard links on this file system: the open handle still wipes
            held = None
        fsync_dir(path.parent)
        os.replace(new, path)
        fsync_dir(path.parent)
        wipe_fd(fd)
    finally:
        os.close(fd)
    if held is not None:
        held.unlink(missing_ok=True)


def fsync_dir(folder: Path) -> None:
    """Make renames and links in ``folder`` durable (POSIX; a no-op where folders cannot be
    opened, as on Windows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def temp_copy(path: Path, kind: str) -> Path:
    """A fresh temporary name beside ``path`` for ``kind`` (``encrypt`` or ``rekey``)."""
    return path.with_name(f".{path.name}.{kind}-{secrets.token_hex(4)}")


@contextlib.contextmanager
def claimed(path: Path) -> Iterator[Path]:
    """Create ``path`` empty and owner-only and hold an exclusive lock on it while the
    operation writes it, so that a recovery in another process leaves it alone."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        _lock(fd)
        yield path
    finally:
        os.close(fd)  # releases the lock


def _lock(fd: int) -> bool:
    """An exclusive, non-blocking lock on ``fd``; False when another holder has it (always
    True where the OS has no ``flock``: there a recovery trusts that none runs)."""
    try:
        import fcntl
    except ImportError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def in_use(path: Path) -> bool:
    """Whether another open file holds ``claimed``'s lock on ``path``."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        return not _lock(fd)
    finally:
        os.close(fd)


def keyed_document_id(secret: bytes, sha256_hex: str) -> str:
    """A document id that links nothing: HMAC-SHA256 of the file's hash under the project
    (or run) secret, 16 hex digits. Stable within a project, so a resumed batch writes the
    same names, but whoever holds an original cannot compute which output it became."""
    mac = hmac.new(secret, b"clearnote-document-id\x1f" + sha256_hex.encode("ascii"),
                   hashlib.sha256)
    return mac.hexdigest()[:16]
