from django.db import migrations, models

import games.fair_dice


class Migration(migrations.Migration):
    dependencies = [("games", "0007_game_rated")]

    operations = [
        # Older games get none ("" : their "Play again" keeps the seeds it had); each new game draws its own.
        migrations.AddField(
            model_name="game",
            name="next_server_seed",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AlterField(
            model_name="game",
            name="next_server_seed",
            field=models.CharField(blank=True, default=games.fair_dice.new_server_seed, max_length=64),
        ),
        migrations.AddField(
            model_name="seat",
            name="next_client_seed",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
    ]
