"""`clearnote project` with encrypted projects: the passphrase from a file, the environment
or a prompt (never argv); a wrong or missing one is a one-line error with exit 2 and the
file untouched; `project encrypt` and `rekey`; a batch's workers never see the passphrase
(in argv or in their environment). Synthetic PHI; rules only (no model)."""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.cli.passphrase import ENV_VAR, read_passphrase
from engine.core.context import RunContext
from engine.core.domain import Document
from engine.core.errors import UsageError
from engine.parallel import WorkItem, run_parallel
from engine.project import Project, Services
from tests.engine.store.fakes import letter

ROOT = Path(__file__).resolve().parents[2]
SECRET_WORDS = "osprey juniper 41 quay"


@pytest.fixture
def pass_file(tmp_path: Path) -> Path:
    f = tmp_path / "pass.txt"
    f.write_text(SECRET_WORDS + "\n", encoding="utf-8")
    return f


@pytest.fixture
def inbox(tmp_path: Path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    for i in range(3):
        (folder / f"patient_{i}.txt").write_text(letter(i).text(i), encoding="utf-8")
    return folder


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_create_status_wrong_and_missing_passphrase(tmp_path: Path, pass_file: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    project = tmp_path / "p.clearnote"
    assert main(["project", "create", str(project), "--ner", "off",
                 "--passphrase-file", str(pass_file)]) == 0
    assert "encrypted" in capsys.readouterr().out and Project.is_encrypted(project)
    assert stat.S_IMODE(project.stat().st_mode) == 0o600
    before = _sha(project)
    # No passphrase and no terminal: a usage error, not a prompt that hangs.
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    assert main(["project", "status", str(project)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "passphrase" in err
    monkeypatch.setenv(ENV_VAR, "not the passphrase")
    assert main(["project", "status", str(project)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("clearnote: p.clearnote: wrong passphrase") and err.count("\n") == 1
    assert ENV_VAR not in os.environ  # read once, then removed from the environment
    assert _sha(project) == before
    monkeypatch.setenv(ENV_VAR, SECRET_WORDS)
    assert main(["project", "status", str(project)]) == 0
    assert "documents 0" in capsys.readouterr().out


def test_prompt_on_a_terminal_and_no_passphrase_option_on_argv(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    answers = iter([SECRET_WORDS, SECRET_WORDS])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    project = tmp_path / "t.clearnote"
    assert main(["project", "create", str(project), "--ner", "off"]) == 0
    assert Project.is_encrypted(project)
    for option in ("--passphrase", "--passphrase=" + SECRET_WORDS, "--new-passphrase"):
        with pytest.raises(SystemExit) as exit_:  # no option takes the passphrase itself
            main(["project", "status", str(project), option, SECRET_WORDS])
        assert exit_.value.code == 2
    assert SECRET_WORDS not in capsys.readouterr().err
    answers = iter(["one", "two"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    with pytest.raises(UsageError, match="differ"):
        read_passphrase(None, prompt="x", confirm=True)


def test_encrypt_then_rekey_from_the_cli(tmp_path: Path, pass_file: Path, inbox: Path,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    project = tmp_path / "old.clearnote"
    assert main(["project", "create", str(project), "--ner", "off", "--no-encryption"]) == 0
    assert main(["project", "import", str(project), str(inbox), "-q", "--workers", "1"]) == 0
    assert not Project.is_encrypted(project)
    assert main(["project", "encrypt", str(project), "--passphrase-file", str(pass_file)]) == 0
    assert Project.is_encrypted(project)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "old.clearnote", "pass.txt"]
    new_file = tmp_path / "new.txt"
    new_file.write_text("a second passphrase\n", encoding="utf-8")
    assert main(["project", "rekey", str(project), "--passphrase-file", str(pass_file),
                 "--new-passphrase-file", str(new_file)]) == 0
    capsys.readouterr()
    assert main(["project", "status", str(project), "--passphrase-file", str(pass_file)]) == 2
    assert main(["project", "status", str(project), "--passphrase-file", str(new_file)]) == 0
    assert "documents 3" in capsys.readouterr().out


def test_batch_subprocess_encrypted_with_env_passphrase(tmp_path: Path, inbox: Path) -> None:
    project, out = tmp_path / "b.clearnote", tmp_path / "out"
    env = {**os.environ, ENV_VAR: SECRET_WORDS, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "engine.cli", "batch", str(inbox), "--output-dir", str(out),
           "--project", str(project), "--ner", "off", "--workers", "2", "-q"]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert Project.is_encrypted(project)
    assert len(list(out.glob("*.deid.txt"))) == 3
    assert SECRET_WORDS not in done.stdout + done.stderr
    env[ENV_VAR] = "wrong"
    again = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 2 and "wrong passphrase" in again.stderr


# --- what a worker process can see of the key -------------------------------------------


def _report_loader(path: Path, password: str | None = None) -> Document:
    cmdline = Path("/proc/self/cmdline").read_bytes().replace(b"\0", b" ").decode()
    environ = Path("/proc/self/environ").read_bytes().decode(errors="replace")
    return Document.from_text(f"{cmdline}\n{environ}\n{ENV_VAR in os.environ}")


def _no_session(config: object, mapping: object) -> object:
    raise AssertionError("not used: detect=False")


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_workers_get_no_passphrase_in_argv_or_environment(
        tmp_path: Path, pass_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, SECRET_WORDS)
    assert read_passphrase(None, prompt="x") == SECRET_WORDS
    assert ENV_VAR not in os.environ
    services = Services(session_factory=_no_session, loader=_report_loader)
    items = [WorkItem(f"d{i}", path=str(pass_file), detect=False) for i in range(2)]
    seen = [r.document.text for r in run_parallel(
        items, total=2, workers=2, services=services, session_config=None, session=None,
        ctx=RunContext()) if r.document is not None]
    assert len(seen) == 2
    for text in seen:
        assert "spawn_main" in text  # it did run in a spawned worker
        assert SECRET_WORDS not in text and ENV_VAR not in text
        assert text.endswith("False")
