"""Coverage-guided fuzzing of the ingest layer with atheris (libFuzzer), when it is installed
(it is not a dependency: `pip install atheris` in a scratch environment). The seed corpus is
the harness's seed files; an input that raises anything but a ClearNoteError naming the file
is a crash; libFuzzer's -timeout bounds each input.

    python tests/fuzz/atheris_ingest.py CORPUS_DIR -max_total_time=600 -timeout=60 \
        -rss_limit_mb=3072
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import atheris  # noqa: E402

with atheris.instrument_imports():
    from engine.core.errors import ClearNoteError
    from engine.ingest import load_document

SCRATCH = Path(tempfile.mkdtemp(prefix="clearnote-atheris-"))
TARGET = SCRATCH / "Quill_Zebulon_input.bin"


def one_input(data: bytes) -> None:
    TARGET.write_bytes(data)
    try:
        load_document(TARGET)
    except ClearNoteError as exc:
        if TARGET.name not in str(exc):
            raise AssertionError(f"error does not name the file: {type(exc).__name__}") from exc


def main() -> None:
    args = list(sys.argv)
    corpus = next((Path(a) for a in args[1:] if not a.startswith("-")), None)
    if corpus is not None and not any(corpus.glob("*")):
        from tests.fuzz.ingest_harness import make_seeds

        corpus.mkdir(parents=True, exist_ok=True)
        for name, data in make_seeds(SCRATCH / "seeds").items():
            (corpus / name).write_bytes(data)
    atheris.Setup(args, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
