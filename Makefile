# Nestor: play locally, or run the checks CI runs.
#
#   make play          set up if needed (make vendor), then serve on http://127.0.0.1:$(PORT)/
#   make test          venv + ruff + mypy + unit tests + browser tests in Chromium, in parallel
#                      workers, each phase timed (under 6 minutes on 2 cores); .ci/run runs it,
#                      then make test-engines
#   make test-engines  the smoke tier in Firefox ESR and WebKitGTK (e2e/test_engines.py)
#   make test-twice    the browser tests twice, each in a random order (the flake gate)
#   make site          build dist/: only the files a static host needs (netlify.toml runs it)
#   make vendor        the setup step: npm ci, copy the runtime to static/vendor/, build its
#                      standard library (trimmed to what the game imports, compiled to
#                      bytecode), compile the message catalogs, zip our modules
#                      (static/nestor.zip.gz), render the icons, build the service worker (sw.js)
#   make measure       first-visit bytes with and without the service worker, offline reload
#   make bench-move    a pairing tap in Chromium, release to board updated (not part of make test)
#   make bench-boot    start-up (first board, input, bytes) beside bare Pyodide (not in make test)
#   make bench-first-visit  a first and a return visit over a link held to 9 and 1.6 Mbit/s
#                      (nginx with gzip, a network namespace; root), beside bare Pyodide
#   make lighthouse    Lighthouse scores, mobile and desktop presets (not part of make test)
#   make bench-worker  Python in PyScript's worker mode beside the main thread: boot, blocking
#                      time, taps, one DOM call over the bridge (not part of make test)
#   make bench-review  reviewing 200 finished games per variant, CPython and Chromium, beside
#                      one solve of the deal (not part of make test)
#   make grade-table   the difficulty grades over the first deals of every variant: cut points
#                      and the table of docs/odds.md (not part of make test; ½ to 1½ hours)
#   make graded-deals  the grades shipped with the game (nestor/graded_deals.bin) written again;
#                      make graded-deals-check grades each of its 50,000 deals again
#   make puzzles       the shipped puzzles (nestor/puzzles/puzzles.txt) written again from real
#                      deals; make puzzles-check examines every one of them again
#   make bench-grade   New deal of a grade in Chromium, click to the deal's grade shown, beside
#                      New deal of any deal (not part of make test)
#   make test-slow     the slow checks make test leaves out (the solver's whole-deal oracle),
#                      the property tests with twice the examples (Hypothesis "thorough"), and
#                      the browser tests marked slow (every bad link, the whole layout audit)
#   make bench-tabs    a storage event and a BroadcastChannel message between two tabs: arrival
#                      and latency, a frozen tab; a pair in one game tab to the other's board
#   make test-soak     the browser killed at several moments after a move (crash-proof saving),
#                      and the soak of 1,000 random actions checked against a model
#   make lint | unit | e2e | clean | distclean
#
# Nothing here is fetched outside the package registries: the browsers are Debian's chromium,
# and for the smoke tier in two other engines (e2e/test_engines.py) firefox-esr and
# webkit2gtk-driver (WebKitGTK's MiniBrowser) with xvfb; make test-engines and make e2e
# install what is missing when run as root (make engines).

PORT     ?= 8000
PYTHON   ?= python3
VENV     ?= .venv
CHROMIUM ?= /usr/bin/chromium
export CHROMIUM                   # read by e2e/conftest.py
PYTEST_ARGS ?=
E2E_WORKERS ?=
export PYTEST_ARGS VENV E2E_WORKERS  # read by scripts/run_checks.py
BENCH_ARGS  ?=
LIGHTHOUSE_ARGS ?=

# Up to one recipe per core at once: on a fresh clone npm ci runs beside pip, the icons and the
# standard library beside the catalogs (the set-up took 36 s one step after another on 2 cores).
MAKEFLAGS += --jobs=$(shell nproc 2>/dev/null || echo 2)

