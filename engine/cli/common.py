"""What every command shares: exit codes, JSONL in and out, progress on stderr (counts,
rate, ETA; never document content), sessions from options, Ctrl-C handling."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import api
from engine.cli.passphrase import add_profile_options, profile_from
from engine.core.context import RunContext, rate_and_eta
from engine.core.domain import Document, SurrogateMode
from engine.core.errors import UsageError
from engine.core.policies import POLICIES

if TYPE_CHECKING:
    from engine.api import PipelineConfig, RunReport, Session

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2
EXIT_CANCELLED = 130  # as a shell reports SIGINT: run the same command again to finish


def report_exit(report: RunReport) -> int:
    """Print a file run's summary and failures (to the terminal, whatever could not be
    written to the output folder) and choose the exit status."""
    print(report.summary(), file=sys.stderr)
    if report.cancelled:
        print("clearnote: cancelled; run the same command again to finish", file=sys.stderr)
        return EXIT_CANCELLED
    return EXIT_OK if report.ok else EXIT_FAILURE


def _numbered_records(path: Path) -> Iterator[tuple[int, dict]]:
    try:
        handle = sys.stdin if str(path) == "-" else path.open(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: cannot open ({exc.strerror})") from exc
    with handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise UsageError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
            if not isinstance(record, dict) or not _valid_id(record.get("id")):
                raise UsageError(f"{path}:{number}: each line needs an \"id\" (a non-empty "
                                 f"string or a number)")
            yield number, record


def _valid_id(value: object) -> bool:
    return (isinstance(value, str) and value.strip() != "") or \
        (isinstance(value, int) and not isinstance(value, bool))


def read_documents(path: Path) -> Iterator[tuple[dict, Document]]:
    """Each JSONL record with its text as a Document (the record id is the document id).
    A record without a string "text" is an error naming the line, never an empty output
    (a misspelt key would otherwise pass as a document with nothing to de-identify)."""
    for number, record in _numbered_records(path):
        text = record.get("text")
        if not isinstance(text, str):
            problem = "has no \"text\"" if text is None else "has a \"text\" that is not a string"
            raise UsageError(f"{path}:{number}: the record {problem}")
        yield record, Document.from_text(text, id=str(record["id"]))


class JsonlWriter:
    """Writes to a temp file and renames on success, so a failed run leaves no partial file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._tmp = path.with_name(f".{path.name}.tmp") if str(path) != "-" else None

    def __enter__(self) -> JsonlWriter:
        self._handle = sys.stdout if self._tmp is None else self._tmp.open("w", encoding="utf-8")
        return self

    def write(self, record: dict) -> None:
        self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")

    def __exit__(self, exc_type: object, *_: object) -> None:
        if self._tmp is None:
            self._handle.flush()
            return
        self._handle.close()
        if exc_type is None:
            self._tmp.replace(self.path)
        else:
            self._tmp.unlink(missing_ok=True)


class Progress:
    """Progress on stderr for long runs: counts, rate and ETA; never document content."""

    def __init__(self, stage: str, total: int | None, *, enabled: bool) -> None:
        self.stage, self.total, self.enabled = stage, total, enabled
        self.started = time.monotonic()
        self._last = 0.0
        self.done = 0

    def step(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.enabled and now - self._last >= 1.0:
            self._last = now
            self._print()

    def close(self) -> None:
        if self.enabled and self.done:
            self._print(final=True)

    def _print(self, *, final: bool = False) -> None:
        rate, eta = rate_and_eta(self.done, self.total, self.started)
        total = f"/{self.total}" if self.total else ""
        left = f", ETA {eta:.0f}s" if eta is not None and rate > 0 and not final else ""
        end = "\n" if final else "\r"
        print(f"{self.stage}: {self.done}{total} documents, {rate:.1f}/s{left}",
              file=sys.stderr, end=end, flush=True)


class ProgressPrinter:
    """Progress on stderr at most every half second: stage, counts, rate, ETA."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._last = 0.0

    def __call__(self, stage: str, done: int, total: int, message: str) -> None:
        now = time.monotonic()
        if not self.enabled or (done < total and now - self._last < 0.5):
            return
        self._last = now
        end = "\n" if done >= total else "\r"
        print(f"{stage}: {message or f'{done}/{total}'}\033[K", end=end, file=sys.stderr,
              flush=True)


def run_context(args: argparse.Namespace) -> RunContext:
    quiet = getattr(args, "quiet", False) or getattr(args, "no_progress", False)
    ctx = RunContext(progress=ProgressPrinter(not quiet))

    def on_sigint(_sig: int, _frame: Any) -> None:
        # First Ctrl-C: the cancel token, polled inside long documents (segments, NER
        # batches, OCR pages, exporters), stops the document in progress within a second
        # or two and leaves no partial output. Second: abort at once.
        if ctx.cancel.cancelled:
            raise KeyboardInterrupt
        print("\nclearnote: stopping...", file=sys.stderr)
        ctx.cancel.cancel()

    signal.signal(signal.SIGINT, on_sigint)
    return ctx


def count_lines(path: Path) -> int | None:
    if str(path) == "-":
        return None
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def pipeline_config(args: argparse.Namespace) -> PipelineConfig:
    ner: bool | str = "auto"
    if getattr(args, "no_ner", False):
        ner = False
    llm = getattr(args, "llm", None)
    return api.PipelineConfig(policy=args.policy, overlap=args.overlap, ner=ner,
                          ner_threads=getattr(args, "threads", None),
                          llm_model=Path(llm) if llm else None, profile=profile_from(args))


def session_from(args: argparse.Namespace) -> Session:
    kwargs = {}
    secret_file = getattr(args, "secret_file", None)
    if secret_file:
        kwargs["secret"] = read_secret(Path(secret_file))
    mode = SurrogateMode(getattr(args, "mode", SurrogateMode.SURROGATE.value))
    return api.Session(api.SessionConfig(pipeline=pipeline_config(args), mode=mode,
                                         **kwargs))


def read_secret(path: Path) -> bytes:
    """A secret file keeps surrogates consistent across runs; created on first use."""
    if not path.exists():  # owner-only from creation, never briefly world-readable
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_hex(32).encode())
    data = path.read_bytes().strip()
    if len(data) < 16:
        raise UsageError(f"{path}: secret file is too short (need at least 16 bytes)")
    return data


def add_detection_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--policy", default="strict", choices=sorted(POLICIES),
                        help="what counts as PHI (default: strict)")
    parser.add_argument("--overlap", default="longest",
                        choices=["longest", "highest-confidence", "merge"],
                        help="how overlapping candidates are resolved")
    parser.add_argument("--no-ner", action="store_true",
                        help="rules and dictionaries only (no neural model)")
    parser.add_argument("--llm", metavar="MODEL.gguf",
                        help="add a local GGUF LLM to the detector ensemble")
    parser.add_argument("--threads", type=int, help="threads for model inference")
    parser.add_argument("--no-progress", action="store_true", help="no progress on stderr")
    add_profile_options(parser)


