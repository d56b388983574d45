# The two commands a newcomer needs: `make run` and `make test`.
# Both create or refresh .venv when pyproject.toml changed, and are fast otherwise.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.clearnote-installed

.PHONY: run demo test lint bench bundle clean-venv

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -e '.[dev]'
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