VPY          := $(VENV)/bin/python
NPM_STAMP    := node_modules/.package-lock.json
VENDOR_STAMP := static/vendor/.stamp
ICON_STAMP   := static/icons/.stamp
VENV_STAMP   := $(VENV)/.installed
BUILD_STAMP  := $(VENV)/.build-installed
CATALOG_STAMP := locale/.stamp
# What sw.js precaches (scripts/build_sw.mjs): when one of these changes, sw.js is rebuilt.
SW_INPUTS    = index.html main.py pyscript.toml static/nestor.zip.gz scripts/build_sw.mjs \
               $(wildcard static/css/* static/js/* static/manifest.webmanifest docs/odds.md)
# Type-check the packages that exist (the tree may be partial while it is being built).
MYPY_PATHS    = $(wildcard nestor nestor_web scripts)

.DEFAULT_GOAL := help
.PHONY: help play vendor site venv chromium engines lint unit e2e test test-engines test-twice test-slow test-soak measure bench-move \
        bench-boot bench-first-visit bench-worker bench-tabs bench-review bench-grade graded-deals \
        graded-deals-check puzzles puzzles-check lighthouse clean distclean

help:
	@sed -n '1,/^$$/p' Makefile | sed 's/^# \{0,1\}//'

# ---------------------------------------------------------------- browser runtime
# npm writes node_modules/.package-lock.json on every install: a free stamp. The build tools
# (workbox-build, resvg) are devDependencies: install them even where NODE_ENV=production.
$(NPM_STAMP): package.json package-lock.json
	npm ci --include=dev --no-audit --no-fund
	@touch $@

$(VENDOR_STAMP): $(NPM_STAMP) scripts/vendor.py
	$(PYTHON) scripts/vendor.py
	@touch $@

# The standard library the page loads: Pyodide's zip without the modules the game never imports
# (scripts/trim_stdlib.py says what is kept; it scans our code, hence the .py prerequisites),
# compiled to bytecode by the vendored Pyodide itself (scripts/compile_stdlib.mjs), so no boot
# compiles a stdlib module from source. --optimize 2 leaves out docstrings and asserts, as
# `python -OO` does: 0.27 MB less to download.
STDLIB       := static/vendor/pyodide/python_stdlib.zip
STDLIB_SRC   := build/python_stdlib.trimmed.zip
$(STDLIB): $(VENDOR_STAMP) scripts/trim_stdlib.py scripts/compile_stdlib.mjs main.py \
           scripts/pyscript_config.py \
           $(shell find nestor nestor_web -name '*.py' -not -path '*__pycache__*')
	$(PYTHON) scripts/trim_stdlib.py --output $(STDLIB_SRC)
	node scripts/compile_stdlib.mjs $(STDLIB_SRC) $@ --optimize 2

# PNG icons (192, 512, maskable 512, Apple 180) rendered from the one SVG drawing.
$(ICON_STAMP): $(NPM_STAMP) static/icons/icon.svg scripts/build_icons.mjs
	node scripts/build_icons.mjs
	@touch $@

# The service worker for the repo root (make play, the browser tests).
# The compiled message catalogs (locale/<lang>/LC_MESSAGES/nestor.mo) that pyscript.toml ships.
$(CATALOG_STAMP): $(BUILD_STAMP) $(wildcard locale/*/LC_MESSAGES/*.po) scripts/locales.py
	$(VPY) scripts/locales.py compile
	@touch $@

# The page shell's words from the catalogs: English in index.html, every language in
# static/js/texts.js; and a first visit's board and guide, drawn by the view code, in
# static/js/first-visit.js (scripts/build_shell.py; tests/test_shell.py fails when they are stale).
SHELL_STAMP  := static/js/.texts-stamp
$(SHELL_STAMP): $(CATALOG_STAMP) scripts/build_shell.py \
                $(shell find nestor nestor_web -name '*.py' -not -path '*__pycache__*')
	$(VPY) scripts/build_shell.py
	@touch $@

# The archive of our modules (their bytecode alone, written by the vendored Pyodide) and
# catalogs that pyscript.toml ships, and the config itself (scripts/pyscript_config.py;
# serve.py --rebuild-sw writes them again after an edit too).
ARCHIVE      := static/nestor.zip.gz
$(ARCHIVE): scripts/pyscript_config.py scripts/compile_stdlib.mjs $(NPM_STAMP) $(CATALOG_STAMP) \
            $(shell find nestor nestor_web \( -name '*.py' -o -name '*.bin' -o -name '*.txt' -o -type d \) \
                    -not -path '*__pycache__*')
	$(PYTHON) scripts/pyscript_config.py

sw.js: $(VENDOR_STAMP) $(STDLIB) $(ICON_STAMP) $(CATALOG_STAMP) $(ARCHIVE) $(SHELL_STAMP) $(SW_INPUTS)
	node scripts/build_sw.mjs

vendor: $(VENDOR_STAMP) $(STDLIB) $(CATALOG_STAMP) $(ICON_STAMP) $(ARCHIVE) $(SHELL_STAMP) sw.js

# The files a static host serves, and nothing else, in dist/, with a service worker of its own.
site: vendor
	$(PYTHON) scripts/build_site.py dist

# serve.py rebuilds a stale sw.js when the page asks for it: edit, reload, accept the notice.
play: vendor
	$(PYTHON) scripts/serve.py --host 127.0.0.1 --port $(PORT) --rebuild-sw

# ---------------------------------------------------------------- python tooling
# The test tools through uv (installed first by pip, pinned): on a fresh clone the install took
# 7 s instead of pip's 17 s, uv's cache empty. --native-tls: the system's certificates, as pip's.
UV_VERSION   := 0.13.8
$(VENV_STAMP): pyproject.toml
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1 $(VPY) -m pip install -q uv==$(UV_VERSION)
	$(VENV)/bin/uv pip install -q --native-tls --python $(VPY) -e '.[test]'
	@touch $@

# What the build alone needs (Babel for the catalogs): `make site` on a host installs no more.
# A goal that installs the test tools (Babel among them) installs them first, and this step has
# nothing left to do: two pip runs at once would write into one environment.
TOOL_GOALS   := venv lint unit e2e test test-engines test-twice test-slow test-soak measure lighthouse \
                bench-move bench-boot bench-first-visit bench-worker bench-tabs bench-review
$(BUILD_STAMP): pyproject.toml | $(if $(filter $(TOOL_GOALS),$(MAKECMDGOALS)),$(VENV_STAMP))
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	@if [ $(VENV_STAMP) -nt pyproject.toml ]; then :; else \
	  echo "PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1 $(VPY) -m pip install -q -e '.[build]'"; \
	  PIP_NO_INPUT=1 PIP_DISABLE_PIP_VERSION_CHECK=1 $(VPY) -m pip install -q -e '.[build]'; \
	fi
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

# The other two engines of the browser tests' smoke tier (e2e/test_engines.py): Firefox ESR,
# driven by puppeteer-core (package.json), and WebKitGTK, driven by Selenium (pyproject.toml)
# under Xvfb. After chromium: two apt-get runs at once would fight over dpkg's lock.
ENGINE_PACKAGES := firefox-esr:/usr/bin/firefox-esr webkit2gtk-driver:/usr/bin/WebKitWebDriver \
                   xvfb:/usr/bin/Xvfb
engines: chromium
	@missing=""; for entry in $(ENGINE_PACKAGES); do \
	  [ -x "$${entry#*:}" ] || missing="$$missing $${entry%%:*}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "missing for the browser tests in Firefox and WebKit:$$missing: installing them"; \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; \
	  else \
	    echo "error: the browser tests in Firefox and WebKit need Debian's$$missing." \
	         "Install them: sudo apt-get install -y$$missing" >&2; \
	    exit 1; \
	  fi; \
	fi

# ---------------------------------------------------------------- checks
lint: $(VENV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy $(MYPY_PATHS)

unit: $(VENV_STAMP)
	$(VENV)/bin/pytest -n auto tests $(PYTEST_ARGS)

# The unit tests marked slow, which pytest leaves out by default (pyproject.toml: -m "not
# slow"), every other unit test under the thorough Hypothesis profile (tests/profiles.py), then
# the browser tests marked slow.
test-slow: $(VENV_STAMP) vendor chromium
	$(PYTHON) scripts/run_checks.py slow

# The browser killed at six moments after a move, and the soak of 1,000 random actions
# (make test runs 15 actions of the soak; the kills only here).
test-soak: $(VENV_STAMP) vendor chromium
	$(PYTHON) scripts/run_checks.py soak

e2e: $(VENV_STAMP) vendor chromium engines
	$(VENV)/bin/pytest -n auto e2e $(PYTEST_ARGS)

measure: $(VENV_STAMP) vendor chromium
	$(VENV)/bin/python scripts/measure_offline.py

# Prints median, p95 and max of click -> board updated over 20 winning lines, three settings,
# beside a no-op Python handler (the floor); it never fails on a time. Several minutes.
bench-move: $(VENV_STAMP) vendor chromium
	$(VENV)/bin/python bench/move_latency.py

# The game's start-up, cold, warm (under its service worker) and first visit, beside a bare
# Pyodide boot (bench/floor/), 5 rounds interleaved; prints the table, the issue's ratio lines and
# the boot phases. It never fails on a time. Several minutes.
bench-boot: $(VENV_STAMP) vendor chromium
	$(VENV)/bin/python bench/boot.py $(BENCH_ARGS)

# A first visit over a real link: the site as a host publishes it (build/bench-site/, the
# floor page beside it) served by Debian's nginx (gzip, netlify.toml's headers) in a network
# namespace whose loopback tc-tbf holds to 9 Mbit/s, then to 1.6 Mbit/s with the CPU slowed 4x;
# first card painted, ready and bytes on the wire, first and return visits, beside bare Pyodide
# (bench/first_visit.py). Root only (the namespace). It never fails on a time. 10-15 minutes;
# BENCH_ARGS="--quick --rounds 1" for a look at 9 Mbit/s.
NGINX        ?= /usr/sbin/nginx
bench-first-visit: $(VENV_STAMP) vendor chromium
	@if [ ! -x "$(NGINX)" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "nginx missing: installing Debian's nginx-light"; \
	    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nginx-light; \
	  else \
	    echo "error: $(NGINX) not found. Install Debian's nginx-light" \
	         "(sudo apt-get install nginx-light); the bench itself needs root too." >&2; \
	    exit 1; \
	  fi; \
	fi
	$(VENV)/bin/python bench/first_visit.py $(BENCH_ARGS)

# Main.py in PyScript's worker mode (a variant built in a temporary folder,
# with COOP + COEP headers) beside the normal page, interleaved: time to data-ready, the main
# thread's long tasks (blocking time), the first tap, the pairing tap, one DOM call from Python.
# It never fails on a time. A few minutes.
bench-worker: $(VENV_STAMP) vendor chromium
	$(VENV)/bin/python bench/worker_mode.py $(BENCH_ARGS)

bench-tabs: $(VENV_STAMP) vendor chromium
	$(VENV)/bin/python bench/tab_events.py $(BENCH_ARGS)

# The game review (nestor.review) over 200 finished games per variant (random, greedy
# and careful players, seeded), median, p95 and worst ms per game in CPython and in the page's
# Pyodide (whole and in 8 ms slices), beside one solve of the deal in the same run. It never
# fails on a time. Several minutes. BENCH_ARGS="--games 50" for a quicker look.
bench-review: $(VENV_STAMP) vendor chromium
	$(VENV)/bin/python bench/review.py --browser $(BENCH_ARGS)

# New deal of a grade (drawn from nestor/graded_deals.bin) in Chromium with a profile on
# disk, click to the deal's grade shown, beside New deal of any deal (the floor) and the grade of
# such a deal worked out in the page. It never fails on a time. A few minutes.
bench-grade: $(VENV_STAMP) vendor chromium
	$(VENV)/bin/python bench/grade.py $(BENCH_ARGS)

# The difficulty grades (nestor/grade.py) of deals 0..D-1 of every variant, graded and
# played once by each strategy (scripts/grade_table.py): the cut points (terciles of the score
# among the winnable deals) and the tables of docs/odds.md, "Difficulty grades". Both cores,
# at the lowest priority. The full run (D = 10,000) takes about half an hour on 2 cores, up to
# an hour and a half beside other work: GRADE_ARGS="--deals 10000 --rows grades.jsonl --write"
# (--write stores the cut points). GRADE_ARGS="--deals 400" for a look (about a minute).
GRADE_ARGS ?=
.PHONY: grade-table
grade-table: $(VENV_STAMP)
	nice -n 19 $(VENV)/bin/python scripts/grade_table.py $(GRADE_ARGS)

# The grades shipped with the game (nestor/graded_deals.bin, New deal's Easy,
# Medium and Hard), deals 0..9,999 of every variant graded by the engine (about 10 minutes on
# 2 cores; GRADE_ARGS="--from-rows grades.jsonl" writes them from a grade-table run's rows).
# tests/test_graded_deals.py checks a sample and the cut points in make test;
# graded-deals-check grades every deal of the table again.
graded-deals: $(VENV_STAMP)
	nice -n 19 $(VENV)/bin/python scripts/grade_table.py --deals 10000 --table $(GRADE_ARGS)

graded-deals-check: $(VENV_STAMP)
	nice -n 19 $(VENV)/bin/python scripts/grade_table.py --check

# The puzzles shipped with the game (nestor/puzzles/puzzles.txt): deals of each open variant
# played as a beginner plays them until 300 puzzle moments per variant are met
# (scripts/puzzle_table.py; several minutes on 2 cores). tests/test_puzzles.py proves a sample
# with other searches in make test, every one in make test-slow; puzzles-check examines every
# one again with the code that found it.
PUZZLE_ARGS ?=
puzzles: $(VENV_STAMP)
	nice -n 19 $(VENV)/bin/python scripts/puzzle_table.py $(PUZZLE_ARGS)

puzzles-check: $(VENV_STAMP)
	nice -n 19 $(VENV)/bin/python scripts/puzzle_table.py --check

# The npm package lighthouse (bench/package.json's, pinned by bench/package-lock.json and
# installed into bench/node_modules here only: a fresh clone's npm ci for make play and make test
# took 11 s without it, 15 s with it) on the site served on 127.0.0.1, a first visit in a fresh
# profile each run: the four category scores and LCP, TBT, CLS per preset.
BENCH_NPM_STAMP := bench/node_modules/.package-lock.json
$(BENCH_NPM_STAMP): bench/package.json bench/package-lock.json
	npm ci --prefix bench --include=dev --no-audit --no-fund
	@touch $@

lighthouse: $(VENV_STAMP) vendor chromium $(BENCH_NPM_STAMP)
	CHROME_PATH=$(CHROMIUM) $(VENV)/bin/python bench/lighthouse.py $(LIGHTHOUSE_ARGS)

# Every phase runs even when one fails, each timed (scripts/run_checks.py); fails if any did.
test: $(VENV_STAMP) vendor chromium
	$(PYTHON) scripts/run_checks.py test

# The game played in Firefox ESR and WebKitGTK, each in one session (about a minute).
test-engines: $(VENV_STAMP) vendor chromium engines
	$(PYTHON) scripts/run_checks.py engines

# The browser tests twice in a row, each in a random order of its own (pytest-random-order,
# the seeds printed): the flake gate.
test-twice: $(VENV_STAMP) vendor chromium
	$(PYTHON) scripts/run_checks.py twice

# ---------------------------------------------------------------- cleanup
clean:
	rm -rf dist static/vendor .pycache .pytest_cache .mypy_cache .ruff_cache .hypothesis test-results e2e/artifacts
	rm -f sw.js workbox-*.js $(ARCHIVE) $(STDLIB_SRC) static/icons/*.png $(ICON_STAMP) $(CATALOG_STAMP) $(SHELL_STAMP) locale/*/LC_MESSAGES/*.mo
	find . -name __pycache__ -type d -not -path './node_modules/*' -not -path './$(VENV)/*' -prune -exec rm -rf {} +

distclean: clean
	rm -rf node_modules bench/node_modules $(VENV) *.egg-info
