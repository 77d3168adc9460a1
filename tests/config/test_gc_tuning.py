"""config/gc_tuning.py: what a served process does to its garbage collector."""

import gc

import pytest

from config import gc_tuning


@pytest.fixture
def restore_gc():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_a_served_process_freezes_its_start_up_objects_and_collects_in_full_rarely(settings, restore_gc):
    settings.SERVER_GC_TUNING = True
    settings.SERVER_GC_FULL_AFTER = 100
    young, middle, _ = gc.get_threshold()
    loaded_at_start_up = type("Kept", (), {})()
    assert gc.is_tracked(loaded_at_start_up)

    assert gc_tuning.tune() is True

    assert gc.get_freeze_count() > 0
    # Frozen objects sit in the permanent generation, which no collection (and get_objects) visits.
    assert not any(obj is loaded_at_start_up for obj in gc.get_objects())
    assert gc.get_threshold() == (young, middle, 100)


def test_it_can_be_switched_off(settings, restore_gc):
    settings.SERVER_GC_TUNING = False
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()

    assert gc_tuning.tune() is False

    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen
