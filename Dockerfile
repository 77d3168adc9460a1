# The front-end libraries of package.json (chart.js, fast-json-patch) without the test-only ones, as
# `make run` installs them; the pages load them as static files, so no Node.js in the final image.
FROM node:20-slim AS frontend
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements/ requirements/
# PyICU (look-alike usernames, accounts/names.py) builds against Debian's ICU: its headers, pkg-config
# and a compiler for the build only; the ICU library itself stays (marked as wanted before the purge).
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ pkg-config libicu-dev \
 && apt-mark manual $(dpkg-query -W -f '${Package}\n' | grep -E '^libicu[0-9]+$') \
 && pip install --no-cache-dir -r requirements/base.txt \
 && apt-get purge -y --auto-remove g++ pkg-config libicu-dev \
 && rm -rf /var/lib/apt/lists/*
COPY . .
COPY --from=frontend /app/node_modules node_modules
RUN DJANGO_SETTINGS_MODULE=config.settings.local python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["daphne", "--proxy-headers", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
