"""ClearNote engine: de-identification of clinical documents, offline. Never imports Qt."""

from __future__ import annotations

__version__ = "0.1.0"
