"""Settings for Schafkopfrennen: one module, driven by environment variables.

Without any environment the embedded default serves: a SQLite file next to manage.py,
Celery tasks run in-process, a local-memory cache. Production sets:

- ``DJANGO_SECRET_KEY`` (required when ``DJANGO_DEBUG`` is off), ``DJANGO_DEBUG``,
  ``DJANGO_ALLOWED_HOSTS`` (comma separated), ``DJANGO_CSRF_TRUSTED_ORIGINS``
- ``DATABASE_URL`` (e.g. ``postgres://user:pw@host:5432/db``) or ``POSTGRES_DB``,
  ``POSTGRES_USER``, ``POSTGRES_PASSWORD``, ``POSTGRES_HOST``, ``POSTGRES_PORT``
- ``CELERY_BROKER_URL`` (e.g. ``redis://127.0.0.1:6379/0``): tasks go to real workers
- ``REDIS_CACHE_URL``: a shared cache (needed with several gunicorn workers)
- behind HTTPS: ``DJANGO_SECURE_SSL_REDIRECT=true`` and ``DJANGO_SECURE_HSTS_SECONDS=31536000``
  (``DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS``, ``DJANGO_SECURE_HSTS_PRELOAD``, both on by default)
"""

import datetime
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_DEBUG is off but DJANGO_SECRET_KEY is not set: set DJANGO_SECRET_KEY "
            "to a long random string (e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    SECRET_KEY = "insecure-development-key-only-for-the-embedded-default"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "knox",  # the API's tokens, stored as digests (tournaments/api/auth.py)
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "axes",
    "tournaments",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Per key, like the table API: what the tablet's and player's pages post (not the preview).
    "tournaments.ratelimit.KeyedPostRateLimitMiddleware",
    # Last, as django-axes asks: turns a locked-out login into its answer (the login page, 429).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "schafkopfrennen.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "schafkopfrennen.wsgi.application"


def _prepared(db: dict) -> dict:
    """PostgreSQL binds parameters on the server and prepares a statement a connection has run five
    times: every phone's poll token and every save run the same few statements, and planning them
    again each time is work on the scale of running them."""
    if db.get("ENGINE") == "django.db.backends.postgresql":
        db.setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
    return db


# Database: DATABASE_URL, else POSTGRES_*, else the embedded SQLite file.
def _database() -> dict:
    if os.environ.get("DATABASE_URL"):
        # Connections are kept for a minute and checked before reuse: after a PostgreSQL restart the first
        # request of each web worker reconnects instead of answering 500.
        return _prepared(dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60, conn_health_checks=True))
    if os.environ.get("POSTGRES_DB") or os.environ.get("POSTGRES_HOST"):
        return _prepared(
            {
                "ENGINE": "django.db.backends.postgresql",
                "NAME": os.environ.get("POSTGRES_DB", "schafkopfrennen"),
                "USER": os.environ.get("POSTGRES_USER", "postgres"),
                "PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
                "HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
                "PORT": os.environ.get("POSTGRES_PORT", "5432"),
                "CONN_MAX_AGE": 60,
                "CONN_HEALTH_CHECKS": True,
            }
        )
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
        # A file (not memory) for the test database, so a Celery worker process can share it;
        # one per test process, so two test runs in the same checkout never share one.
        "TEST": {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")},
        # Writers take the lock at BEGIN, so two tablets saving at once queue instead of failing.
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
    }


