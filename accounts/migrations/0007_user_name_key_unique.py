"""No two accounts hold one name key (0006 filled them), so that two look-alike sign-ups at the same
moment cannot both be stored."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_user_name_key"),
    ]

    operations = [
        migrations.AlterField(
            model_name="user",
            name="name_key",
            field=models.CharField(editable=False, max_length=64, null=True, unique=True),
        ),
    ]
