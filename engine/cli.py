"""`clearnote` command line. Exit codes: 0 ok, 1 failure, 2 usage."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from engine import __version__
from engine.core.domain import Document
from engine.core.errors import ClearNoteError, UsageError
from engine.core.policies import POLICIES

log = logging.getLogger("clearnote")

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2


# --------------------------------------------------------------------------- helpers

def read_jsonl(path: Path) -> Iterator[dict]:
    """Yield records of a JSONL file; a malformed line is a usage error naming the line."""
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
            if not isinstance(record, dict) or "id" not in record:
                raise UsageError(f"{path}:{number}: each line needs an \"id\"")
            yield record


def read_documents(path: Path) -> Iterator[tuple[dict, Document]]:
    """Each JSONL record with its text as a Document (the record id is the document id)."""
    from engine.core.domain import Document

    for record in read_jsonl(path):
        yield record, Document.from_text(str(record.get("text", "")), id=str(record["id"]))


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
        import time

        self._time = time.monotonic
        self.stage, self.total, self.enabled = stage, total, enabled
        self.started = self._time()
        self._last = 0.0
        self.done = 0

    def step(self, n: int = 1) -> None:
        self.done += n
        now = self._time()
        if self.enabled and now - self._last >= 1.0:
            self._last = now
            self._print(now)

    def close(self) -> None:
        if self.enabled and self.done:
            self._print(self._time(), final=True)

    def _print(self, now: float, *, final: bool = False) -> None:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        total = f"/{self.total}" if self.total else ""
        eta = ""
        if self.total and rate > 0 and not final:
            eta = f", ETA {max(self.total - self.done, 0) / rate:.0f}s"
        end = "\n" if final else "\r"
        print(f"{self.stage}: {self.done}{total} documents, {rate:.1f}/s{eta}",
              file=sys.stderr, end=end, flush=True)


def _count_lines(path: Path) -> int | None:
    if str(path) == "-":
        return None
    with path.open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def span_record(span: object) -> dict:
    from engine.core.domain import Span

    assert isinstance(span, Span)
    record = {"start": span.start, "end": span.end, "label": span.label.value,
              "source": span.source.value, "confidence": round(span.confidence, 4)}
    if span.subtype:
        record["subtype"] = span.subtype
    record["detector"] = span.detector
    return record


def replacement_record(replacement: object) -> dict:
    from engine.core.domain import Replacement

    assert isinstance(replacement, Replacement)
    return {"start": replacement.start, "end": replacement.end,
            "label": replacement.label.value, "output_start": replacement.output_start,
            "output_end": replacement.output_end}


def _pipeline_config(args: argparse.Namespace):  # noqa: ANN202
    from engine.pipeline import PipelineConfig

    ner: bool | str = "auto"
    if getattr(args, "no_ner", False):
        ner = False
    llm = getattr(args, "llm", None)
    return PipelineConfig(policy=args.policy, overlap=args.overlap, ner=ner,
                          ner_threads=getattr(args, "threads", None),
                          llm_model=Path(llm) if llm else None)


def _session(args: argparse.Namespace):  # noqa: ANN202
    from engine.api import Session, SessionConfig
    from engine.core.domain import SurrogateMode

    kwargs = {}
    secret_file = getattr(args, "secret_file", None)
    if secret_file:
        kwargs["secret"] = _read_secret(Path(secret_file))
    mode = SurrogateMode(getattr(args, "mode", SurrogateMode.SURROGATE.value))
    return Session(SessionConfig(pipeline=_pipeline_config(args), mode=mode, **kwargs))


def _read_secret(path: Path) -> bytes:
    """A secret file keeps surrogates consistent across runs; created on first use."""
    import secrets

    if not path.exists():
        path.write_bytes(secrets.token_hex(32).encode())
        path.chmod(0o600)
    data = path.read_bytes().strip()
    if len(data) < 16:
        raise UsageError(f"{path}: secret file is too short (need at least 16 bytes)")
    return data


def _add_detection_options(parser: argparse.ArgumentParser) -> None:
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


# --------------------------------------------------------------------------- detect

def cmd_detect(args: argparse.Namespace) -> int:
    session = _session(args)
    progress = Progress("detect", _count_lines(args.input), enabled=not args.no_progress)
    with JsonlWriter(args.output) as out:
        for record, doc in read_documents(args.input):
            result = session.detect(doc)
            out.write({"id": record["id"], "spans": [span_record(s) for s in result.active]})
            progress.step()
    progress.close()
    return EXIT_OK


# --------------------------------------------------------------------------- deid

def cmd_deid(args: argparse.Namespace) -> int:
    if args.input is not None:
        if args.paths or args.output_dir:
            raise UsageError("use either --input/--output (JSONL) or FILE_OR_DIR... "
                             "--output-dir, not both")
        if args.output is None:
            raise UsageError("--input needs --output")
        return _deid_jsonl(args)
    if not args.paths or args.output_dir is None:
        raise UsageError("give --input IN.jsonl --output OUT.jsonl, or FILE_OR_DIR... "
                         "--output-dir DIR")
    from engine.deid_files import deid_paths

    report = deid_paths([Path(p) for p in args.paths], Path(args.output_dir),
                        session=_session(args), pdf_mode=args.pdf, password=args.password,
                        cire=args.cire, progress_enabled=not args.no_progress)
    print(report.summary(), file=sys.stderr)
    return EXIT_OK if not report.failed else EXIT_FAILURE


def _deid_jsonl(args: argparse.Namespace) -> int:
    session = _session(args)
    progress = Progress("deid", _count_lines(args.input), enabled=not args.no_progress)
    with JsonlWriter(args.output) as out:
        for record, doc in read_documents(args.input):
            _result, deid = session.process(doc, patient=str(record.get("patient", "default")))
            out.write({"id": record["id"], "text": deid.text,
                       "replacements": [replacement_record(r) for r in deid.replacements]})
            progress.step()
    progress.close()
    return EXIT_OK


# --------------------------------------------------------------------------- evaluate

def cmd_evaluate(args: argparse.Namespace) -> int:
    from engine.evaluation import evaluate, load_gold, load_predictions

    options = {"ignore_labels": args.ignore_labels or (), "bootstrap": args.bootstrap,
               "seed": args.seed, "phi_labels": _policy_labels(args.policy)}
    if args.project is not None:
        if args.pred is not None:
            raise UsageError("--project scores the project's spans; leave out --pred")
        from engine.project import Project, evaluate_project

        report = evaluate_project(Project.open(args.project), args.gold, **options)
    else:
        if args.pred is None:
            raise UsageError("give --pred P.jsonl, or --project P.clearnote")
        report = evaluate(load_gold(args.gold), load_predictions(args.pred), **options)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.to_text())
    return EXIT_OK


def _policy_labels(policy: str | None):  # noqa: ANN202
    if policy is None:
        return None
    from engine.core.policies import get_policy

    return get_policy(policy).phi_labels


# --------------------------------------------------------------------------- demo

DEMO_LETTER = """\
Riverside Family Clinic
1450 Oakwood Avenue, Edmonton, AB T5K 2M4
Tel (780) 555-0142   Fax (780) 555-0199

