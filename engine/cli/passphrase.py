"""Project passphrases for the CLI: from ``--passphrase-file``, the ``CLEARNOTE_PASSPHRASE``
environment variable, or a prompt on a terminal; never from the command line (argv is
readable by every user of the machine through ``ps``). The variable is removed from this
process's environment once read, so worker processes and tools started later do not
inherit it, and on Linux its bytes are zeroed in the process's initial environment block
(which ``/proc/PID/environ`` shows even after ``unsetenv``). Passwords of encrypted PDFs
likewise come from ``--password-file`` or a prompt (``--ask-password``) only
(``secret_input``)."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import api
from engine.cli.secret_input import forget_env, from_file
from engine.core.errors import UsageError

if TYPE_CHECKING:  # engine.api resolves Project on first use: `clearnote detect` never does
    from engine.api import Project

ENV_VAR = "CLEARNOTE_PASSPHRASE"
NEW_ENV_VAR = "CLEARNOTE_NEW_PASSPHRASE"
PROFILE_ENV_VAR = "CLEARNOTE_PROFILE_PASSPHRASE"


class _RefusedOnArgv(argparse.Action):
    """``--passphrase X`` is refused outright (and would otherwise be taken by argparse as
    an abbreviation of ``--passphrase-file``, then echoed as a file name)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object, **__: object) -> None:
        parser.error("a passphrase is never taken from the command line (other users can "
                     f"read it with ps): use --passphrase-file FILE, ${ENV_VAR} or the prompt")


def refuse_on_argv(p: argparse.ArgumentParser, *flags: str) -> None:
    """Refuse ``flags`` given a value on the command line (see ``_RefusedOnArgv``)."""
    p.add_argument(*flags, action=_RefusedOnArgv, help=argparse.SUPPRESS)


def add_profile_options(p: argparse.ArgumentParser) -> None:
    """``--profile FILE`` (a `clearnote project profile-export`) and its passphrase."""
    p.add_argument("--profile", type=Path, metavar="FILE",
                   help="use what a project learned (`clearnote project profile-export`)")
    p.add_argument("--profile-passphrase-file", type=Path, metavar="FILE",
                   help=f"the profile's passphrase is the first line of FILE (else "
                        f"${PROFILE_ENV_VAR}, else a prompt)")
    refuse_on_argv(p, "--profile-passphrase")


def profile_from(args: argparse.Namespace) -> Any:
    """The profile ``--profile`` names (None without it); a wrong passphrase is refused
    (``WrongPassphraseError``, a usage error at the command line)."""
    path = getattr(args, "profile", None)
    if path is None:
        return None
    passphrase = read_passphrase(getattr(args, "profile_passphrase_file", None),
                                 env_var=PROFILE_ENV_VAR,
                                 prompt=f"Passphrase for the profile {path.name}")
    return api.read_profile_file(path, passphrase)


def add_passphrase_options(p: argparse.ArgumentParser, *, new_project: bool = False,
                           rekey: bool = False) -> None:
    p.add_argument("--passphrase", "--new-passphrase", action=_RefusedOnArgv,
                   help=argparse.SUPPRESS)
    p.add_argument("--passphrase-file", type=Path, metavar="FILE",
                   help=f"the project passphrase is the first line of FILE (else ${ENV_VAR}, "
                        "else a prompt)")
    if new_project:
        p.add_argument("--no-encryption", action="store_true",
                       help="create a plain, unencrypted project (anyone who copies the "
                            "file can read the original documents)")
    if rekey:
        p.add_argument("--new-passphrase-file", type=Path, metavar="FILE",
                       help=f"the new passphrase (else ${NEW_ENV_VAR}, else a prompt)")


def read_passphrase(file: Path | None, *, env_var: str = ENV_VAR, prompt: str,
                    confirm: bool = False) -> str:
    """The passphrase from ``file``, else ``env_var`` (removed from the environment), else
    a prompt when stdin is a terminal; a usage error otherwise."""
    from_env = forget_env(env_var)
    if file is not None:
        return from_file(file)
    if from_env:
        return from_env
    if not sys.stdin.isatty():
        raise UsageError(f"a passphrase is needed: give --passphrase-file FILE or set {env_var}"
                         " (it is never taken from the command line)")
    value = getpass.getpass(f"{prompt}: ")
    if not value:
        raise UsageError("the passphrase must not be empty")
    if confirm and getpass.getpass("Repeat it: ") != value:
        raise UsageError("the two passphrases differ")
    return value


def new_project_passphrase(args: argparse.Namespace) -> str | None:
    """For a project about to be created: encrypted unless ``--no-encryption``."""
    if getattr(args, "no_encryption", False):
        return None
    return read_passphrase(args.passphrase_file, confirm=True,
                           prompt=f"New passphrase for {args.project.name}")


def open_project(args: argparse.Namespace, path: Path | None = None, **kw: object) -> Project:
    """Open the project of ``args`` (asking for its passphrase only when it is encrypted)."""
    path = path or args.project
    passphrase = None
    if api.Project.is_encrypted(path):
        passphrase = read_passphrase(getattr(args, "passphrase_file", None),
                                     prompt=f"Passphrase for {path.name}")
    else:
        forget_env(ENV_VAR)  # not needed: not left for the workers either
    return api.Project.open(path, passphrase=passphrase, **kw)  # type: ignore[arg-type]
