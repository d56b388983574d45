from __future__ import annotations

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# The compiled-rules cache goes to a folder of this run, not the tester's home (subprocesses
# of CLI tests inherit it).
os.environ.setdefault("CLEARNOTE_CACHE_DIR", tempfile.mkdtemp(prefix="clearnote-test-cache-"))
