# Kafka Partition Lab — the two set-up commands of README.md are `make start` and `make test`.
# Both create .venv (once; again only when requirements.txt changes) and are idempotent.
# Test tiers (CONTRIBUTING.md): `make check` before every commit (lint, types, every test without a page run,
# a browser, Spark or a real-time wait), `make test` = CI (everything), `make bench` (performance targets).
SHELL := /bin/bash
VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell sha256sum requirements.txt 2>/dev/null | cut -c1-16)
PORT  ?= 8501
ADDRESS ?= 127.0.0.1  # only this machine; ADDRESS=0.0.0.0 serves a room (see README: Running a workshop)
export PYSPARK_PYTHON := $(abspath $(PY))
export PYSPARK_DRIVER_PYTHON := $(abspath $(PY))

# pytest-xdist: a module (or a class) per unit of work, the longest handed out first (tests/conftest.py); make check
# runs a process per core, make test one more: its browser, Spark and librdkafka units spend much of their time
# waiting (a page drawing, a JVM starting, a rebalance timer), and the extra process works meanwhile
PYTEST := $(PY) -m pytest --dist loadscope --no-loadscope-reorder
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
# the tiers are folders: make check leaves out the ones that run pages, Chromium or Spark, and the slow marker
CHECK_ARGS := tests --ignore=tests/pages --ignore=tests/browser --ignore=tests/spark -m "not slow"
# pytest's exit 5 (nothing collected) is a failure, never a green run
NO_TESTS_IS_FAILURE = rc=$$?; if [ $$rc -eq 5 ]; then echo "error: pytest collected no tests" >&2; exit 1; fi; exit $$rc

.PHONY: start check test lint chromium bench conformance messages

$(STAMP): requirements.txt
	@python3 -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed, found " + sys.version.split()[0]'
	@command -v java >/dev/null || echo "warning: no java on PATH; the Spark load pipeline needs Java 17"
	@test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -r requirements.txt
	@rm -f $(VENV)/.installed-* && touch $@

start: $(STAMP)
	$(PY) -m streamlit run app.py --server.port $(PORT) --server.address $(ADDRESS)

chromium:
	@{ test -x /usr/bin/chromium && test -d /usr/share/fonts/opentype/noto && test -x /usr/sbin/nginx; } || { \
	  echo "installing Debian's chromium and CJK fonts (browser tests) and nginx (a room behind a proxy)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium fonts-noto-cjk nginx; }

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

check: $(STAMP) lint
	@$(PYTEST) -n auto $(CHECK_ARGS); $(NO_TESTS_IS_FAILURE)

test: $(STAMP) chromium lint
	@$(PYTEST) -n $(TEST_WORKERS) --durations=15; $(NO_TESTS_IS_FAILURE)

bench: $(STAMP)
	$(PY) -m bench

conformance: $(STAMP)
	$(PY) ../shared/tools/conformance.py --python $(PY)

messages: $(STAMP)  # refresh the gettext template and the Chinese catalogue from the code (then translate new entries)
	$(VENV)/bin/pybabel extract -F babel.cfg -k _ -o locales/messages.pot --no-location --sort-output -w 120 .
	$(VENV)/bin/pybabel update -i locales/messages.pot -d locales -l zh --no-fuzzy-matching -w 120 --ignore-obsolete
