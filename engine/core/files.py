"""Files: content hashes, and writes through a temp file beside the target that is verified,
then renamed, so no half-written or unverified file is ever left under the final name."""

from __future__ import annotations

import contextlib
import hashlib
import os
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
            raise ExportError(f"{path}: cannot write ({exc.strerror or type(exc).__name__})") from exc
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
