"""Which inputs exist and are supported: folders expanded to the files ClearNote reads, and
the rule that outputs never land among the inputs."""

from __future__ import annotations

from pathlib import Path

from engine.core.errors import UsageError

SUPPORTED_SUFFIXES = frozenset({
    ".txt", ".text", ".md", ".csv", ".tsv", ".rtf", ".pdf", ".png", ".jpg", ".jpeg",
    ".tif", ".tiff", ".bmp", ".docx",
})
# Media types with pages, which also get a redacted PDF.
PAGE_MEDIA = ("application/pdf", "image/")


def has_pages(media_type: str) -> bool:
    return media_type.startswith(PAGE_MEDIA)


def collect_inputs(paths: list[Path]) -> list[Path]:
    """Files named, and supported files under folders named (hidden ones left out), in
    order, each once."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*")
                            if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES
                            and not p.name.startswith("."))
        elif path.is_file():
            files.append(path)
        else:
            raise UsageError(f"{path}: no such file or folder")
    return list(dict.fromkeys(p.resolve() for p in files))


def check_output_dir(inputs: list[Path], output_dir: Path) -> None:
    """Outputs never land among the inputs: not inside an input folder (a re-run would read
    them back in), not in the folder of an input file."""
    out = output_dir.resolve()
    for path in inputs:
        if path.is_dir():
            folder = path.resolve()
            if out == folder or folder in out.parents:
                raise UsageError(f"{output_dir}: the output folder must not be inside an "
                                 f"input folder ({path})")
        elif out == path.resolve().parent:
            raise UsageError(f"{output_dir}: the output folder must not be the folder of an "
                             f"input file ({path})")
