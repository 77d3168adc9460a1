"""Make the site's VAPID key pair (notices/vapid.py) into VAPID_KEYS_FILE, or print one for the
environment of a production site (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from notices import vapid


class Command(BaseCommand):
    help = "Make the VAPID key pair that signs push messages (once: an existing file is kept)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--print", action="store_true", help="print a new pair as environment variables, write nothing"
        )
        parser.add_argument(
            "--replace", action="store_true", help="a new pair (every subscription stops working)"
        )

    def handle(self, *args, **options) -> None:
        if options["print"]:
            pair = vapid.generate()
            self.stdout.write(f"VAPID_PRIVATE_KEY={pair.private}\nVAPID_PUBLIC_KEY={pair.public}")
            return
        path = Path(settings.VAPID_KEYS_FILE)
        if settings.VAPID_PRIVATE_KEY:
            self.stdout.write("The VAPID keys come from the environment; nothing written.")
            return
        if path.exists() and not options["replace"]:
            try:
                vapid.read(path)
            except (ValueError, KeyError) as exc:
                raise CommandError(f"{path} is not a VAPID key file; --replace makes a new one") from exc
            if options["verbosity"] > 1:
                self.stdout.write(f"Keeping the VAPID keys of {path}.")
            return
        vapid.write(path, vapid.generate())
        self.stdout.write(f"VAPID keys written to {path}.")
