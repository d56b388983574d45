"""Child process of the ingest fuzzer: reads one file path per stdin line, loads it with
``engine.ingest.load_document`` and answers one JSON line per input. It runs apart from the
fuzzer so that a native crash or a hang costs one input, not the run (the parent kills and
restarts it)."""

from __future__ import annotations

import json
import resource
import sys
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# A fuzzed header can claim a huge image: past this, an allocation fails instead of the
# machine swapping (a MemoryError then counts as a failure of the input, as it should).
MEMORY_LIMIT = 3 * 1024 ** 3


def _where(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{Path(last.filename).name}:{last.lineno}"


def main() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    from engine.core.errors import ClearNoteError
    from engine.ingest import load_document

    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        path = Path(line.rstrip("\n"))
        try:
            doc = load_document(path)
            answer = {"outcome": "document", "chars": len(doc.text)}
        except ClearNoteError as exc:
            answer = {"outcome": "error", "type": type(exc).__name__,
                      "named": path.name in str(exc), "where": _where(exc)}
        except BaseException as exc:  # noqa: BLE001 - the fuzzer's finding
            answer = {"outcome": "exception", "type": type(exc).__name__, "where": _where(exc),
                      "traceback": traceback.format_exc(limit=-6)}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
