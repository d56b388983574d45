from __future__ import annotations

import argparse
import json
import struct
from pathlib import Path

import pytest

from engine.cli import register


def _run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="clearnote")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def _tiny_gguf(path: Path) -> Path:
    key, value = b"general.architecture", b"gemma3"
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", len(key)) + key
                     + struct.pack("<IQ", 8, len(value)) + value)
    return path


def test_models_add_list_verify(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CLEARNOTE_CONFIG_DIR", str(tmp_path))
    model = _tiny_gguf(tmp_path / "tiny.gguf")
    assert _run(["models", "add", str(model), "--name", "tiny"]) == 0
    out = capsys.readouterr()
    assert "tiny" in out.out and "chat: gemma" in out.out and "warning" in out.err
    assert _run(["models", "list"]) == 0 and "tiny" in capsys.readouterr().out
    assert _run(["models", "verify"]) == 0
    model.write_bytes(model.read_bytes() + b"x")
    assert _run(["models", "verify", "tiny"]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_cire_command_guard_only(tmp_path: Path) -> None:
    pytest.importorskip("engine.surrogates")
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in [
        {"id": "a", "text": "Mary Olsen, a 54-year-old woman, takes lisinopril 20 mg daily "
                            "for hypertension. Call 780-555-0142."},
        {"id": "b", "text": "No identifiers here. Continue metformin 500 mg twice daily."},
    ]) + "\n")
    dst = tmp_path / "out.jsonl"
    assert _run(["cire", "--input", str(src), "--output", str(dst), "--policy", "hipaa"]) == 0
    rows = [json.loads(line) for line in dst.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "b"]
    assert "780-555-0142" not in rows[0]["text"]
    for row in rows:
        assert 0.0 <= row["retention_score"] <= 1.0 and isinstance(row["flags"], list)
    assert rows[1]["flags"] == [] and rows[1]["retention_score"] == 1.0
