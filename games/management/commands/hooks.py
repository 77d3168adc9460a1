"""Every hook (infra.hooks) and its handlers, as the apps registered them in their AppConfig.ready: the
list docs/effects.md shows between its markers (``--write`` rewrites it there, ``--check`` fails when
the page says otherwise)."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from infra import hooks

PAGE = Path("docs") / "effects.md"


class Command(BaseCommand):
    help = "Print every hook and its handlers; --write puts the list in docs/effects.md, --check compares."

    def add_arguments(self, parser):
        action = parser.add_mutually_exclusive_group()
        action.add_argument("--write", action="store_true", help=f"Rewrite the list in {PAGE}.")
        action.add_argument("--check", action="store_true", help=f"Fail when {PAGE}'s list is not this one.")

    def handle(self, *args, write=False, check=False, **options):
        listing = hooks.markdown()
        page = Path(settings.BASE_DIR) / PAGE
        if write:
            page.write_text(hooks.replace_list(page.read_text(), listing))
            self.stdout.write(f"{PAGE}: {len(hooks.HOOKS)} hooks")
        elif check:
            if hooks.listed(page.read_text()) != listing:
                raise CommandError(f"{PAGE}'s list of hooks is not the registry's: manage.py hooks --write")
            self.stdout.write(f"{PAGE}: the list of {len(hooks.HOOKS)} hooks is the registry's")
        else:
            self.stdout.write(listing, ending="")
