"""Store overhead of a project batch: documents/s of `clearnote batch` (project: SQLite
store, surrogate registry, audit) versus the same documents through `clearnote deid`
without a project (a plain Session), both in one process, then the batch on every core.

    .venv/bin/python benchmarks/batch.py [--docs 200] [--ner off] [--fake]

--fake uses the store tests' stand-in pipeline (measures the store alone; overhead then
looks large because detection costs almost nothing).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--ner", default="auto", choices=["auto", "on", "off"])
    parser.add_argument("--fake", action="store_true")
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()

    from engine.batch import default_workers, run_batch
    from engine.pipeline import PipelineConfig
    from engine.project import Project, Services
    from tests.engine.store.fakes import FAKE_SERVICES, letter

    ner: bool | str = {"auto": "auto", "on": True, "off": False}[args.ner]
    config = PipelineConfig(ner=ner)
    services = FAKE_SERVICES if args.fake else Services()
    workers = args.workers or default_workers()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        src = tmp / "in"
        src.mkdir()
        for i in range(args.docs):
            (src / f"doc_{i:04d}.txt").write_text(letter(i).text(i) * 3, encoding="utf-8")

        # Without a project: one Session (pipeline + in-memory surrogates), as `deid` does.
        session = services.session_factory(_session_config(config), None)
        loader, writers = services.loader, services.writers
        from engine.project import ExportJob

        started = time.perf_counter()
        out = tmp / "plain"
        out.mkdir()
        from engine.core.errors import ClearNoteError

        plain_failed = 0
        for path in sorted(src.iterdir()):
            doc = loader(path)
            result = session.detect(doc)
            deid = session.deidentify(doc, result.active)
            job = ExportJob(doc, result.active, deid, session.config.mode)
            try:  # as the batch does: a failed document is counted, the run goes on
                writers["txt"](job, out / f"{doc.id}.deid.txt")
                writers["json"](job, out / f"{doc.id}.json")
            except ClearNoteError:
                plain_failed += 1
        plain = args.docs / (time.perf_counter() - started)

        rates = {}
        for n in (1, workers):
            project = Project.create(tmp / f"p{n}.clearnote", pipeline=config,
                                     services=services, export_formats=("txt", "json"))
            report = run_batch(project, [src], tmp / f"out{n}", workers=n)
            project.close()
            print(report.summary())
            rates[n] = args.docs / report.seconds
    overhead = (plain - rates[1]) / plain * 100
    print(f"documents: {args.docs} ({'fake' if args.fake else 'default'} pipeline, "
          f"ner={args.ner})")
    print(f"plain session, 1 process:   {plain:7.1f} docs/s  ({plain_failed} failed)")
    print(f"project batch, 1 process:   {rates[1]:7.1f} docs/s  (store overhead "
          f"{overhead:+.1f} %)")
    print(f"project batch, {workers} workers:   {rates[workers]:7.1f} docs/s")
    return 0


def _session_config(pipeline):  # noqa: ANN001, ANN202
    from engine.api import SessionConfig

    return SessionConfig(pipeline=pipeline)


if __name__ == "__main__":
    sys.exit(main())
