import django.db.models.deletion
from django.db import migrations, models

# Only the index goes: Django's own AlterField would also drop and re-add the foreign key, which on
# PostgreSQL checks every row of the log again under a lock.
INDEX = "games_action_game_id_84e59f39"


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="action",
                    name="game",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="actions",
                        to="games.game",
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    f"DROP INDEX IF EXISTS {INDEX}",
                    reverse_sql=f"CREATE INDEX {INDEX} ON games_action (game_id)",
                ),
            ],
        ),
    ]
