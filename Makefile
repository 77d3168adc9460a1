# The two commands of the README: `make run` and `make test`. Everything else is a helper.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
PORT ?= 8000
HOST ?= 127.0.0.1
DJANGO_SETTINGS_MODULE ?= config.settings.local
export DJANGO_SETTINGS_MODULE

.PHONY: run test lint format migrate e2e clean bench bench-bots messages

$(VENV)/bin/activate:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.base-installed: requirements/base.txt | $(VENV)/bin/activate
	$(PIP) install --quiet -r requirements/base.txt
	touch $@

$(VENV)/.dev-installed: requirements/base.txt requirements/dev.txt | $(VENV)/bin/activate
	$(PIP) install --quiet -r requirements/dev.txt
	touch $@ $(VENV)/.base-installed

node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { echo "npm is needed for the front-end libraries of package.json (apt-get install npm)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

run: $(VENV)/.base-installed node_modules/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py vapid_keys --verbosity 0
	@echo "Serving on http://$(HOST):$(PORT)/ (and the background worker; e-mails print here)"
	HOST=$(HOST) PORT=$(PORT) $(VENV)/bin/supervisord -c supervisord.conf

# Both cores: one worker per core, each test module on one worker (its module-scoped servers and
# fixtures are started once). PYTEST_WORKERS=0 runs the suite in this one process.
PYTEST_WORKERS ?= 2
test: $(VENV)/.dev-installed node_modules/.installed
	DJANGO_SETTINGS_MODULE=config.settings.test $(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The end-to-end journeys alone (tests/e2e/, part of `make test` as well): Debian's chromium must be
# installed, as they fail rather than skip without it. Screenshots: artifacts/screenshots/e2e/.
e2e: $(VENV)/.dev-installed node_modules/.installed
	REQUIRE_BROWSER=1 DJANGO_SETTINGS_MODULE=config.settings.test $(PY) -m pytest -q tests/e2e $(PYTEST_ARGS)

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.dev-installed
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

migrate: $(VENV)/.base-installed
	$(PY) manage.py migrate --noinput

# The live-play load benchmark (docs/BENCHMARKS.md): PostgreSQL and Redis must be running; it creates
# and migrates its own database, starts its own daphne processes and takes about an hour.
# BENCH_ARGS=--quick is a one-minute smoke run that writes nothing to docs/.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/dicehall_loadbench
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/1
bench: $(VENV)/.dev-installed
	BENCH_DATABASE_URL=$(BENCH_DATABASE_URL) BENCH_REDIS_URL=$(BENCH_REDIS_URL) $(PY) -m bench.run $(BENCH_ARGS)

# The computer players' benchmark (docs/BENCHMARKS.md, "Computer players"): seeded solo games at every
# strength on two processes; no services needed. BENCH_BOTS_ARGS=--quick is a smoke run that writes nothing.
bench-bots: $(VENV)/.base-installed
	$(PY) -m bench.bots $(BENCH_BOTS_ARGS)

# The translations (locale/<lang>/LC_MESSAGES): extract every marked string of the templates, the Python
# and static/js, then compile. New strings: wrap them, `make messages`, translate what is empty in the
# .po files, `make messages` again. The compiled .mo files are committed, so that `make run` needs no
# gettext; .ci/check-messages fails when one is stale, untranslated or fuzzy. Needs GNU gettext.
MESSAGES_LANGUAGES := de
MESSAGES_ARGS := --no-location --no-obsolete --ignore='tests/*' --ignore='staticfiles/*' \
	--ignore='artifacts/*' --ignore='bench/*' --ignore='docs/*'
messages: $(VENV)/.base-installed
	@command -v msgfmt >/dev/null || { echo "GNU gettext is needed (apt-get install gettext)"; exit 1; }
	for lang in $(MESSAGES_LANGUAGES); do \
	  $(PY) manage.py makemessages -l $$lang -d django $(MESSAGES_ARGS) && \
	  $(PY) manage.py makemessages -l $$lang -d djangojs $(MESSAGES_ARGS) && \
	  for po in locale/$$lang/LC_MESSAGES/*.po; do msgfmt --check -o $${po%.po}.mo $$po || exit 1; done; \
	done

clean:
	rm -rf $(VENV) node_modules staticfiles db.sqlite3 test-db.sqlite3 .pytest_cache
