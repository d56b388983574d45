"""Secrets a command reads (PDF passwords, project passphrases) from a file, a prompt or
the environment, never from argv; no project store import, so `clearnote deid` stays light."""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path

from engine.core.errors import UsageError


class _PasswordRefused(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, *_: object, **__: object) -> None:
        parser.error("a PDF password is never taken from the command line (other users can "
                     "read it with ps): use --password-file FILE or --ask-password")


def add_pdf_password_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--password", action=_PasswordRefused, help=argparse.SUPPRESS)
    p.add_argument("--password-file", type=Path, metavar="FILE",
                   help="password for encrypted PDFs: the first line of FILE")
    p.add_argument("--ask-password", action="store_true",
                   help="prompt for the password of encrypted PDFs")


def pdf_password(args: argparse.Namespace) -> str | None:
    """The PDF password of ``add_pdf_password_options`` (None: none given)."""
    if getattr(args, "password_file", None) is not None:
        return from_file(args.password_file)
    if getattr(args, "ask_password", False):
        if not sys.stdin.isatty():
            raise UsageError("--ask-password needs a terminal; use --password-file FILE")
        return getpass.getpass("Password for encrypted PDFs: ") or None
    return None


def forget_env(name: str) -> str | None:
    """Remove ``name`` from the environment and return its value; on Linux also zero its
    bytes in the initial environment block, which ``/proc/PID/environ`` keeps showing."""
    value = os.environ.pop(name, None)
    if os.name == "posix":  # the startup copy that os.environ was made from
        import posix

        posix.environ.pop(os.fsencode(name), None)
    if value is not None:
        _zero_initial_entry(f"{name}={value}".encode())
    return value


def _zero_initial_entry(entry: bytes) -> None:
    try:  # fields 50-51 of /proc/self/stat: env_start, env_end (Linux 3.5+)
        stat = Path("/proc/self/stat").read_text()
        start, end = (int(v) for v in stat[stat.rindex(")") + 2:].split()[47:49])
        block = Path("/proc/self/environ").read_bytes()
    except (OSError, ValueError):
        return  # not Linux: unsetenv is all there is
    offset = 0
    for item in block.split(b"\0"):
        if item == entry and start + offset + len(item) <= end:
            import ctypes

            # unsetenv has dropped the pointer to it; the bytes are this process's own.
            ctypes.memset(start + offset, 0, len(item))
        offset += len(item) + 1


def from_file(path: Path) -> str:
    """The first line of ``path`` (a passphrase or password file)."""
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        # Not named: a mistyped option could make the passphrase itself the "file name".
        raise UsageError(f"cannot read the passphrase file ({type(exc).__name__})") from None
    value = raw.splitlines()[0] if raw else ""
    if not value:
        raise UsageError("the passphrase file is empty")
    return value
