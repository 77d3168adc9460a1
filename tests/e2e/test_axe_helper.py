"""The journeys' accessibility check itself: it finds a violation where there is one, and passes a
clean page."""

from __future__ import annotations

import pytest

from tests.e2e.axe import check_axe

PAGE = """<!doctype html><html lang="en"><head><title>Check</title></head><body>
<main><h1>Check</h1>{}</main></body></html>"""


@pytest.fixture
def page(browser):
    context = browser.new_context()
    yield context.new_page()
    context.close()


def test_a_list_item_outside_a_list_fails_with_its_rule_and_target(page):
    page.set_content(PAGE.format('<div role="log"><li id="orphan">A move</li></div>'))
    with pytest.raises(AssertionError, match=r"listitem \(serious\).*#orphan"):
        check_axe(page, "a broken page")


def test_a_clean_page_passes(page):
    page.set_content(PAGE.format('<div role="log"><ol><li>A move</li></ol></div>'))
    check_axe(page, "a clean page")


def test_a_page_checked_clean_is_checked_again_once_it_changes(page):
    page.set_content(PAGE.format('<div role="log"><ol><li>A move</li></ol></div>'))
    check_axe(page, "a clean page")
    check_axe(page, "the same page, unchanged")
    page.evaluate("document.querySelector('ol').outerHTML = '<li id=\"orphan\">A move</li>'")
    with pytest.raises(AssertionError, match=r"listitem \(serious\).*#orphan"):
        check_axe(page, "the page, broken since")
