"""`python -m engine.cli`."""

from __future__ import annotations

import sys

from engine.cli.main import main

sys.exit(main())
