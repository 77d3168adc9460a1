"""The key of every username as people read it (accounts.names); 0007 makes it unique.

Accounts made before names were compared stay as they are, whatever their names look like: the first
of each look-alike group (the computer players first, then by age) holds the key, and the others hold
none, so the unique index can be built and no new name may look like any of them. A person whose name
reads as a computer's holds none either, so that the computer account of that name can still be made."""

from django.db import migrations, models

from accounts.names import reads_as_a_computer, username_key


def fill_keys(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    taken = set()
    changed = []
    people = User.objects.filter(computer="").order_by("pk")
    computers = User.objects.exclude(computer="").order_by("pk")
    for accounts in (computers, people):
        for user in accounts.only("pk", "username", "computer").iterator():
            key = username_key(user.username)
            if key in taken or (not user.computer and reads_as_a_computer(user.username)):
                continue
            taken.add(key)
            user.name_key = key
            changed.append(user)
    User.objects.bulk_update(changed, ["name_key"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0005_user_quick_scoring"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
