from django.conf import settings
from django.conf.urls.static import static
from django.contrib import admin
from django.urls import include, path
from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_update
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

# Swagger UI: its script comes as a separate request (no inline script); its widgets set inline styles.
api_docs = csp_update({"style-src": [SELF, UNSAFE_INLINE]})(SpectacularSwaggerSplitView.as_view(url_name="schema"))

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", api_docs, name="api-docs"),
    path("api/", include("tournaments.api.urls")),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
]
if settings.DEBUG:
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)
