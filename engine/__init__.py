"""ClearNote engine: de-identification of clinical documents, offline. Never imports Qt."""

from __future__ import annotations

import os

__version__ = "0.1.0"

# Nothing leaves the machine: onnxruntime's telemetry is off in this process and, through
# the environment, in every process it starts (batch workers, Spark executors), before any
# of them can import onnxruntime. engine.runtimes.onnxruntime() also switches it off by call.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"
