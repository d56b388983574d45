"""Encrypted projects through the Project service: created encrypted, opened with the
passphrase only, encrypted in place from plain (no plain copy left), rekeyed; document ids
keyed with the project secret; every file and folder written owner-only. Synthetic PHI."""

from __future__ import annotations

import hashlib
import re
import stat
from pathlib import Path

import pytest

from engine.core.errors import PassphraseRequiredError, UsageError, WrongPassphraseError
from engine.core.files import file_sha256
from engine.project import Project
from tests.engine.store.fakes import FAKE_SERVICES

PASS = "plover kestrel 7 lantern"


def _strings(path: Path) -> str:
    return "\n".join(m.group().decode() for m in re.finditer(rb"[\x20-\x7e]{4,}",
                                                             path.read_bytes()))


def _planted(folder: Path) -> list[str]:
    """Distinctive words of the letters (names, streets): what `strings` must not show."""
    words: set[str] = set()
    for p in folder.iterdir():
        words |= set(re.findall(r"\b[A-Z][a-z]{5,}\b", p.read_text(encoding="utf-8")))
    return sorted(words - {"Patient", "Please", "Thanks", "Regards", "Sincerely"})


def _no_phi_readable(folder: Path, words: list[str]) -> None:
    for p in folder.iterdir():
        if p.is_file() and p.suffix != ".txt":
            dump = _strings(p)
            leaked = [w for w in words if w in dump]
            assert not leaked, (p.name, len(leaked))


def test_encrypted_project_create_open_wrong_and_missing_passphrase(
        tmp_path: Path, letters: Path) -> None:
    path = tmp_path / "enc.clearnote"
    with Project.create(path, services=FAKE_SERVICES, passphrase=PASS) as project:
        assert project.encrypted and Project.is_encrypted(path)
        ids = project.import_paths([letters]).imported
        project.detect()
        assert len(ids) == 4
    words = _planted(letters)
    assert len(words) >= 4
    _no_phi_readable(tmp_path, words)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(PassphraseRequiredError):
        Project.open(path, services=FAKE_SERVICES)
    with pytest.raises(WrongPassphraseError) as err:
        Project.open(path, services=FAKE_SERVICES, passphrase="not it")
    assert "\n" not in str(err.value) and PASS not in str(err.value)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # never touched
    with Project.open(path, services=FAKE_SERVICES, passphrase=PASS) as again:
        assert sorted(d.id for d in again.documents()) == sorted(ids)
        assert again.integrity_check() == "ok"


def test_encrypt_plain_project_in_place_leaves_no_plain_copy(
        tmp_path: Path, letters: Path) -> None:
    path = tmp_path / "plain.clearnote"
    with Project.create(path, services=FAKE_SERVICES) as project:
        project.import_paths([letters])
        project.detect()
        spans = {d.id: len(project.spans(d.id)) for d in project.documents()}
        secret = project._secret
    words = _planted(letters)
    assert any(w in _strings(path) for w in words)  # the control: plain is readable
    Project.encrypt(path, PASS)
    assert Project.is_encrypted(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["letters", "plain.clearnote"]
    _no_phi_readable(tmp_path, words)
    with Project.open(path, services=FAKE_SERVICES, passphrase=PASS) as again:
        assert {d.id: len(again.spans(d.id)) for d in again.documents()} == spans
        assert again._secret == secret  # same surrogates as before the migration
    with pytest.raises(UsageError):
        Project.encrypt(path, PASS)


def test_rekey_changes_the_passphrase_and_a_wrong_old_one_changes_nothing(
        tmp_path: Path, letters: Path) -> None:
    path = tmp_path / "k.clearnote"
    Project.create(path, services=FAKE_SERVICES, passphrase=PASS).close()
    before = path.read_bytes()
    with pytest.raises(WrongPassphraseError):
        Project.rekey(path, "wrong", "new one")
    assert path.read_bytes() == before
    Project.rekey(path, PASS, "a new passphrase")
    with pytest.raises(WrongPassphraseError):
        Project.open(path, services=FAKE_SERVICES, passphrase=PASS)
    Project.open(path, services=FAKE_SERVICES, passphrase="a new passphrase").close()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_document_ids_are_keyed_not_a_hash_prefix(tmp_path: Path, letters: Path) -> None:
    a = Project.create(tmp_path / "a.clearnote", services=FAKE_SERVICES)
    b = Project.create(tmp_path / "b.clearnote", services=FAKE_SERVICES)
    try:
        ids_a = set(a.import_paths([letters]).imported)
        ids_b = set(b.import_paths([letters]).imported)
        hashes = {file_sha256(p) for p in letters.iterdir()}
        for doc_id in ids_a:
            assert not any(h.startswith(doc_id) or doc_id in h for h in hashes)
        assert ids_a.isdisjoint(ids_b)  # another project's ids say nothing about these
        assert {a.document_id_for(h) for h in hashes} == ids_a  # stable: resumable
    finally:
        a.close()
        b.close()


def _modes(root: Path) -> list[tuple[str, str]]:
    bad = []
    for p in [root, *root.rglob("*")]:
        mode = stat.S_IMODE(p.stat().st_mode)
        want = 0o700 if p.is_dir() else 0o600
        if mode != want:
            bad.append((str(p.relative_to(root.parent)), oct(mode)))
    return bad


@pytest.mark.parametrize("passphrase", [PASS, None])
def test_every_file_and_folder_written_is_owner_only(tmp_path: Path, letters: Path,
                                                     passphrase: str | None) -> None:
    # Library use with the usual umask 022 (the CLI sets 077 on top of this).
    work, out = tmp_path / "work" / "projects", tmp_path / "exports" / "run1"
    path = work / "m.clearnote"
    project = Project.create(path, services=FAKE_SERVICES, passphrase=passphrase,
                             export_formats=("txt", "json"))
    try:
        project.import_paths([letters])
        project.detect()
        ids = [d.id for d in project.documents()]
        for doc_id in ids:
            project.mark_reviewed(doc_id)
        report = project.export(out_dir=out)
        assert not report.failed
        # While open: the -wal and -shm files exist and must be private too.
        assert Path(f"{path}-wal").exists()
        assert _modes(tmp_path / "work") == [] and _modes(tmp_path / "exports") == []
    finally:
        project.close()
    if passphrase is None:
        Project.encrypt(path, PASS)
    Project.rekey(path, PASS, "second")
    assert _modes(tmp_path / "work") == []
    assert len(list(out.iterdir())) >= 2 * len(ids)
