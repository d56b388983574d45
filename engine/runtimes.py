"""Model runtimes: load a GGUF model once, share it, serialise calls, close on exit;
import onnxruntime with its telemetry switched off (``onnxruntime()``).

llama_cpp is imported only inside ``_load_llama`` (heavy, optional extra ``llm``). Every
other part of ClearNote talks to a ``LlamaRuntime``; tests inject a fake model object with
the same ``create_chat_completion`` / ``reset`` surface through ``LlamaRuntime.from_model``.
"""

from __future__ import annotations

import atexit
import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, cast

from engine.core.errors import CancelledError, ModelError

log = logging.getLogger(__name__)

Message = dict[str, str]

_ORT_LOCK = threading.Lock()


def onnxruntime() -> Any:
    """The onnxruntime module, imported here only: its telemetry events are disabled before
    any InferenceSession exists (ORT_DISABLE_TELEMETRY, set by ``engine/__init__``, covers
    the builds that read the environment; this call covers the rest)."""
    import onnxruntime as ort

    with _ORT_LOCK:
        if not getattr(ort, "_clearnote_telemetry_off", False):
            ort.disable_telemetry_events()
            ort._clearnote_telemetry_off = True  # noqa: SLF001 - once per process
    return ort


class ChatModel(Protocol):
    """The part of ``llama_cpp.Llama`` ClearNote uses (and what a test fake implements)."""

    def create_chat_completion(self, **kwargs: Any) -> Any: ...

    def reset(self) -> None: ...


@dataclass(frozen=True)
class LlamaSettings:
    model_path: Path
    n_ctx: int = 4096
    n_threads: int | None = None  # None: llama.cpp's default (physical cores)
    # "auto": every layer on the GPU when this llama.cpp build can offload, else CPU (reported).
    n_gpu_layers: int | Literal["auto"] = "auto"
    chat_format: str | None = None  # None: the chat template embedded in the GGUF
    seed: int = 0
    # Tokens (prompt + completion) one document may spend; None: unlimited.
    token_budget: int | None = 200_000


@dataclass(frozen=True)
class DeviceInfo:
    """Where the model runs, stated to the user (never a silent CPU fallback)."""

    gpu_offload: bool
    n_gpu_layers: int
    description: str


def gpu_offload_supported() -> bool:
    """Does the installed llama.cpp build support GPU offload (CUDA, Metal, Vulkan ...)?"""
    try:
        import llama_cpp
    except ImportError as exc:
        raise ModelError("llama-cpp-python is not installed (pip install 'clearnote[llm]')"
                         ) from exc
    return bool(llama_cpp.llama_supports_gpu_offload())


def resolve_device(n_gpu_layers: int | Literal["auto"], *, supported: bool) -> DeviceInfo:
    if n_gpu_layers == "auto":
        if supported:
            return DeviceInfo(True, -1, "GPU: all layers offloaded")
        return DeviceInfo(False, 0, "CPU: this llama.cpp build has no GPU offload support")
    if n_gpu_layers != 0 and not supported:
        # Asked for the GPU explicitly and cannot have it: fail rather than silently use CPU.
        raise ModelError("GPU offload requested but this llama.cpp build has no GPU support "
                         "(reinstall llama-cpp-python with CMAKE_ARGS=-DGGML_CUDA=on)")
    if n_gpu_layers == 0:
        return DeviceInfo(False, 0, "CPU: GPU offload disabled by configuration")
    layers = "all layers" if n_gpu_layers < 0 else f"{n_gpu_layers} layers"
    return DeviceInfo(True, n_gpu_layers, f"GPU: {layers} offloaded")


@dataclass
class TokenBudget:
    """Tokens left for one document; exceeding it stops the work between chunks."""

    limit: int | None
    used: int = 0

    def spend(self, tokens: int) -> None:
        self.used += tokens

    @property
    def exhausted(self) -> bool:
        return self.limit is not None and self.used >= self.limit


class BudgetExceededError(ModelError):
    pass


