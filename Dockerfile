FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements/ requirements/
RUN pip install --no-cache-dir -r requirements/base.txt
COPY . .
RUN DJANGO_SETTINGS_MODULE=config.settings.local python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["daphne", "--proxy-headers", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
