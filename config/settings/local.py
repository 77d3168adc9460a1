"""Development settings: `make run` on the embedded default."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DEBUG", default=True)
WHITENOISE_AUTOREFRESH = DEBUG
