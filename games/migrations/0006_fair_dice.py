from django.db import migrations, models

import games.fair_dice


class Migration(migrations.Migration):
    """Fair dice (docs/fair-dice.md). Games that exist already keep "" as their server seed: their dice
    came from the system's random source and there is nothing to reveal; the seats get a client seed
    each (a callable default would give every existing row the same one, which is harmless for games
    that roll with the system's dice and replaced at the next join for open tables)."""

    dependencies = [
        ("games", "0005_game_private"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="server_seed",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AlterField(
            model_name="game",
            name="server_seed",
            field=models.CharField(blank=True, default=games.fair_dice.new_server_seed, max_length=64),
        ),
        migrations.AddField(
            model_name="game", name="client_seeds", field=models.JSONField(blank=True, default=list)
        ),
        migrations.AddField(
            model_name="seat",
            name="client_seed",
            field=models.CharField(default=games.fair_dice.new_client_seed, max_length=64),
        ),
    ]
