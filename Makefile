# 牌局 Paiju — `make run` serves the app, `make test` runs every test, `make serve` serves it for production,
# `DOMAIN=… make serve-https` behind Caddy with a certificate.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PORT ?= 5000
HOST ?= 127.0.0.1
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run serve serve-https install-service caddy test check install install-test chromium translations bench clean axe pyodide

# pip upgraded first: today's pip resolves the project's packages in half the time the pip Python 3.11 ships takes,
# more than paying for its own install; no check for a newer pip (one more question to the index). pip
# byte-compiles what it installs (--no-compile measured slower: the app's first imports then compile beside the
# offline engine's compression); bench/first_page.py times a fresh clone's first page (docs/deploy.md, issue 40)
PIP_INSTALL := $(PY) -m pip install --quiet --disable-pip-version-check

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP_INSTALL) --upgrade pip
	$(PIP_INSTALL) -e .
	@touch $@

$(TEST_STAMP): $(STAMP) pyproject.toml
	$(PIP_INSTALL) -e '.[test]'
	@touch $@

install: $(STAMP)
install-test: $(TEST_STAMP)

# the offline engine (pyodide, from npm) when npm is there, else one line saying offline mode is off
OFFLINE_ENGINE := sh .ci/ensure-pyodide.sh --optional || echo "Offline mode off: pyodide could not be fetched (make pyodide tries again)."

# (make run fetches it beside the server, so the first page does not wait for its 13 MB: the offline switch says
# the server has no engine until its last file is in)
run: $(STAMP)
	@($(OFFLINE_ENGINE)) &
	@$(PY) tools/run_banner.py $(HOST) $(PORT)
	$(VENV)/bin/flask --app webapp run --host $(HOST) --port $(PORT)

# gunicorn with gunicorn.conf.py: workers from the cores, each reading requests whole before a thread
# runs the app (header and body read timeouts); BIND, WEB_CONCURRENCY, DATABASE_URL, TRUSTED_HOSTS,
# PROXY_FIX… from the environment (docs/deploy.md)
SERVE := $(VENV)/bin/gunicorn --config gunicorn.conf.py 'webapp:create_app()'

serve: $(STAMP)
	@$(OFFLINE_ENGINE)
	$(SERVE)

# DOMAIN=paiju.example make serve-https: Caddy (deploy/Caddyfile; Debian's caddy, installed when missing and
# allowed) in front of `make serve`'s gunicorn, in the foreground, gunicorn told it is behind it (TRUSTED_HOSTS,
# PROXY_FIX, PREFERRED_URL_SCHEME); TLS=internal for Caddy's local CA, HTTPS_PORT/HTTP_PORT for other ports
serve-https: $(STAMP)
	@$(OFFLINE_ENGINE)
	@bash deploy/serve-https.sh $(SERVE)

# sudo make install-service DOMAIN=paiju.example: the same as systemd services (deploy/), started now and at boot
install-service:
	@sh deploy/install-service.sh

caddy:
	@sh .ci/ensure-caddy.sh

chromium:
	@sh .ci/ensure-chromium.sh

axe:
	@sh .ci/ensure-axe.sh

pyodide:
	@sh .ci/ensure-pyodide.sh

# every core runs tests (pytest-xdist), each module's tests on one worker so that a module's phone, browser
# page or server is made once, the longest handed out first (tests/conftest.py); TEST_WORKERS=1 for one process
# (one more worker than cores: browser and server tests spend part of their time waiting)
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# each test process would otherwise rewrite the asserts of every module of the plugins' packages (hypothesis,
# schemathesis: about 3 s of CPU a process) and, where the machine sets PYTHONDONTWRITEBYTECODE, compile the app
# and the tests again: the plugins are named instead, and the compiled files kept for the next process
PLUGINS := PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 $(PY) -m pytest -p xdist.plugin -p _hypothesis_pytestplugin \
	-p schemathesis.pytest.plugin
unexport PYTHONDONTWRITEBYTECODE
# the tests' files (their SQLite ledgers among them) on a memory file system where the machine has one: a commit
# there does not wait for the disk (the durability tests kill processes, not the machine)
TEST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm/paiju-tests || echo $${TMPDIR:-/tmp})
PARALLEL := -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder

test: $(TEST_STAMP) chromium axe pyodide caddy
	@mkdir -p $(TEST_TMPDIR)
	TMPDIR=$(TEST_TMPDIR) $(PLUGINS) $(PARALLEL)

# the quick loop before a commit: the engine, the in-process web tests and the design's rules (no browser, no
# server processes, no PostgreSQL, a fifth of the property tests' examples; all of it computing, one worker a
# core); `make test` runs everything
check: $(TEST_STAMP) pyodide
	@mkdir -p $(TEST_TMPDIR)
	TMPDIR=$(TEST_TMPDIR) HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-quick} $(PLUGINS) -n auto --dist loadgroup --no-loadscope-reorder \
		-m "not browser and not postgres and not slow" \
		tests/engine tests/web tests/test_design.py

translations: $(TEST_STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -k _l -o webapp/translations/messages.pot .
	$(VENV)/bin/pybabel update -i webapp/translations/messages.pot -d webapp/translations -l en --no-fuzzy-matching
	$(PY) tools/fill_translations.py

# every benchmark in turn, ending with issue 42's table (each row's figure against its goal); what the parts use
# installed first, as for the tests: RLCard (the bench extra, for peer), Playwright (the test extra) with Debian's
# Chromium (taps, offline, first_visit), the offline engine (offline), valgrind (instructions).
# PARTS=goals for only the parts that measure a row of the table, or any parts by name (bench/__main__.py)
BENCH_STAMP := $(VENV)/.installed-bench
PARTS ?=

$(BENCH_STAMP): $(TEST_STAMP) pyproject.toml
	$(PIP_INSTALL) -e '.[test,bench]'
	@touch $@

bench: $(BENCH_STAMP) chromium pyodide
	@command -v valgrind >/dev/null || sh .ci/apt-install.sh "the bench's instructions part (make bench)" valgrind
	$(PY) -m bench $(PARTS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
