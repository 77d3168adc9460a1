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
RUN pip install --no-cache-dir -r requirements/base.txt
COPY . .
COPY --from=frontend /app/node_modules node_modules
RUN DJANGO_SETTINGS_MODULE=config.settings.local python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["daphne", "--proxy-headers", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
