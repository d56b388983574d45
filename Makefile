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

run: $(STAMP)
	$(PY) -m desktop.app

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
