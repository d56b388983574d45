"""The models behind a project's detectors, for the report: each model's name and version,
its files' sha256 and whether the files on this machine still match them.

The NER model is described by its ``manifest.json`` (sha256 per file, checked now); a GGUF
LLM by the user's model registry (``engine.modelstore``: sha256 recorded when it was added),
or hashed now when it was never registered. Files are named as the manifest names them
(``model.onnx``), never by path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from engine.core.context import RunContext
from engine.core.errors import ClearNoteError
from engine.core.files import file_sha256
from engine.detectors.registry import DEFAULT_NER_MODEL
from engine.modelstore import list_models
from engine.paths import models_dir
from engine.project.settings import ProjectSettings

_VERSIONED = re.compile(r"^(?P<id>.+)@(?P<version>[^@]+)$")


@dataclass(frozen=True)
class ModelFile:
    name: str  # as the manifest names it, or the model file's own suffix ("model.gguf")
    sha256: str
    state: str  # in words: "matches the manifest", "differs from the manifest", ...


@dataclass(frozen=True)
class ModelEntry:
    kind: str  # "NER (ONNX)" | "LLM (GGUF)"
    name: str
    version: str
    files: tuple[ModelFile, ...]
    used_versions: tuple[str, ...]  # versions the project's detection runs recorded
    note: str = ""


def model_entries(settings: ProjectSettings, detectors: tuple[str, ...],
                  ctx: RunContext) -> tuple[ModelEntry, ...]:
    """The NER and LLM models of this project's settings and recorded detector runs."""
    used: dict[str, list[str]] = {}
    for qualified in detectors:
        match = _VERSIONED.match(qualified)
        if match:
            used.setdefault(match["id"], []).append(match["version"])
    entries = []
    ner = _ner_entry(settings, used, ctx)
    if ner is not None:
        entries.append(ner)
    llm = _llm_entry(settings, used, ctx)
    if llm is not None:
        entries.append(llm)
    return tuple(entries)


def _ner_entry(settings: ProjectSettings, used: dict[str, list[str]],
               ctx: RunContext) -> ModelEntry | None:
    # engine.detectors.ner loads the ONNX detector (numpy): only when a report is made
    from engine.detectors.ner.manifest import MANIFEST, load_manifest

    model_dir = Path(settings.ner_model) if settings.ner_model else \
        models_dir() / DEFAULT_NER_MODEL
    recorded = sorted(v for d, vs in used.items() if d.startswith("ner.") for v in vs)
    if not (model_dir / MANIFEST).is_file():
        if not recorded and settings.ner is not True:
            return None
        return ModelEntry("NER (ONNX)", DEFAULT_NER_MODEL if not settings.ner_model
                          else "user model", "?", (), tuple(recorded),
                          note="the model is not installed on this machine")
    try:
        manifest = load_manifest(model_dir, verify=False)
    except ClearNoteError:
        return ModelEntry("NER (ONNX)", "unreadable manifest", "?", (), tuple(recorded),
                          note="the model's manifest could not be read")
    files = []
    for rel, digest in sorted(manifest.files.items()):
        ctx.check()
        path = model_dir / rel
        if not path.is_file():
            state = "missing"
        elif file_sha256(path, check=ctx.check) == digest:
            state = "matches the manifest"
        else:
            state = "DIFFERS from the manifest"
        files.append(ModelFile(rel, digest, state))
    mine = sorted(used.get(f"ner.{manifest.name}", []))
    note = ""
    if mine and any(v != str(manifest.version) for v in mine):
        note = (f"documents were detected with version(s) {', '.join(mine)}; "
                f"version {manifest.version} is installed")
    elif not mine:
        note = "no detection run of this project used it"
    return ModelEntry("NER (ONNX)", manifest.name, str(manifest.version), tuple(files),
                      tuple(mine), note)


def _llm_entry(settings: ProjectSettings, used: dict[str, list[str]],
               ctx: RunContext) -> ModelEntry | None:
    recorded = {d: vs for d, vs in used.items() if d.startswith("llm.")}
    versions = tuple(sorted(v for vs in recorded.values() for v in vs))
    if not settings.llm_model:
        if not recorded:
            return None
        return ModelEntry("LLM (GGUF)", ", ".join(sorted(d[4:] for d in recorded)), "?", (),
                          versions, note="the project's settings no longer name this model")
    path = Path(settings.llm_model).expanduser()
    try:
        registered = next((r for r in list_models()
                           if Path(r.path).resolve() == path.resolve()), None)
    except ClearNoteError:  # an unreadable registry: hash the file instead
        registered = None
    name = registered.name if registered is not None else "unregistered GGUF model"
    if not path.is_file():
        files: tuple[ModelFile, ...] = (
            (ModelFile("model.gguf", registered.sha256, "missing"),) if registered else ())
        return ModelEntry("LLM (GGUF)", name, "", files, versions,
                          note="the model file is not on this machine")
    actual = file_sha256(path, check=ctx.check)
    if registered is None:
        state = "hashed now (not in the model registry)"
        digest = actual
    else:
        digest = registered.sha256
        state = ("matches the model registry" if actual == registered.sha256
                 else "DIFFERS from the model registry")
    return ModelEntry("LLM (GGUF)", name, "", (ModelFile("model.gguf", digest, state),),
                      versions)
