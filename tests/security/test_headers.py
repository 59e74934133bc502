"""Security headers: a Content-Security-Policy with no inline script, HSTS and the HTTPS redirect by
environment, and `check --deploy` clean with the production variables set."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>", re.I)
EVENT_HANDLER = re.compile(r"\son[a-z]+\s*=\s*[\"']", re.I)
STYLE_ATTRIBUTE = re.compile(r"\sstyle\s*=\s*[\"']", re.I)
STYLE_ELEMENT = re.compile(r"<style[\s>]", re.I)
HTMX_EVAL = re.compile(r"hx-on[:-]|hx-vals=[\"']js:|hx-trigger=\"[^\"]*\[", re.I)


def _template_files():
    return sorted(p for p in TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize(
    "pattern,what",
    [
        (INLINE_SCRIPT, "an inline <script> (move it to static/js/)"),
        (EVENT_HANDLER, "an inline event handler (use static/js/app.js: data-confirm, data-no-submit)"),
        (STYLE_ATTRIBUTE, "a style attribute (use a class in static/css/)"),
        (STYLE_ELEMENT, "a <style> element (use static/css/)"),
        (HTMX_EVAL, "htmx code that needs eval (hx-on, js: values, trigger filters)"),
    ],
)
def test_no_template_needs_what_the_policy_forbids(pattern, what):
    offenders = [
        f"{p.relative_to(ROOT)}:{s.count(chr(10), 0, m.start()) + 1}"
        for p in _template_files()
        for s in [p.read_text()]
        for m in pattern.finditer(s)
    ]
    assert not offenders, f"{what}: " + ", ".join(offenders)


@pytest.mark.django_db
def test_pages_carry_a_policy_without_inline_script_or_eval(client):
    from tournaments.services.demo import demo_create

    demo_create()
    for url in ["/", "/t/herbstrennen/", "/t/herbstrennen/sitzplan/", "/t/herbstrennen/rangliste/", "/accounts/login/"]:
        response = client.get(url)
        assert response.status_code == 200, url
        policy = response["Content-Security-Policy"]
        directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
        assert directives["script-src"] == "'self'", (url, policy)
        assert directives["style-src"] == "'self'", (url, policy)
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"
        assert "unsafe" not in policy, (url, policy)


@pytest.mark.django_db
def test_only_the_api_docs_relax_styles_for_swagger_ui(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert not INLINE_SCRIPT.search(html), "Swagger UI's setup script must come as a file"
    policy = response["Content-Security-Policy"]
    assert "script-src 'self';" in policy + ";" and "'unsafe-inline'" in policy.split("style-src")[1].split(";")[0]
    script = client.get("/api/docs/?script")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")


def _production_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "CI"))}
    env.update(
        DJANGO_SETTINGS_MODULE="schafkopfrennen.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="schafkopf.example.org",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://schafkopf.example.org",
        DJANGO_SECURE_SSL_REDIRECT="true",
        DJANGO_SECURE_HSTS_SECONDS="31536000",
    )
    env.update(extra)
    return env


def test_check_deploy_is_clean_with_the_production_variables():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_names_the_missing_https_variables():
    env = _production_env()
    del env["DJANGO_SECURE_SSL_REDIRECT"], env["DJANGO_SECURE_HSTS_SECONDS"]
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert "security.W004" in result.stderr + result.stdout  # HSTS
    assert "security.W008" in result.stderr + result.stdout  # SSL redirect


def test_https_settings_follow_the_environment():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS)"
    )
    on = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=_production_env(), capture_output=True, text=True)
    assert on.stdout.split() == ["True", "31536000", "True"], on.stderr
    off_env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_SECURE")}
    off_env["DJANGO_SETTINGS_MODULE"] = "schafkopfrennen.settings"
    off = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=off_env, capture_output=True, text=True)
    assert off.stdout.split()[:2] == ["False", "0"], off.stderr


@pytest.mark.django_db
def test_hsts_and_redirect_when_switched_on(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 31536000
    response = client.get("/")
    assert response.status_code == 301 and response["Location"].startswith("https://")
    secure = client.get("/", secure=True)
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
