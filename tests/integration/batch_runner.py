"""Runs one `clearnote batch`-equivalent in a child process for the kill test:
python batch_runner.py PROJECT IN_DIR OUT_DIR WORKERS. Uses the real rules-only pipeline,
surrogates and exporters when they are installed, the store test fakes otherwise."""

from __future__ import annotations

import sys
from pathlib import Path


def services_and_config():  # noqa: ANN201
    try:
        import engine.detectors.regex  # noqa: F401
        import engine.exporters  # noqa: F401
        from engine.surrogates import Surrogator  # noqa: F401
    except ImportError:
        from tests.engine.store.fakes import FAKE_SERVICES

        return FAKE_SERVICES, None
    from engine.pipeline import PipelineConfig
    from engine.project import Services

    return Services(), PipelineConfig(ner=False)


def main() -> int:
    from engine.project import Project
    from engine.runs.driver import run_files
    from engine.runs.project import ProjectSink

    project_path, in_dir, out_dir, workers = sys.argv[1:5]
    services, pipeline = services_and_config()
    path = Path(project_path)
    if path.exists():
        project = Project.open(path, services=services)
    else:
        project = Project.create(path, pipeline=pipeline, services=services,
                                 export_formats=("txt", "json"))
    report = run_files([Path(in_dir)], Path(out_dir), ProjectSink(project),
                       workers=int(workers))
    print(report.summary(), flush=True)
    project.close()
    return 0 if not report.failed and not report.cancelled else 1


if __name__ == "__main__":
    sys.exit(main())
