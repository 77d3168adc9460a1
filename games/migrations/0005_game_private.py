from django.db import migrations, models


def group_games_are_private(apps, schema_editor):
    # Games whose group was already deleted cannot be told apart from public ones any more: only those
    # that still have their group are known to be private.
    Game = apps.get_model("games", "Game")
    Game.objects.filter(group__isnull=False).update(private=True)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_game_pace"),
    ]

    operations = [
        migrations.AddField(model_name="game", name="private", field=models.BooleanField(default=False)),
        migrations.RunPython(group_games_are_private, migrations.RunPython.noop),
    ]
