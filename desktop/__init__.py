"""ClearNote desktop app (PySide6). The only package that imports Qt.

Layering: views emit signals → controllers (GUI thread) → tasks (QThreadPool) → engine.api.
"""

