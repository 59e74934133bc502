# Schafkopfrennen: `make run` serves the demo, `make test` lints (ruff, import-linter) and runs the whole suite.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1:8000

# Under CI=true the suite runs on PostgreSQL and its worker test against Redis.
ifeq ($(CI),true)
export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/schafkopfrennen
export TEST_CELERY_BROKER_URL ?= redis://127.0.0.1:6379/15
endif
# Elsewhere too, when PostgreSQL answers at 127.0.0.1:5432 (user postgres, no password) and no DATABASE_URL is
# set: the PostgreSQL-only tests then run on a newcomer's machine. Otherwise the suite runs on SQLite, and
# pytest's last lines say what it skipped and why (tests/conftest.py).
LOCAL_PG     := host=127.0.0.1 port=5432 user=postgres dbname=postgres connect_timeout=2
LOCAL_PG_URL := postgres://postgres@127.0.0.1:5432/schafkopfrennen

.PHONY: run test install install-dev migrate demo messages clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py demo

run: demo
	@echo "Serving the demo at http://$(HOST)/ (stop with Ctrl+C)"
	@echo "Organiser console: http://$(HOST)/o/ (demo login: organisator / herbstrennen-demo)"
	$(PY) manage.py runserver $(HOST)

test: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	@if [ -z "$$DATABASE_URL" ] && $(PY) -c 'import psycopg, sys; psycopg.connect(sys.argv[1]).close()' \
	    "$(LOCAL_PG)" 2>/dev/null; then \
	  echo "PostgreSQL answers at 127.0.0.1:5432: the suite runs on it (DATABASE_URL=$(LOCAL_PG_URL))"; \
	  export DATABASE_URL="$(LOCAL_PG_URL)"; \
	elif [ -z "$$DATABASE_URL" ]; then \
	  echo "No PostgreSQL at 127.0.0.1:5432 (user postgres): the suite runs on SQLite; its end lists what it skipped"; \
	fi; \
	echo "$(PY) -m pytest"; $(PY) -m pytest

messages: install-dev
	$(PY) manage.py makemessages -l de -l en --ignore=.venv --ignore=bench --ignore=tests
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .test-db*.sqlite3* staticfiles