March 14, 2024

Re: Margaret Ellison   DOB: 07/22/1958   PHN: 9876 54321   MRN: 00448812

Dear Dr. Okafor,

Thank you for seeing Mrs. Ellison, a 65-year-old woman with seropositive rheumatoid
arthritis diagnosed in 2019, now with worsening synovitis of both wrists despite
methotrexate 20 mg weekly and folic acid 1 mg daily. CRP 34 mg/L on 03/02/2024.
She reports a positive family history of Parkinson's disease. Her daughter, Sarah
Ellison, can be reached at sarah.ellison@example.com or 780-555-0173.

Sincerely,
Dr. Thomas Brandt, MD
"""


def cmd_demo(args: argparse.Namespace) -> int:
    from engine.core.domain import Document

    session = _session(args)
    doc = Document.from_text(DEMO_LETTER, id="demo")
    result, deid = session.process(doc)
    print("ClearNote demo: a synthetic referral letter, de-identified offline.\n")
    print(f"Policy: {result.policy}   detectors: {', '.join(result.detectors)}\n")
    print("--- original ---")
    print(doc.text)
    print("--- de-identified ---")
    print(deid.text)
    print("--- findings ---")
    for span in result.active:
        print(f"  {span.label.value:<9} [{span.start:>4}, {span.end:>4})  "
              f"{span.source.value:<10} {span.confidence:.2f}  {span.detector}")
    print("\nNext: `clearnote deid --help`, `clearnote detect --help`.")
    return EXIT_OK


# --------------------------------------------------------------------------- parser

# Subcommands contributed by other modules: each has register(subparsers).
PLUGIN_MODULES: tuple[str, ...] = ("engine.project_cli", "engine.cire_cli",
                                   "engine.training.cli")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="clearnote", description="De-identify clinical documents, entirely offline.")
    parser.add_argument("--version", action="version", version=f"clearnote {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="more log output")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("detect", help="find PHI spans in JSONL documents",
                       description="Read {\"id\",\"text\"} lines; write {\"id\",\"spans\"} "
                                   "lines in the same order.")
    p.add_argument("--input", type=Path, required=True, help="IN.jsonl (- for stdin)")
    p.add_argument("--output", type=Path, required=True, help="OUT.jsonl (- for stdout)")
    _add_detection_options(p)
    p.set_defaults(func=cmd_detect)

    p = sub.add_parser("deid", help="de-identify JSONL documents or files",
                       description="JSONL mode: --input IN.jsonl --output OUT.jsonl. File "
                                   "mode: FILE_OR_DIR... --output-dir DIR.")
    p.add_argument("paths", nargs="*", metavar="FILE_OR_DIR")
    p.add_argument("--input", type=Path, help="IN.jsonl with {\"id\",\"text\"} lines")
    p.add_argument("--output", type=Path, help="OUT.jsonl")
    p.add_argument("--output-dir", type=Path, help="folder for de-identified files")
    p.add_argument("--mode", default="surrogate", choices=["surrogate", "tag", "redact"])
    p.add_argument("--pdf", default="redacted", choices=["redacted", "surrogate-text"],
                   help="what redacted PDFs show over removed text")
    p.add_argument("--password", help="password for encrypted PDFs")
    p.add_argument("--cire", action="store_true",
                   help="add clinical-information-retention flags to the sidecars")
    p.add_argument("--secret-file", type=Path,
                   help="reuse this secret so surrogates stay consistent across runs")
    _add_detection_options(p)
    p.set_defaults(func=cmd_deid)

    p = sub.add_parser("evaluate", help="score predictions against gold annotations")
    p.add_argument("--gold", type=Path, required=True,
                   help="gold JSONL with text and spans (with --project: a folder of JSONL "
                        "and/or BRAT .txt+.ann files)")
    p.add_argument("--pred", type=Path,
                   help="output of `clearnote detect` or `clearnote deid`")
    p.add_argument("--project", type=Path,
                   help="score a project's reviewed spans instead of a --pred file")
    p.add_argument("--ignore-labels", nargs="*", metavar="LABEL",
                   help="gold/predicted labels to leave out (any schema)")
    p.add_argument("--policy", choices=sorted(POLICIES),
                   help="score only the labels that are PHI under this policy")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap rounds for CIs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_evaluate)

    p = sub.add_parser("demo", help="de-identify a built-in synthetic letter")
    _add_detection_options(p)
    p.set_defaults(func=cmd_demo)

    for module_name in PLUGIN_MODULES:
        import importlib

        importlib.import_module(module_name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return func(args)
    except UsageError as exc:
        print(f"clearnote: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("clearnote: cancelled", file=sys.stderr)
        return EXIT_FAILURE
    except ClearNoteError as exc:
        print(f"clearnote: {exc}", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
