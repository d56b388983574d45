"""`clearnote project import-list|adapt|profile|profile-export`: the project learns its
institution (issue 25), and `--profile FILE` for detect, deid, batch and spark.

Output is counts and versions; names and words only with `adapt --show` (they are PHI)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from engine.cli.common import EXIT_OK, run_context
from engine.cli.passphrase import (
    PROFILE_ENV_VAR,
    add_passphrase_options,
    open_project,
    read_passphrase,
    refuse_on_argv,
)


def cmd_import_list(args: argparse.Namespace) -> int:
    with open_project(args) as project:
        r = project.adaptation.import_list(args.file, args.kind)
    extra = (f"; patients: {r.patients_new} new, {r.patients_known} already known, "
             f"{r.documents_linked} document(s) linked" if args.kind == "patients" else "")
    print(f"imported {r.rows} row(s) of {args.file.name} as {args.kind}: {r.entries} "
          f"entr{'y' if r.entries == 1 else 'ies'}{extra}. Run `clearnote project adapt` "
          "to learn from it.")
    return EXIT_OK


def cmd_adapt(args: argparse.Namespace) -> int:
    with open_project(args) as project:
        r = project.adaptation.adapt(run_context(args))
        print(f"learned from {r.documents_reviewed} reviewed document(s), {r.decisions} "
              f"decision(s), in {r.seconds:.1f} s")
        for key, n in r.counts.items():
            print(f"  {key.replace('.', ': ', 1)} {n}")
        if r.learned:
            print(r.learned)
        if r.version is None:
            print("nothing learned yet: review some documents or import a list first")
        elif r.changed:
            print(f"profile version {r.version} (was {r.previous or 'none'}); run "
                  "`clearnote project detect` to re-check the documents nobody reviewed")
        else:
            print(f"profile version {r.version}: unchanged")
        if args.show:
            _show(project)
    return EXIT_OK


def _show(project: Any) -> None:
    profile = project.adaptation.profile
    if profile is None:
        return
    print("entries (PHI: do not share this output):")
    for number, entry in enumerate((*profile.phi, *profile.vocabulary), start=1):
        what = f"{entry.kind.value} ({entry.label.value})" if hasattr(entry, "kind") else \
            f"clinical, not {entry.label.value} ({entry.context} context)"
        print(f"  {number:4d}  {entry.source.value:7s} {what}: {entry.text}")


def cmd_profile(args: argparse.Namespace) -> int:
    with open_project(args) as project:
        adaptation = project.adaptation
        if args.undo:
            version = adaptation.undo()
            print(f"went back to profile version {version}" if version is not None else
                  "went back to no profile (shipped detection only)")
        elif args.remove:
            profile = adaptation.profile
            entries = (*profile.phi, *profile.vocabulary) if profile is not None else ()
            bad = [n for n in args.remove if not 1 <= n <= len(entries)]
            if bad:
                print(f"clearnote: no entry number {bad[0]} (see `adapt --show`)",
                      file=sys.stderr)
                return 2
            version = adaptation.remove_entries(entries[n - 1] for n in args.remove)
            print(f"removed {len(set(args.remove))} entr{'y' if len(args.remove) == 1 else 'ies'}"
                  f": profile version {version} (undo: `clearnote project profile --undo`)")
        for v in adaptation.versions():
            counts = ", ".join(f"{k} {n}" for k, n in sorted(v.counts.items())
                               if k.startswith(("phi.", "vocabulary.")))
            print(f"{'*' if v.active else ' '} version {v.version} ({v.note}, "
                  f"{v.content_version}): {counts or 'no entries'}")
    return EXIT_OK


def cmd_profile_export(args: argparse.Namespace) -> int:
    with open_project(args) as project:
        passphrase = read_passphrase(args.profile_passphrase_file, env_var=PROFILE_ENV_VAR,
                                     confirm=True,
                                     prompt=f"New passphrase for the profile {args.output.name}")
        path = project.adaptation.export_profile(args.output, passphrase)
    print(f"wrote {path} (encrypted; it holds names: share it like the project)")
    return EXIT_OK


def register(subparsers: Any) -> None:
    """Actions under `clearnote project` (registered by engine.cli.main)."""
    p = subparsers.add_parser("import-list", help="import a CSV list of patients, staff or "
                                                  "places (columns found by their header)")
    p.add_argument("project", type=Path)
    p.add_argument("file", type=Path, metavar="FILE.csv")
    p.add_argument("--kind", required=True, choices=["patients", "staff", "places"])
    add_passphrase_options(p)
    p.set_defaults(func=cmd_import_list)

    p = subparsers.add_parser("adapt", help="learn from the reviewed documents, the lists "
                                            "and the corpus (a new profile version)")
    p.add_argument("project", type=Path)
    p.add_argument("--show", action="store_true",
                   help="also print the learned entries (names: PHI)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    add_passphrase_options(p)
    p.set_defaults(func=cmd_adapt)

    p = subparsers.add_parser("profile", help="the learned profile's versions; go back "
                                              "(--undo) or remove entries (--remove N)")
    p.add_argument("project", type=Path)
    group = p.add_mutually_exclusive_group()
    group.add_argument("--undo", action="store_true", help="go back to the previous version")
    group.add_argument("--remove", type=int, nargs="+", metavar="N",
                       help="remove entries by their number in `adapt --show`")
    add_passphrase_options(p)
    p.set_defaults(func=cmd_profile)

    p = subparsers.add_parser("profile-export", help="write the profile to an encrypted file "
                                                     "for `--profile` elsewhere")
    p.add_argument("project", type=Path)
    p.add_argument("--output", type=Path, required=True, metavar="FILE")
    p.add_argument("--profile-passphrase-file", type=Path, metavar="FILE",
                   help=f"the profile's new passphrase (else ${PROFILE_ENV_VAR}, else a "
                        "prompt)")
    refuse_on_argv(p, "--profile-passphrase")
    add_passphrase_options(p)
    p.set_defaults(func=cmd_profile_export)
