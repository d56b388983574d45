#!/usr/bin/env bash
# Build the one-folder desktop bundle into dist/ClearNote and smoke-test it offscreen.
# Usage: installer/build.sh   (from the repository root; uses .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
"$PY" -m pip install --disable-pip-version-check -q "pyinstaller>=6.6"
# Portable llama.cpp: no host-specific instructions (only if the LLM extra is used).
if "$PY" -c "import llama_cpp" 2>/dev/null; then
  echo "note: llama-cpp-python is installed; make sure it was built with" \
       "CMAKE_ARGS='-DGGML_NATIVE=OFF' so the bundle runs on other CPUs"
fi
start=$(date +%s)
"$PY" -m PyInstaller --noconfirm --clean --distpath dist --workpath build/pyinstaller \
  installer/clearnote.spec
extras=()
if "$PY" -c "import llama_cpp" 2>/dev/null; then extras+=(--extra llm); fi
"$PY" installer/notices.py dist/ClearNote "${extras[@]}"  # NOTICES.txt + licenses/
# Linux: the Qt xcb libraries a bare Debian lacks, with their copyright files; fails with
# the apt-get line when the build machine lacks one.
"$PY" installer/xcb_libraries.py dist/ClearNote
# Linux: DejaVu Sans, for a system with no fonts (Qt would draw empty boxes).
"$PY" installer/fonts.py dist/ClearNote
echo "build time: $(( $(date +%s) - start )) s; size: $(du -sh dist/ClearNote | cut -f1)"
# Smoke test: launch offscreen, open a project, de-identify a letter, quit.
QT_QPA_PLATFORM=offscreen CLEARNOTE_SMOKE=1 timeout 300 dist/ClearNote/ClearNote --smoke-test
