# Quintzee offered on the site: Game.kind's choices come from rules.ENGINES.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_game_reserved_for"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="kind",
            field=models.CharField(
                choices=[
                    ("triple-quintzee", "Triple Quintzee"),
                    ("triple-yahtzee-99", "Triple Yahtzee 99"),
                    ("painted-dicez", "Painted DiceZ"),
                    ("quintzee", "Quintzee"),
                    ("farkle", "Farkle (10000)"),
                ],
                max_length=32,
            ),
        ),
    ]
