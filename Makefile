# Nestor: play locally, or run the checks CI runs.
#
#   make play          npm ci + vendor copy if needed, then serve on http://127.0.0.1:$(PORT)/
#   make test          venv + ruff + mypy + pytest (tests/ and e2e/); what .ci/run runs
#   make site          build dist/: only the files a static host needs
#   make lint | unit | e2e | vendor | clean | distclean
#
# Nothing here is fetched outside the package registries: the browser is Debian's chromium.

PORT     ?= 8000
PYTHON   ?= python3
VENV     ?= .venv
CHROMIUM ?= /usr/bin/chromium
export CHROMIUM                   # read by e2e/conftest.py
PYTEST_ARGS ?=

VPY          := $(VENV)/bin/python
NPM_STAMP    := node_modules/.package-lock.json
VENDOR_STAMP := static/vendor/.stamp
VENV_STAMP   := $(VENV)/.installed
# Type-check the packages that exist (the tree may be partial while it is being built).
MYPY_PATHS    = $(wildcard nestor nestor_web scripts)

.DEFAULT_GOAL := help
.PHONY: help play vendor site venv chromium lint unit e2e test clean distclean

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

# ---------------------------------------------------------------- browser runtime
# npm writes node_modules/.package-lock.json on every install: a free stamp.
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

$(VENDOR_STAMP): $(NPM_STAMP) scripts/vendor.py
	$(PYTHON) scripts/vendor.py
	@touch $@

vendor: $(VENDOR_STAMP)

# The files a static host serves, and nothing else, in dist/.
SITE_FILES := index.html pyscript.json main.py nestor nestor_web static
site: $(VENDOR_STAMP)
	rm -rf dist && mkdir -p dist
	cp -r $(SITE_FILES) dist/
	mkdir -p dist/docs && cp docs/odds.md dist/docs/
	find dist -name __pycache__ -type d -prune -exec rm -rf {} +
	rm -f dist/static/vendor/.stamp
	@echo "dist/ is ready to publish ($$(du -sh dist | cut -f1))"

play: $(VENDOR_STAMP)
	$(PYTHON) scripts/serve.py --host 127.0.0.1 --port $(PORT)

# ---------------------------------------------------------------- python tooling
$(VENV_STAMP): pyproject.toml
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1 $(VPY) -m pip install -q -e '.[test]'
	@touch $@

venv: $(VENV_STAMP)

chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "chromium missing: installing Debian's chromium"; \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	  else \
	    echo "error: $(CHROMIUM) not found. Install Debian's chromium" \
	         "(sudo apt-get install chromium) or pass CHROMIUM=/path/to/chromium." >&2; \
	    exit 1; \
	  fi; \
	fi

# ---------------------------------------------------------------- checks
lint: $(VENV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy $(MYPY_PATHS)

unit: $(VENV_STAMP)
	$(VENV)/bin/pytest tests $(PYTEST_ARGS)

e2e: $(VENV_STAMP) $(VENDOR_STAMP) chromium
	$(VENV)/bin/pytest e2e $(PYTEST_ARGS)

# Runs all three even when one fails, then fails if any did.
test: $(VENV_STAMP) $(VENDOR_STAMP) chromium
	@status=0; \
	echo "== ruff";   $(VENV)/bin/ruff check .              || status=1; \
	echo "== mypy";   $(VENV)/bin/mypy $(MYPY_PATHS)        || status=1; \
	echo "== pytest"; $(VENV)/bin/pytest $(PYTEST_ARGS)     || status=1; \
	if [ $$status -ne 0 ]; then echo "make test: FAILED (see above)" >&2; fi; \
	exit $$status

# ---------------------------------------------------------------- cleanup
clean:
	rm -rf dist static/vendor .pytest_cache .mypy_cache .ruff_cache .hypothesis test-results e2e/artifacts
	find . -name __pycache__ -type d -not -path './node_modules/*' -not -path './$(VENV)/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf node_modules $(VENV) *.egg-info
