"""Every username's key again, now that the skeleton reads i as l (accounts.names.skeleton).

The same rule as 0006: accounts stay as they are; of a look-alike group that the new reading makes (an
"aIice" beside an "alice"), the first (computer players first, then by age) holds the key and the others
none, so the unique index holds and no new name may look like any of them."""

import importlib

from django.db import migrations

fill_keys = importlib.import_module("accounts.migrations.0006_user_name_key").fill_keys


def refill_keys(apps, schema_editor):
    apps.get_model("accounts", "User").objects.update(name_key=None)
    fill_keys(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_user_name_key_unique"),
    ]

    operations = [
        migrations.RunPython(refill_keys, migrations.RunPython.noop),
    ]
