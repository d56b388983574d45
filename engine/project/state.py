"""What the project's modules share: the open store, the secret, the settings, the
surrogate registry and the loaded session. One per open project; ``Project`` is the
façade that callers see."""

from __future__ import annotations

import threading
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from engine.core.domain import SurrogateMode
from engine.core.errors import UsageError
from engine.core.labels import Label
from engine.core.policies import get_policy
from engine.project.services import Services
from engine.project.settings import ProjectSettings, check_formats
from engine.session import SessionConfig
from engine.store import repositories as repo
from engine.store.db import Database
from engine.store.surrogate_map import StoreSurrogateMap

if TYPE_CHECKING:
    from engine.profile import Profile

_UNREAD: Any = object()


class ProjectState:
    def __init__(self, db: Database, *, secret: bytes, settings: ProjectSettings,
                 services: Services) -> None:
        self.db = db
        self.secret = secret
        self.settings = settings
        self.services = services
        self._session: Any = None
        self._session_lock = threading.Lock()
        # Surrogate generation is read-then-write on the registry: one at a time per
        # process, so two threads never invent two surrogates for one value.
        self.deid_lock = threading.Lock()
        self.surrogate_map = StoreSurrogateMap(db, secret)
        # fsync each output before its rename. A SIGKILL cannot lose page-cache data, so
        # this guards power loss only; without it, a resumed batch still re-exports any
        # output whose bytes no longer match the sha256 recorded (export_files_exist).
        self.durable_exports = False
        self._profile: Profile | None = _UNREAD

    @property
    def profile(self) -> Profile | None:
        """The active profile (what the project learned), read once; None before any."""
        if self._profile is _UNREAD:
            from engine.store import profiles

            with self.db.read() as s:
                self._profile = profiles.active_profile(s)
        return self._profile

    def profile_changed(self) -> None:
        """The active profile changed: read it again, and rebuild the pipeline with it."""
        with self._session_lock:
            self._profile = _UNREAD
            self._session = None

    def session_config(self) -> SessionConfig:
        pipeline = replace(self.settings.pipeline_config(), profile=self.profile)
        return SessionConfig(pipeline=pipeline, mode=self.settings.mode, secret=self.secret)

    @property
    def session(self) -> Any:
        """The loaded pipeline + a surrogator backed by this project's registry."""
        with self._session_lock:
            if self._session is None:
                self._session = self.services.session_factory(self.session_config(),
                                                               self.surrogate_map)
            return self._session

    def update_settings(self, **changes: Any) -> ProjectSettings:
        """Change project options; audited by key (values may name people or places)."""
        known = {f.name for f in fields(ProjectSettings)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise UsageError(f"unknown project setting(s): {', '.join(unknown)}")
        if "policy" in changes:
            get_policy(changes["policy"])
        if "mode" in changes:
            changes["mode"] = SurrogateMode(changes["mode"])
        if "export_formats" in changes:
            check_formats(changes["export_formats"])
            changes["export_formats"] = tuple(changes["export_formats"])
        if "user_dictionary" in changes:
            changes["user_dictionary"] = tuple((str(t), Label(lbl).value)
                                               for t, lbl in changes["user_dictionary"])
        new = replace(self.settings, **changes)
        changed = sorted(k for k in changes if getattr(new, k) != getattr(self.settings, k))
        if not changed:
            return self.settings
        with self.db.write() as s:
            repo.put_setting(s, "project", new.to_json())
            repo.audit(s, "settings.changed", count=len(changed), keys=changed)
        self.settings = new
        with self._session_lock:
            self._session = None  # rebuilt with the new pipeline on next use
        return new
