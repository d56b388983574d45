"""Project options (the settings page), export formats and file names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from engine.core.domain import SurrogateMode
from engine.core.labels import Label
from engine.exporters.outputs import (  # re-exported: the project's formats are these
    DEFAULT_FORMATS,
    FORMAT_SUFFIXES,
    TEMP_PREFIX,
    check_formats,
    formats_for,
)
from engine.pipeline import PipelineConfig

__all__ = ["DEFAULT_FORMATS", "FORMAT_SUFFIXES", "SUFFIX", "TEMP_PREFIX", "ProjectSettings",
           "check_formats", "formats_for", "pipeline_settings"]

SUFFIX = ".clearnote"


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