@dataclass(frozen=True)
class Completion:
    text: str
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class LlamaRuntime:
    """One resident chat model. Thread-safe: a lock serialises every call."""

    def __init__(self, settings: LlamaSettings, *,
                 loader: Callable[[LlamaSettings], tuple[ChatModel, DeviceInfo]] | None = None,
                 grammar_factory: Callable[[str], Any] | None = None,
                 name: str | None = None) -> None:
        self.settings = settings
        self.name = name or model_name_from_path(settings.model_path)
        self._loader = loader or _load_llama
        self._grammar_factory = grammar_factory
        self._model: ChatModel | None = None
        self._device: DeviceInfo | None = None
        self._lock = threading.RLock()
        self.calls = 0  # completed calls, for tests and stats

    @classmethod
    def from_model(cls, model: ChatModel, *, name: str = "fake",
                   device: DeviceInfo | None = None, token_budget: int | None = None,
                   ) -> LlamaRuntime:
        """Wrap an already-loaded model (tests inject a fake here). Grammars pass as GBNF."""
        dev = device or DeviceInfo(False, 0, "CPU: injected model")
        settings = LlamaSettings(model_path=Path(f"{name}.gguf"), token_budget=token_budget)
        return cls(settings, loader=lambda _s: (model, dev), grammar_factory=lambda g: g,
                   name=name)

    # -- lifecycle -------------------------------------------------------------------------
    def load(self) -> DeviceInfo:
        with self._lock:
            if self._model is None:
                self._model, self._device = self._loader(self.settings)
                log.info("model %s loaded on %s", self.name, self._device.description)
            assert self._device is not None
            return self._device

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def device(self) -> DeviceInfo:
        return self.load()

    def reset(self) -> None:
        """Forget the KV cache so nothing of one document leaks into the next."""
        with self._lock:
            if self._model is not None:
                self._model.reset()

    def close(self) -> None:
        with self._lock:
            model, self._model = self._model, None
            closer = getattr(model, "close", None)
            if callable(closer):
                closer()

    def new_budget(self) -> TokenBudget:
        return TokenBudget(self.settings.token_budget)

    # -- calls -----------------------------------------------------------------------------
    def chat(self, messages: Sequence[Message], *, max_tokens: int,
             json_schema: dict[str, Any] | None = None, grammar: str | None = None,
             budget: TokenBudget | None = None) -> Completion:
        """One deterministic chat completion, constrained by a JSON schema or a GBNF grammar."""
        if budget is not None and budget.exhausted:
            raise BudgetExceededError("token budget for this document is spent")
        kwargs: dict[str, Any] = {"messages": list(messages), "max_tokens": max_tokens,
                                  "temperature": 0.0, "top_k": 1, "seed": self.settings.seed}
        if json_schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
        if grammar is not None:
            kwargs["grammar"] = self._make_grammar(grammar)
        with self._lock:
            model = self._model
            if model is None:
                self.load()
                model = self._model
            assert model is not None
            try:
                raw = model.create_chat_completion(**kwargs)
            except (CancelledError, ModelError):
                raise
            except Exception as exc:  # third-party failure, translated at the boundary
                raise ModelError(f"model {self.name} failed: {type(exc).__name__}") from exc
            self.calls += 1
        completion = _parse_completion(raw)
        if budget is not None:
            budget.spend(completion.total_tokens)
        return completion

    def _make_grammar(self, gbnf: str) -> Any:
        if self._grammar_factory is not None:
            return self._grammar_factory(gbnf)
        from llama_cpp import LlamaGrammar

        return LlamaGrammar.from_string(gbnf, verbose=False)


def _parse_completion(raw: Any) -> Completion:
    try:
        choice = raw["choices"][0]
        text = choice["message"]["content"] or ""
        usage = raw.get("usage") or {}
        return Completion(text=text, prompt_tokens=int(usage.get("prompt_tokens", 0)),
                          completion_tokens=int(usage.get("completion_tokens", 0)),
                          finish_reason=choice.get("finish_reason"))
    except (KeyError, IndexError, TypeError) as exc:
        raise ModelError("model returned a malformed completion") from exc


def model_name_from_path(path: Path) -> str:
    stem = Path(path).name
    for suffix in (".gguf", ".onnx"):
        if stem.lower().endswith(suffix):
            stem = stem[: -len(suffix)]
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in stem).lower()


def _load_llama(settings: LlamaSettings) -> tuple[ChatModel, DeviceInfo]:
    path = Path(settings.model_path)
    if not path.is_file():
        raise ModelError(f"model file not found: {path}")
    device = resolve_device(settings.n_gpu_layers, supported=gpu_offload_supported())
    from llama_cpp import Llama

    kwargs: dict[str, Any] = {
        "model_path": str(path), "n_ctx": settings.n_ctx, "n_gpu_layers": device.n_gpu_layers,
        "seed": settings.seed, "verbose": False,
    }
    if settings.n_threads:
        kwargs["n_threads"] = settings.n_threads
    if settings.chat_format:
        kwargs["chat_format"] = settings.chat_format
    try:
        model = Llama(**kwargs)
    except Exception as exc:
        raise ModelError(f"could not load model {path.name}: {type(exc).__name__}") from exc
    # Llama's create_chat_completion spells out every keyword; ChatModel is the subset used.
    return cast(ChatModel, model), device


# -- the one resident model -------------------------------------------------------------------
_RESIDENT: dict[str, LlamaRuntime] = {}
_RESIDENT_LOCK = threading.Lock()


def get_llama_runtime(settings: LlamaSettings) -> LlamaRuntime:
    """The shared runtime for ``settings``; loading another model closes the previous one."""
    key = f"{Path(settings.model_path).resolve()}|{settings}"
    with _RESIDENT_LOCK:
        runtime = _RESIDENT.get(key)
        if runtime is None:
            for other in _RESIDENT.values():
                other.close()  # one resident model: memory matters on a desktop
            _RESIDENT.clear()
            runtime = _RESIDENT[key] = LlamaRuntime(settings)
        return runtime


def close_all() -> None:
    with _RESIDENT_LOCK:
        for runtime in _RESIDENT.values():
            runtime.close()
        _RESIDENT.clear()


atexit.register(close_all)
