"""Project options (the settings page), export formats and file names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from engine.core.domain import Document, SurrogateMode
from engine.core.errors import UsageError
from engine.core.labels import Label
from engine.ingest.discover import has_pages
from engine.pipeline import PipelineConfig

SUFFIX = ".clearnote"
TEMP_PREFIX = ".cn-tmp-"
# Output file name per format, after the stable document id (never the source name).
FORMAT_SUFFIXES: dict[str, str] = {"txt": ".deid.txt", "json": ".json",
                                   "pdf": ".redacted.pdf"}
DEFAULT_FORMATS = ("txt", "json", "pdf")  # "pdf" applies to PDF and image documents only


@dataclass(frozen=True)
class ProjectSettings:
    """Project options shown in the settings page. The secret is not among them."""

    policy: str = "strict"
    mode: SurrogateMode = SurrogateMode.SURROGATE
    ner: bool | str = "auto"
    ner_model: str | None = None
    llm_model: str | None = None
    gazetteers: bool = True
    allowlist: bool = True
    overlap: str | None = None
    user_dictionary: tuple[tuple[str, str], ...] = ()
    export_formats: tuple[str, ...] = DEFAULT_FORMATS
    # Recorded from detection runs: "id@version" of each detector, model names → versions.
    detectors: tuple[str, ...] = ()
    model_versions: tuple[tuple[str, str], ...] = ()

    def pipeline_config(self) -> PipelineConfig:
        kw: dict[str, Any] = dict(
            policy=self.policy, ner=self.ner, gazetteers=self.gazetteers,
            allowlist=self.allowlist,
            ner_model=Path(self.ner_model) if self.ner_model else None,
            llm_model=Path(self.llm_model) if self.llm_model else None,
            user_dictionary=tuple((t, Label(lbl)) for t, lbl in self.user_dictionary))
        if self.overlap:
            kw["overlap"] = self.overlap
        return PipelineConfig(**kw)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["mode"] = self.mode.value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ProjectSettings:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in data.items() if k in known}
        if "mode" in kw:
            kw["mode"] = SurrogateMode(kw["mode"])
        for key in ("user_dictionary", "model_versions"):
            if key in kw:
                kw[key] = tuple(tuple(x) for x in kw[key])
        for key in ("export_formats", "detectors"):
            if key in kw:
                kw[key] = tuple(kw[key])
        return cls(**kw)


def pipeline_settings(config: Any) -> dict[str, Any]:
    """ProjectSettings fields taken from a PipelineConfig."""
    return dict(
        policy=config.policy, ner=config.ner, gazetteers=config.gazetteers,
        allowlist=config.allowlist, overlap=config.overlap,
        ner_model=str(config.ner_model) if config.ner_model else None,
        llm_model=str(config.llm_model) if config.llm_model else None,
        user_dictionary=tuple((t, Label(lbl).value) for t, lbl in config.user_dictionary))


def check_formats(formats: Iterable[str]) -> None:
    unknown = sorted(set(formats) - set(FORMAT_SUFFIXES))
    if unknown:
        raise UsageError(f"unknown export format(s): {', '.join(unknown)} "
                         f"(known: {', '.join(FORMAT_SUFFIXES)})")


def formats_for(doc: Document, formats: tuple[str, ...]) -> list[str]:
    return [f for f in formats if f != "pdf" or has_pages(doc.media_type)]
