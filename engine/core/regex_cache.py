"""The built-in rules' patterns, compiled once per machine rather than once per process.

``re`` has no ``\\p{Lu}``, so the name and address rules spell out every upper- and
lower-case letter of four scripts, ~340 classes in all; parsing them was ~0.4 s of the
~1.2 s a one-note ``clearnote detect`` took. CPython's regex compiler turns a pattern into
a list of ints that ``_sre.compile`` accepts directly (and checks: bad code raises, it does
not crash), so that output is kept in the user's cache folder, keyed by the interpreter's
regex engine. Any mismatch, damage or error falls back to ``re.compile``.

Only the shipped rules go through here; never a user's terms, which may be PHI and would
then sit on disk.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import logging
import marshal
import os
import re
import sys
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

try:  # CPython's own compiler (3.11+); elsewhere every pattern is simply compiled
    _sre: Any = importlib.import_module("_sre")
    _compiler: Any = importlib.import_module("re._compiler")
    _parser: Any = importlib.import_module("re._parser")
    _ENGINE = f"{sys.implementation.cache_tag}-{_sre.MAGIC}-{_sre.CODESIZE}"
except (ImportError, AttributeError):  # pragma: no cover - not CPython
    _ENGINE = ""

# Entries kept at most: rules edited over many releases must not grow the file for ever.
_MAX_ENTRIES = 4096
Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]


def cache_dir() -> Path:
    """Per-user cache folder (``CLEARNOTE_CACHE_DIR`` overrides it)."""
    override = os.environ.get("CLEARNOTE_CACHE_DIR")
    if override:
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA", Path.home())) / "ClearNote" / "cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ClearNote"
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "clearnote"


def _compile_with_entry(pattern: str, flags: int) -> tuple[re.Pattern[str], Entry]:
    """What ``re._compiler.compile`` does, keeping the arguments of ``_sre.compile``."""
    parsed = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]  # opcodes are int subclasses
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    entry: Entry = (int(flags | parsed.state.flags), code, parsed.state.groups - 1, groupindex,
                    tuple(indexgroup))
    return _sre.compile(pattern, *entry), entry


class PatternCache:
    """``compile`` like ``re.compile``; ``save`` writes what was compiled anew."""

    def __init__(self, path: Path | None) -> None:
        self.path = path if _ENGINE else None
        self.hits = 0
        self._entries: dict[tuple[str, int], Entry] = self._load()
        self._new: dict[tuple[str, int], Entry] = {}

    def _load(self) -> dict[tuple[str, int], Entry]:
        if self.path is None:
            return {}
        try:
            blob = self.path.read_bytes()
        except OSError:
            return {}
        digest, payload = blob[:32], blob[32:]
        if hashlib.sha256(payload).digest() != digest:
            log.info("regex cache damaged; compiling the rules")
            return {}
        try:
            entries = marshal.loads(payload)
        except (ValueError, EOFError, TypeError):
            return {}
        return entries if isinstance(entries, dict) else {}

    def compile(self, pattern: str, flags: int = 0) -> re.Pattern[str]:
        if self.path is None:
            return re.compile(pattern, flags)
        key = (pattern, flags)
        entry = self._entries.get(key)
        if entry is not None:
            try:
                compiled: re.Pattern[str] = _sre.compile(pattern, *entry)
            except Exception:  # noqa: BLE001 - stale or damaged entry: compile afresh
                self._entries.pop(key, None)
            else:
                self.hits += 1
                return compiled
        try:
            compiled, entry = _compile_with_entry(pattern, flags)
        except re.error:
            raise  # a bad pattern is a bug in the rules, cached or not
        except Exception:  # noqa: BLE001 - the compiler's internals changed: stop caching
            log.info("regex cache disabled: this Python's compiler is not the expected one")
            self.path = None
            return re.compile(pattern, flags)
        self._new[key] = entry
        return compiled

    def save(self) -> None:
        """Write the cache if anything was compiled anew (atomically; failures are ignored:
        the cache only saves time)."""
        if self.path is None or not self._new:
            return
        entries: dict[Any, Entry] = dict(self._entries)
        if len(entries) + len(self._new) > _MAX_ENTRIES:
            entries = {}
        entries.update(self._new)
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            payload = marshal.dumps(entries)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, self.path)
        except (OSError, ValueError) as exc:
            log.info("regex cache not written (%s)", type(exc).__name__)
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            return
        self._entries, self._new = entries, {}


def rule_patterns() -> PatternCache:
    """The process-wide cache of the shipped rules (``CLEARNOTE_REGEX_CACHE=0``: none)."""
    global _RULES
    if _RULES is None:
        off = os.environ.get("CLEARNOTE_REGEX_CACHE", "1") == "0"
        _RULES = PatternCache(None if off else cache_dir() / f"rules-{_ENGINE}.marshal")
    return _RULES


_RULES: PatternCache | None = None
