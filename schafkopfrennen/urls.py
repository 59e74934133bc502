from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import auth

# Swagger UI: its script comes as a separate request (no inline script); its widgets set inline styles.
api_docs = csp_update({"style-src": [SELF, UNSAFE_INLINE]})(SpectacularSwaggerSplitView.as_view(url_name="schema"))

urlpatterns = [
    path("api/", include("tournaments.api.urls")),  # first: every game of an evening is resolved through it
    path("admin/", admin.site.urls),
    # Django's account URLs, with our login (it says how to get a new password) and a password reset
    # that exists only when e-mail is configured.
    path("accounts/login/", auth.LoginView.as_view(), name="login"),
    path("accounts/password_reset/", auth.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password_reset/done/", auth.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", auth.PasswordResetConfirmView.as_view(), name="password_reset_confirm"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api_docs, name="api_docs"),
    path("", include("tournaments.urls")),
]
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
