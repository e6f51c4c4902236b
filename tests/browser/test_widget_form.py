"""The edit form generated from an action's JSON Schema, in headless Chromium without Jupyter:
widget.js on a blank page with a model double, so every control type and every error placement
is checked quickly. (The full round trip through a kernel is in test_widget_lab.py.)"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from ._harness import OUTPUT, mount_widget

pytestmark = pytest.mark.browser

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Table name", "description": "Lower case."},
        "rows": {"type": "integer", "minimum": 1},
        "public": {"type": "boolean"},
        "engine": {"enum": ["sqlite", "duckdb"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "columns": {"type": "array", "items": {"$ref": "#/$defs/column"}},
        "owner": {"type": "object", "properties": {"email": {"type": "string"}}},
        "notes": {"type": "string"},
    },
    "required": ["name", "rows", "columns"],
    "$defs": {"column": {"type": "object", "properties": {
        "name": {"type": "string"}, "type": {"enum": ["int", "text"]}},
        "required": ["name", "type"]}},
}
PAYLOAD = {"name": "sales", "rows": 10, "public": False, "engine": "sqlite", "tags": ["q1"],
           "columns": [{"name": "id", "type": "int"}, {"name": "", "type": "text"}],
           "owner": {"email": "a@b.c"}}
CARD = {"type": "suggestion", "id": "t1", "action": "create-table", "text": "Create it?",
        "payload": PAYLOAD, "preview": "Create the table 'sales'", "destructive": False}


def mounted(context, pending=None):
    pending = pending or {"kind": "decide", "token": "d1", "id": "t1", "payload": PAYLOAD,
                          "issue": None, "errors": []}
    return mount_widget(context, {"transcript": [CARD], "pending": pending,
                                  "schemas": {"create-table": SCHEMA}})


def test_the_form_has_a_control_for_every_schema_type(browser_context):
    page = mounted(browser_context)
    page.locator("[data-dial-action=edit]").click()
    form = page.locator(".dial-form")
    expect(form.locator("[data-dial-path=name] input")).to_have_value("sales")
    expect(form.locator("[data-dial-path=name] label")).to_contain_text("Table name")
    expect(form.locator("[data-dial-path=rows] input")).to_have_value("10")
    expect(form.locator("[data-dial-path=public] input[type=checkbox]")).not_to_be_checked()
    expect(form.locator("[data-dial-path=engine] select")).to_have_count(1)
    expect(form.locator('[data-dial-path="tags[0]"] input')).to_have_value("q1")
    expect(form.locator('[data-dial-path="columns[1].name"] input')).to_have_value("")
    expect(form.locator('[data-dial-path="owner.email"] input')).to_have_value("a@b.c")
    expect(form.locator("[data-dial-path=notes] [data-dial-action=add-field]")).to_be_visible()
    page.locator("[data-dial-root]").screenshot(path=str(OUTPUT / "form-controls.png"))
    page.close()


def test_form_edits_are_sent_as_the_edited_payload(browser_context):
    page = mounted(browser_context)
    page.locator("[data-dial-action=edit]").click()
    page.locator('[data-dial-path="columns[1].name"] input').fill("amount")
    page.locator("[data-dial-path=rows] input").fill("25")
    page.locator("[data-dial-path=public] input").check()
    page.locator("[data-dial-path=engine] select").select_option(label="duckdb")
    page.locator("[data-dial-path=tags] [data-dial-action=add-item]").click()
    page.locator('[data-dial-path="tags[1]"] input').fill("q2")
    page.locator("[data-dial-action=save-edit]").click()
    sent = page.evaluate("() => window.sent")
    assert sent[-1]["type"] == "decide" and sent[-1]["decision"] == "edit"
    payload = sent[-1]["payload"]
    assert payload["columns"][1] == {"name": "amount", "type": "text"}
    assert payload["rows"] == 25 and payload["public"] is True
    assert payload["engine"] == "duckdb" and payload["tags"] == ["q1", "q2"]
    page.close()


def test_a_number_that_is_not_a_number_is_held_back_with_a_message(browser_context):
    page = mounted(browser_context)
    page.locator("[data-dial-action=edit]").click()
    page.locator("[data-dial-path=rows] input").fill("ten")
    expect(page.locator("[data-dial-path=rows] .dial-local-error")).to_contain_text(
        "whole number")
    page.locator("[data-dial-action=save-edit]").click()
    assert page.evaluate("() => window.sent") == []
    page.close()


def test_every_schema_error_is_shown_next_to_its_field(browser_context):
    page = mounted(browser_context)
    page.locator("[data-dial-action=edit]").click()
    page.locator('[data-dial-path="columns[1].name"] input').fill("")
    page.locator("[data-dial-action=save-edit]").click()
    refused = {"kind": "decide", "token": "d2", "id": "t1", "payload": PAYLOAD,
               "issue": {"text": "2 problems", "code": "invalid-payload", "field": "rows"},
               "errors": [{"field": "columns[1].name", "message": "name must not be empty"},
                          {"field": "/rows", "message": "rows must be at least 1"},
                          {"field": "", "message": "'owner' has an unknown key"}]}
    page.evaluate("p => window.model.set('pending', p)", refused)
    card = page.locator("[data-dial-suggestion=t1]")
    expect(card.locator('[data-dial-path="columns[1].name"] > .dial-field-error')).to_have_text(
        "name must not be empty")
    expect(card.locator("[data-dial-path=rows] > .dial-field-error")).to_have_text(
        "rows must be at least 1")
    expect(card.locator('[data-dial-path="columns[1].name"] input')).to_have_attribute(
        "aria-invalid", "true")
    issue = card.locator("[data-dial-issue]")
    expect(issue).to_contain_text("2 problems")
    expect(issue).to_contain_text("'owner' has an unknown key")
    expect(card.locator("[data-dial-path=rows] input")).to_be_focused()  # the first error
    card.screenshot(path=str(OUTPUT / "form-errors.png"))
    page.close()


def test_the_raw_json_view_and_the_form_edit_the_same_payload(browser_context):
    page = mounted(browser_context)
    page.locator("[data-dial-action=edit]").click()
    page.locator("[data-dial-path=name] input").fill("orders")
    page.locator("[data-dial-view=json]").click()
    raw = page.locator("[data-dial-field=payload-json]")
    assert json.loads(raw.input_value())["name"] == "orders"
    raw.fill(json.dumps({**PAYLOAD, "name": "returns"}))
    page.locator("[data-dial-view=form]").click()
    expect(page.locator("[data-dial-path=name] input")).to_have_value("returns")
    page.keyboard.press("Escape")
    expect(page.locator("[data-dial-action=edit]")).to_be_focused()
    page.close()
