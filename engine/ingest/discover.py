"""Which inputs exist and are supported: folders expanded to the files ClearNote reads, and
the rule that outputs never land among the inputs."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.errors import UsageError
from engine.core.files import os_reason, short_name

SUPPORTED_SUFFIXES = frozenset({
    ".txt", ".text", ".md", ".csv", ".tsv", ".rtf", ".pdf", ".png", ".jpg", ".jpeg",
    ".tif", ".tiff", ".bmp", ".docx",
    ".parquet", ".xlsx", ".jsonl",  # tables (engine.tables); .csv and .tsv are tables too
})
# Media types with pages, which also get a redacted PDF.
PAGE_MEDIA = ("application/pdf", "image/")


def has_pages(media_type: str) -> bool:
    return media_type.startswith(PAGE_MEDIA)


@dataclass(frozen=True)
class Skipped:
    """An input that is not read, and why (a problem, never the path)."""

    path: Path
    reason: str


@dataclass
class Inputs:
    files: list[Path] = field(default_factory=list)  # resolved, in order, each once
    skipped: list[Skipped] = field(default_factory=list)


def discover_inputs(paths: list[Path]) -> Inputs:
    """Files named, and supported files under folders named (hidden ones left out), in
    order, each once; every input that cannot be read as a regular file (a symbolic link
    loop, a dangling link, a FIFO or device, an unreadable folder, the same file reached
    twice) is in ``skipped`` with the reason, so a run can report it and go on. A name that
    does not exist at all is a usage error (a typo on the command line)."""
    found = Inputs()
    kept: dict[Path, Path] = {}  # resolved -> as found
    visited: set[tuple[int, int]] = set()
    for path in paths:
        kind, problem = _classify(path)
        if kind == "missing":
            raise UsageError(f"{short_name(path)}: no such file or folder")
        if kind == "dir":
            _walk(path, found, kept, visited, ())
        elif kind == "file":
            _keep(path, found, kept)
        else:
            found.skipped.append(Skipped(Path(os.path.abspath(path)), problem))
    return found


def _keep(path: Path, found: Inputs, kept: dict[Path, Path]) -> None:
    real = path.resolve()
    if real in kept:
        if kept[real] != path:  # the same name twice is not worth a line
            found.skipped.append(Skipped(Path(os.path.abspath(path)),
                                         f"same file as {short_name(kept[real])}"))
        return
    kept[real] = path
    found.files.append(real)


def _walk(folder: Path, found: Inputs, kept: dict[Path, Path],
          visited: set[tuple[int, int]], ancestors: tuple[tuple[int, int], ...]) -> None:
    try:
        st = folder.stat()
        key = (st.st_dev, st.st_ino)
        with os.scandir(folder) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        found.skipped.append(Skipped(Path(os.path.abspath(folder)),
                                     f"cannot read folder ({os_reason(exc)})"))
        return
    if key in ancestors:
        found.skipped.append(Skipped(Path(os.path.abspath(folder)), "symbolic link loop "
                                     "(links to a folder that contains it)"))
        return
    if key in visited:
        return  # reached again through a link: its files are already in
    visited.add(key)
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        kind, problem = _classify(path)
        if kind == "dir":
            _walk(path, found, kept, visited, (*ancestors, key))
        elif path.suffix.lower() not in SUPPORTED_SUFFIXES and not entry.is_symlink():
            continue  # not a document ClearNote reads
        elif kind == "file":
            if path.suffix.lower() in SUPPORTED_SUFFIXES:
                _keep(path, found, kept)
        else:
            found.skipped.append(Skipped(Path(os.path.abspath(path)), problem))


def _classify(path: Path) -> tuple[str, str]:
    """("file" | "dir" | "missing" | "bad", problem). Never opens the file: opening a FIFO
    would block the run until something writes to it."""
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "bad", "symbolic link loop"
        if exc.errno == errno.ENOENT:
            if os.path.islink(path):
                return "bad", "dangling symbolic link (its target does not exist)"
            return "missing", "no such file or folder"
        return "bad", f"cannot read ({os_reason(exc)})"
    if stat.S_ISDIR(st.st_mode):
        return "dir", ""
    if stat.S_ISREG(st.st_mode):
        return "file", ""
    if stat.S_ISFIFO(st.st_mode):
        return "bad", "a FIFO (named pipe), not a regular file"
    if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
        return "bad", "a device, not a regular file"
    return "bad", "not a regular file"


def check_output_dir(inputs: list[Path], output_dir: Path) -> None:
    """Outputs never land among the inputs: not inside an input folder (a re-run would read
    them back in), not in the folder of an input file."""
    out = output_dir.resolve()
    for path in inputs:
        if path.is_dir():
            folder = path.resolve()
            if out == folder or folder in out.parents:
                raise UsageError(f"{output_dir}: the output folder must not be inside an "
                                 f"input folder ({short_name(path)})")
        elif out == path.resolve().parent:
            raise UsageError(f"{output_dir}: the output folder must not be the folder of an "
                             f"input file ({short_name(path)})")
