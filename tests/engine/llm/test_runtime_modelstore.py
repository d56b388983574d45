from __future__ import annotations

import struct
from pathlib import Path

import pytest

from engine import modelstore
from engine.core.errors import ModelError, ModelIntegrityError, UsageError
from engine.runtimes import LlamaRuntime, resolve_device

from .fakes import FakeChatModel, entities


def test_auto_device_uses_gpu_when_supported_and_says_so() -> None:
    gpu = resolve_device("auto", supported=True)
    assert gpu.gpu_offload and gpu.n_gpu_layers == -1 and "GPU" in gpu.description
    cpu = resolve_device("auto", supported=False)
    assert not cpu.gpu_offload and "no GPU offload" in cpu.description


def test_explicit_gpu_without_support_is_an_error_not_a_silent_fallback() -> None:
    with pytest.raises(ModelError):
        resolve_device(20, supported=False)
    assert resolve_device(0, supported=True).n_gpu_layers == 0


def test_runtime_loads_lazily_once_and_closes() -> None:
    loads: list[int] = []
    model = FakeChatModel(entities())

    def loader(_settings: object) -> tuple[FakeChatModel, object]:
        loads.append(1)
        return model, resolve_device("auto", supported=False)

    settings = LlamaRuntime.from_model(model).settings
    runtime = LlamaRuntime(settings, loader=loader,  # type: ignore[arg-type]
                           grammar_factory=lambda g: g)
    assert not runtime.loaded and loads == []
    runtime.chat([{"role": "user", "content": "x"}], max_tokens=4)
    runtime.chat([{"role": "user", "content": "x"}], max_tokens=4, grammar='root ::= "Yes"')
    assert loads == [1] and model.calls[1]["grammar"] == 'root ::= "Yes"'
    runtime.close()
    assert not runtime.loaded


def _gguf(path: Path, kv: dict[str, object]) -> Path:
    """A minimal GGUF v3 header with string/uint32/array values (no tensors)."""
    def s(text: str) -> bytes:
        raw = text.encode()
        return struct.pack("<Q", len(raw)) + raw

    body = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kv))
    for key, value in kv.items():
        body += s(key)
        if isinstance(value, str):
            body += struct.pack("<I", 8) + s(value)
        elif isinstance(value, int):
            body += struct.pack("<II", 4, value)
        else:  # list of strings (like tokenizer.ggml.tokens)
            items = b"".join(s(v) for v in value)  # type: ignore[union-attr]
            body += struct.pack("<IIQ", 9, 8, len(value)) + items  # type: ignore[arg-type]
    path.write_bytes(body + b"\0" * 64)
    return path


def test_gguf_metadata_and_chat_format(tmp_path: Path) -> None:
    with_tpl = _gguf(tmp_path / "a.gguf", {
        "general.architecture": "llama", "tokenizer.ggml.tokens": ["a", "b"],
        "llama.context_length": 8192, "tokenizer.chat_template": "{{ messages }}"})
    info = modelstore.read_gguf_info(with_tpl)
    assert info.architecture == "llama" and info.chat_template and info.context_length == 8192
    assert modelstore.chat_format_for(info) == (None, ())
    gemma = modelstore.read_gguf_info(_gguf(tmp_path / "g.gguf",
                                            {"general.architecture": "gemma3"}))
    fmt, warnings = modelstore.chat_format_for(gemma)
    assert fmt == "gemma" and warnings
    odd = modelstore.read_gguf_info(_gguf(tmp_path / "o.gguf", {"general.architecture": "x"}))
    assert modelstore.chat_format_for(odd)[0] is None
    assert "no chat template" in modelstore.chat_format_for(odd)[1][0]
    with pytest.raises(ModelError):
        modelstore.read_gguf_info(_write(tmp_path / "bad.gguf", b"nope"))


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_registry_add_list_verify(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLEARNOTE_CONFIG_DIR", str(tmp_path / "cfg"))
    model = _gguf(tmp_path / "My-Model.Q4.gguf", {"general.architecture": "gemma3"})
    record = modelstore.add_model(model)
    assert record.name == "my-model.q4" and record.chat_format == "gemma" and record.warnings
    assert record.size == model.stat().st_size and len(record.sha256) == 64
    assert (tmp_path / "cfg" / "models.json").exists()
    assert [r.name for r in modelstore.list_models()] == ["my-model.q4"]
    assert modelstore.verify_model("my-model.q4") == record
    model.write_bytes(model.read_bytes() + b"tampered")
    with pytest.raises(ModelIntegrityError):
        modelstore.verify_model("my-model.q4")
    model.unlink()
    with pytest.raises(ModelIntegrityError, match="missing"):
        modelstore.verify_model("my-model.q4")
    with pytest.raises(UsageError):
        modelstore.add_model(tmp_path / "notes.txt")
