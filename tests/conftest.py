from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# The compiled-rules cache goes to a folder of this run, not the tester's home (subprocesses
# of CLI tests inherit it).
if "CLEARNOTE_CACHE_DIR" not in os.environ:
    _CACHE = tempfile.mkdtemp(prefix="clearnote-test-cache-")
    os.environ["CLEARNOTE_CACHE_DIR"] = _CACHE
    atexit.register(shutil.rmtree, _CACHE, True)  # CI runs on one disk; leave nothing behind
