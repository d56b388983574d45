"""Store overhead of a project batch: documents/s of `clearnote batch` (SQLite store,
surrogate registry, patient links, audit) versus the same documents through
`clearnote deid` without a project (``run_files`` into a ``FolderSink``, the code that
command runs), in one process each, then the batch on every core.

    .venv/bin/python benchmarks/batch.py [--docs 150] [--repeat 10] [--ner off]
    .venv/bin/python benchmarks/batch.py --encrypted   # encrypted vs plain project

With ``--encrypted`` both sides are `clearnote batch`: a plain project against a SQLCipher
one (the key is derived when the project is opened, before the clock starts), which is the
encryption overhead of issue 15 (target: at most 15 %).

Both sides load and warm their pipeline before the clock starts (model loading is the
same for both and not store cost) and write .deid.txt + .json per document. They run in
``--repeat`` adjacent pairs, and the overhead is the median of the pairs' time ratios:
this machine's speed drifts between runs by more than the difference being measured.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--ner", default="auto", choices=["auto", "on", "off"])
    parser.add_argument("--workers", type=int, default=0,
                        help="batch workers for the last run (default: every core)")
    parser.add_argument("--encrypted", action="store_true",
                        help="compare an encrypted project's batch with a plain project's")
    args = parser.parse_args()

    from engine.api import (
        FolderSink,
        ProjectSink,
        Session,
        SessionConfig,
        default_workers,
        load_document,
        run_files,
    )
    from engine.core.context import RunContext
    from engine.pipeline import PipelineConfig
    from engine.project import Project
    from tests.engine.store.fakes import letter

    ner: bool | str = {"auto": "auto", "on": True, "off": False}[args.ner]
    config = PipelineConfig(ner=ner)
    workers = args.workers or default_workers()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        src = tmp / "in"
        src.mkdir()
        for i in range(args.docs):
            (src / f"doc_{i:04d}.txt").write_text(letter(i).text(i) * 3, encoding="utf-8")
        warm_doc = load_document(next(src.iterdir()))

        plain_session = Session(SessionConfig(pipeline=config))
        plain_session.process(warm_doc)
        quiet = RunContext()

        cpu: dict[str, list[float]] = {"plain": [], "batch": []}

        def plain_run(k: int) -> float:
            started, cpu_started = time.perf_counter(), time.process_time()
            report = run_files([src], tmp / f"plain{k}", FolderSink(plain_session),
                               workers=1, ctx=quiet)
            cpu["plain"].append(time.process_time() - cpu_started)
            assert not report.failed, report.summary()
            return args.docs / (time.perf_counter() - started)

        def batch_run(k: int, n_workers: int, passphrase: str | None = None,
                      tag: str = "") -> float:
            project = Project.create(tmp / f"p{k}-{n_workers}{tag}.clearnote",
                                     pipeline=config, export_formats=("txt", "json"),
                                     passphrase=passphrase)
            project.session.detect(warm_doc)  # load the pipeline before the clock starts
            cpu_started = time.process_time()
            report = run_files([src], tmp / f"out{k}-{n_workers}{tag}", ProjectSink(project),
                               workers=n_workers, ctx=quiet)
            if n_workers == 1:
                cpu["plain" if tag == "plain" else "batch"].append(
                    time.process_time() - cpu_started)
            project.close()
            assert report.ok and len(report.outcomes) == args.docs, report.summary()
            return args.docs / report.seconds

        passphrase = "benchmark passphrase" if args.encrypted else None
        if args.encrypted:  # the reference is a plain project's batch, not deid
            def plain_run(k: int) -> float:  # noqa: F811
                return batch_run(k, 1, None, "plain")

        plain_rates, batch_rates, ratios = [], [], []
        for k in range(args.repeat):
            # Adjacent runs share the machine's state; the order alternates so a drift
            # in speed does not favour either side.
            if k % 2 == 0:
                plain_rates.append(plain_run(k))
                batch_rates.append(batch_run(k, 1, passphrase))
            else:
                batch_rates.append(batch_run(k, 1, passphrase))
                plain_rates.append(plain_run(k))
            ratios.append(plain_rates[-1] / batch_rates[-1])
            print(f"pair {k + 1}: plain {plain_rates[-1]:.1f} docs/s, batch "
                  f"{batch_rates[-1]:.1f} docs/s, batch time/plain time {ratios[-1]:.3f}, "
                  f"CPU time {cpu['batch'][-1] / cpu['plain'][-1]:.3f}", flush=True)
        parallel = batch_run(args.repeat, workers, passphrase) if workers > 1 else None

    quartiles = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
    print(f"documents: {args.docs} per run (default pipeline, ner={args.ner}), "
          f"{args.repeat} alternating pairs")
    left, right = (("batch, plain project", "batch, encrypted project") if args.encrypted
                   else ("clearnote deid (no project)", "clearnote batch (project)"))
    print(f"{left:28}, 1 process: {statistics.median(plain_rates):7.1f} docs/s (median)")
    print(f"{right:28}, 1 process: {statistics.median(batch_rates):7.1f} docs/s (median)")
    overhead = "encryption" if args.encrypted else "store"
    print(f"{overhead} overhead (median of pair ratios): "
          f"{(statistics.median(ratios) - 1) * 100:+.1f} %"
          f" time per document, quartiles {(quartiles[0] - 1) * 100:+.1f} % .. "
          f"{(quartiles[2] - 1) * 100:+.1f} %")
    cpu_ratio = statistics.median(b / p for b, p in zip(cpu["batch"], cpu["plain"], strict=True))
    print(f"CPU time (process, all threads), median of pair ratios: {(cpu_ratio - 1) * 100:+.1f} %")
    if parallel is not None:
        print(f"clearnote batch (project), {workers} workers: {parallel:7.1f} docs/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
