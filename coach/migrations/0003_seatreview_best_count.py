from django.db import migrations, models


def count_best(apps, schema_editor):
    """Reviews written before the field: their decisions that cost nothing, counted once."""
    SeatReview = apps.get_model("coach", "SeatReview")
    changed = []
    for review in SeatReview.objects.only("pk", "decisions").iterator(chunk_size=500):
        review.best_count = sum(1 for d in review.decisions if d["cost"] == 0)
        changed.append(review)
        if len(changed) >= 500:
            SeatReview.objects.bulk_update(changed, ["best_count"])
            changed = []
    SeatReview.objects.bulk_update(changed, ["best_count"])


class Migration(migrations.Migration):
    dependencies = [("coach", "0002_seatreview_user_finished")]

    operations = [
        migrations.AddField(
            model_name="seatreview", name="best_count", field=models.PositiveIntegerField(default=0)
        ),
        migrations.RunPython(count_best, migrations.RunPython.noop),
    ]
