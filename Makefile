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

# The demo is served as production serves (DEBUG off: a mistyped address shows the project's own 404 page, not
# Django's debug page; the static files collected and served by WhiteNoise), over plain http on this machine.
# HOST=8105 or HOST=0.0.0.0:8000 (reachable from the phones in the hall) serve elsewhere. The secret key is made
# once per checkout (.secret-key, never committed).
run: demo
	@test -s .secret-key || $(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > .secret-key
	@host="$(HOST)"; case "$$host" in *:*) ;; *) host="127.0.0.1:$$host" ;; esac; \
	name="$${host%:*}"; port="$${host##*:}"; allowed="$$name,127.0.0.1,localhost,[::1]"; shown="$$host"; \
	case "$$name" in 0.0.0.0|"[::]") allowed="*"; \
	  shown="$$($(PY) -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(("192.0.2.1", 9)); print(s.getsockname()[0])' 2>/dev/null || echo 127.0.0.1):$$port" ;; \
	esac; \
	export DJANGO_DEBUG=false DJANGO_SECRET_KEY="$$(cat .secret-key)" DJANGO_SECURE_COOKIES=false \
	  DJANGO_ALLOWED_HOSTS="$$allowed"; \
	$(PY) manage.py collectstatic --noinput --verbosity 0 && \
	echo "Serving the demo at http://$$shown/ (another address: make run HOST=0.0.0.0:8000; stop with Ctrl+C)" && \
	echo "Organiser console: http://$$shown/o/ (demo login: organisator / herbstrennen-demo)" && \
	exec $(PY) manage.py runserver "$$host"

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
	rm -rf $(VENV) .pytest_cache .test-db*.sqlite3* staticfiles .secret-key