DATABASES = {"default": _database()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache: local memory unless a Redis cache is configured.
if os.environ.get("REDIS_CACHE_URL"):
    CACHES = {
        "default": {
            "BACKEND": "schafkopfrennen.cache.RedisCache",
            "LOCATION": os.environ["REDIS_CACHE_URL"],
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # not a rule for passwords: told of every password change, it revokes the user's API token
    {"NAME": "tournaments.services.account.TokensRevokedOnPasswordChange"},
]
# Login throttling (django-axes): wrong passwords for one account from one address lock that pair for a
# while. The pair, not the address alone: a whole hall shares one address behind its router, and one
# helper's typos must not lock out the others. The lock lives in the database (no Redis needed).
AUTHENTICATION_BACKENDS = [
    "schafkopfrennen.auth.LoginThrottleBackend",
    "schafkopfrennen.auth.ClubBackend",  # Django's ModelBackend, closed to users of blocked clubs only
]
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("DJANGO_LOGIN_LOCK_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "schafkopfrennen.auth.locked_out"
AXES_VERBOSE = False
# Behind reverse proxies (nginx, Caddy) the client's address is in X-Forwarded-For: say how many proxies.
PROXY_COUNT = int(os.environ.get("DJANGO_PROXY_COUNT", "0") or 0)
AXES_CLIENT_IP_CALLABLE = "schafkopfrennen.auth.client_address"

# E-mail: only when an SMTP host is configured. Then "forgot your password" is offered on the login
# page; without it the login page says whom to ask (DJANGO_ACCOUNT_HELP, e.g. "Sepp Huber, 0171 ...").
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_TLS", True)
else:  # the embedded default: mails (a sign-up's confirmation) are printed on the console
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_EMAIL_FROM", "schafkopfrennen@localhost")
PASSWORD_RESET_BY_EMAIL = bool(EMAIL_HOST)
ACCOUNT_HELP = os.environ.get("DJANGO_ACCOUNT_HELP", "")
# Whom the accessibility statement (/barrierefreiheit/) names for reports of barriers: the instance's operator
# (an address or a name and a number); without it the page names the sender address of the site's mails.
ACCESSIBILITY_CONTACT = os.environ.get("DJANGO_ACCESSIBILITY_CONTACT", "") or DEFAULT_FROM_EMAIL
# The public sign-up form: sendings per address (a family or a club chair signs up a few; a program, hundreds).
SIGNUP_RATE = os.environ.get("DJANGO_SIGNUP_RATE", "20/min")

# A club that registers itself ("Verein anlegen"): "approved" holds it for the operator's approval after it
# confirmed its mail; "open" lets it in as soon as the mail is confirmed; "off" offers no registration.
CLUB_REGISTRATION = os.environ.get("DJANGO_CLUB_REGISTRATION", "approved")
if CLUB_REGISTRATION not in ("approved", "open", "off"):
    raise ImproperlyConfigured("DJANGO_CLUB_REGISTRATION must be approved, open or off")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/o/"
LOGOUT_REDIRECT_URL = "/"

# German first, English second.
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", BASE_DIR / "media"))

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# HTTPS in production: switched on by the environment, off in the embedded default (plain http on a laptop).
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0") or 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts and styles only from our own static files, nothing
# inline, no eval (htmx is told so in base.html). The API docs page relaxes styles for Swagger UI only.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Scripts send "Authorization: Token <key>" (made and revoked on the account page); the browser's
    # own pages use the session. No passwords travel to the API.
    # Token first: a script with a wrong or revoked token gets 401 with "WWW-Authenticate: Token".
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tournaments.api.auth.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Per table key, reads and writes apart (tournaments/api/throttles.py): two phones polling and a reloading
    # player fit the reads; a save is counted only against the writes, which a table never reaches (a game
    # takes a minute). Keys that open nothing: per client address, so guessing is slow.
    "DEFAULT_THROTTLE_RATES": {
        "table_read": os.environ.get("DJANGO_TABLE_READ_RATE", "300/min"),
        "table_write": os.environ.get("DJANGO_TABLE_WRITE_RATE", "120/min"),
        "wrong_key": os.environ.get("DJANGO_WRONG_KEY_RATE", "30/min"),
    },
    # JSON with a bound on nesting (a deep body is a 400, not a RecursionError); forms as DRF has them.
    "DEFAULT_PARSER_CLASSES": [
        "tournaments.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Schafkopfrennen API",
    "DESCRIPTION": "Bavarian Schafkopf tournaments: registrations, seat draws, hands, standings.",
    "VERSION": "1.0.0",
    # The docs page's JavaScript is served from the installed sidecar package, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "SERVE_INCLUDE_SCHEMA": False,
}

# Celery: with no broker everything runs in-process (the embedded default).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker tries to reach a lost broker for ever, once a second (schafkopfrennen/broker.py): Celery's 100
# tries would end it after less than two minutes of a Redis outage.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {"celery.app.trace": {"level": "WARNING"}},
}

# Unchanged polls from phones are answered without the database while PostgreSQL announces no committed
# change (schafkopfrennen/changes.py: one listening connection per web process). Off where LISTEN cannot
# work: through a pooler in transaction mode (PgBouncer's default), which hands the listener's session away.
POLLS_LISTEN = env_bool("DJANGO_POLLS_LISTEN", True)
