"""The export lock: an export holds the project's de-identification lock, and the
surrogates it invents are stored with its record, or on their own when it fails."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine.project.state import ProjectState


@contextmanager
def exporting(state: ProjectState) -> Iterator[None]:
    """Hold the deidentify lock around an export. Surrogates an export invents are
    cached at once (``surrogate_map.defer``) and stored with the export's record; when
    the export fails, they are stored on their own, because the cache may already
    have handed them to another document."""
    with state.deid_lock:
        try:
            yield
        except BaseException:
            pending = state.surrogate_map.take_pending()
            if pending:
                with state.db.write() as s:
                    state.surrogate_map.sync(s)
                    state.surrogate_map.store_pending(s, pending)
                    state.surrogate_map.mark_seen(s)
            raise
        state.surrogate_map.take_pending()  # committed with the export
