"""ClearNote desktop app (PySide6). The only package that imports Qt.

Layering: views emit signals → controllers (GUI thread) → tasks (QThreadPool) → engine.api.
"""

from desktop.qt_import_hook import install as _install_import_hook

_install_import_hook()
