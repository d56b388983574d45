"""Write to a temp file beside the target, verify, then rename: no half-written or
unverified output is ever left under the final name."""

from __future__ import annotations

import contextlib
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
