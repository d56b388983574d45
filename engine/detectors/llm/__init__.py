"""GGUF LLM detector (llama-cpp-python). llama_cpp itself is imported only when a model loads."""

from __future__ import annotations

from pathlib import Path

from engine.core.policies import Policy, get_policy
from engine.detectors.llm.detector import LlmDetector, LlmStats, parse_items
from engine.detectors.llm.prompt import SchemaBounds
from engine.runtimes import LlamaSettings, get_llama_runtime

__all__ = ["LlmDetector", "LlmStats", "SchemaBounds", "build_llm_detector", "parse_items",
           "settings_for"]


def settings_for(model_path: Path, **overrides: object) -> LlamaSettings:
    """Settings for a GGUF file, with the chat format read from its metadata."""
    from engine.modelstore import chat_format_for, read_gguf_info

    chat_format, _warnings = chat_format_for(read_gguf_info(Path(model_path)))
    values: dict[str, object] = {"model_path": Path(model_path), "chat_format": chat_format}
    values.update(overrides)
    return LlamaSettings(**values)  # type: ignore[arg-type]


def build_llm_detector(model_path: Path, *, policy: Policy | str,
                       **settings: object) -> LlmDetector:
    pol = get_policy(policy) if isinstance(policy, str) else policy
    runtime = get_llama_runtime(settings_for(Path(model_path), **settings))
    return LlmDetector(runtime, policy=pol)
