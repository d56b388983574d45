"""Rows of what a project learned: profile versions (the active one named by the setting
``profile.active``), imported list entries and the listed patients' identifier digests.

Versions are never rewritten: learning, removing an entry and going back each add a version
or move the pointer, and the audit log says which (counts and versions, never entries).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from engine.profile.model import PhiKind, Profile
from engine.store import repositories as repo
from engine.store.models import ListEntryRow, ListKeyRow, ProfileVersionRow, SettingRow, table_of

ACTIVE_KEY = "profile.active"


@dataclass(frozen=True)
class ProfileVersion:
    """One kept version (no entries: counts only)."""

    version: int
    content_version: str
    note: str
    counts: dict[str, int]
    created_at: float
    active: bool


def active_version(s: Session) -> int | None:
    row = s.get(SettingRow, ACTIVE_KEY)
    value = json.loads(row.value) if row is not None else None
    return int(value) if value is not None else None


def load(s: Session, version: int) -> Profile | None:
    row = s.get(ProfileVersionRow, version)
    return Profile.from_bytes(row.body.encode("utf-8")) if row is not None else None


def active_profile(s: Session) -> Profile | None:
    version = active_version(s)
    return load(s, version) if version is not None else None


def add_version(s: Session, profile: Profile, note: str) -> int:
    """Store ``profile`` as a new version and make it the active one."""
    counts = {**dict(profile.counts), **profile.counts_by_kind()}
    version = repo.insert_row(s, table_of(ProfileVersionRow), dict(
        content_version=profile.content_version, body=profile.to_bytes().decode("utf-8"),
        note=note, counts=json.dumps(counts, sort_keys=True), created_at=time.time()))
    set_active(s, version)
    return version


def set_active(s: Session, version: int | None) -> None:
    repo.put_setting(s, ACTIVE_KEY, version)
    repo.put_setting(s, "profile.activated_at", time.time())


def activated_at(s: Session) -> float:
    row = s.get(SettingRow, "profile.activated_at")
    return float(json.loads(row.value)) if row is not None else 0.0


def versions(s: Session) -> list[ProfileVersion]:
    active = active_version(s)
    return [ProfileVersion(r.version, r.content_version, r.note, json.loads(r.counts),
                           r.created_at, r.version == active)
            for r in s.scalars(select(ProfileVersionRow).order_by(ProfileVersionRow.version))]


def previous_version(s: Session) -> int | None:
    """The version before the active one (None: before the first, no profile)."""
    active = active_version(s)
    if active is None:
        return None
    return s.scalar(select(func.max(ProfileVersionRow.version))
                    .where(ProfileVersionRow.version < active))


# ----------------------------------------------------------------------------- lists


def add_list_entries(s: Session, entries: Sequence[tuple[PhiKind, str, str | None]]) -> int:
    now = time.time()
    return repo.insert_rows(s, table_of(ListEntryRow), [
        dict(kind=kind.value, text=text, patient_id=patient, created_at=now)
        for kind, text, patient in entries])


def list_entries(s: Session) -> list[tuple[PhiKind, str, str | None]]:
    rows = s.execute(select(ListEntryRow.kind, ListEntryRow.text, ListEntryRow.patient_id)
                     .order_by(ListEntryRow.id))
    return [(PhiKind(kind), text, patient) for kind, text, patient in rows]


def add_list_keys(s: Session, patient_id: str, keys: Iterable[tuple[str, str]]) -> None:
    repo.insert_rows(s, table_of(ListKeyRow),
                     [dict(patient_id=patient_id, kind=k, digest=d) for k, d in sorted(keys)],
                     or_ignore=True)


def listed_patient(s: Session, digests: Iterable[str]) -> str | None:
    """The listed patient with one of these identifier digests (the first listed)."""
    wanted = list(digests)
    if not wanted:
        return None
    return s.scalar(select(ListKeyRow.patient_id).where(ListKeyRow.digest.in_(wanted))
                    .order_by(ListKeyRow.id).limit(1))
