"""Settings for the test suite; DATABASE_URL and REDIS_URL still choose the real backends."""

from .base import *  # noqa: F403
from .base import BASE_DIR, DATABASES

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, never in-memory SQLite: consumers run their queries on other threads, which would
    # not see an in-memory database's data.
    DATABASES["default"]["NAME"] = str(BASE_DIR / "test-db.sqlite3")
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
# Serve static files from the finders, as in development: tests do not run collectstatic.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
