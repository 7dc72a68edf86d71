"""``tranquility serve``'s page in a real browser: Playwright for Python driving Debian's
chromium (never a browser of Playwright's own), as a new player would use it: a grade-1
puzzle played to a win by clicks alone; a win thrown away and taken back; a 3-player table
with bots to its end, every response the page received checked for cards its seat could
not see; the analysis after it. Skipped when chromium or playwright is missing."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tranquility.puzzles import shipped
from tranquility.solver.formats.codecs import action_from_json, action_to_json, line_from_json
from tranquility.solver.formats.notation import format_action

from ..browser import CHROMIUM
from ..web_board_leaks import hidden_cards_in
from ..web_board_server import SECONDS, request, served

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary installed")]

PUZZLE = "tq1-1p-8cf48077-2"  # official rules, one seat, grade 1
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
ARGS += ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
# Screenshots for docs/web.md, written when this names a folder (tests never touch docs/ otherwise).
SHOTS = os.environ.get("TRANQUILITY_SCREENSHOTS")


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with served("--workers", "2") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        found = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield found
        finally:
            found.close()


@pytest.fixture
def page(browser, base) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    opened = context.new_page()
    opened.set_default_timeout(SECONDS * 1000)
    outside: list[str] = []
    own = (base, "data:", "blob:", "about:")
    opened.on("request", lambda r: None if r.url.startswith(own) else outside.append(r.url))
    opened.goto(base)
    opened.wait_for_selector("body[data-ready]")
    yield opened
    assert not outside, f"the page reached outside the server: {outside}"
    context.close()


def view(page) -> dict:
    return page.evaluate("() => view")


def click_move(page, action: dict) -> None:
    """Play ``action`` as a player would: the card, then the cell, then the payment."""
    card = action.get("play")
    if "play" not in action:  # discard two
        page.click("#discard")
        for paid in action["discard"]:
            page.locator(f'#hand button.card[data-card="{paid}"]:not(.on)').first.click()
        return
    page.click(f'#hand button.card[data-card="{card}"]')
    if card == "S":
        page.select_option("#start-option", label=format_action(action_from_json(action, "action")))
    elif "cell" in action:
        page.click(f'#grid g.cell[data-cell="{action["cell"]}"]')
        wanted = [str(c) for c in action.get("discard", [])]
        while page.locator("#pay-cards button.card.paid").count():  # the suggestion, undone
            page.locator("#pay-cards button.card.paid").first.click()
        for card_paid in wanted:
            page.locator(f'#pay-cards button.card[data-card="{card_paid}"]:not(.paid)').first.click()
    page.click("#pay-go")


def wait_turn(page, turn: int) -> None:
    page.wait_for_function(f"() => view && view.turn === {turn}")


def open_puzzle(page) -> None:
    page.select_option("#tab-puzzle select[name=players]", "1")
    page.select_option("#tab-puzzle select[name=grade]", "1")
    page.click("#tab-puzzle button[type=submit]")
    page.click(f'#puzzle-list button[data-puzzle="{PUZZLE}"]')
    wait_turn(page, 0)


def test_a_grade_1_puzzle_played_to_a_win_by_clicks(page):
    open_puzzle(page)
    page.uncheck("#check")  # the check solves after every move: this game needs none
    solution = shipped.solution(PUZZLE)
    for turn, action in enumerate(solution.actions, start=1):
        if SHOTS and turn == 21:  # mid-game, a card picked: its cells lit with their costs
            page.click(f'#hand button.card[data-card="{action_to_json(action)["play"]}"]')
            page.screenshot(path=str(Path(SHOTS) / "web-board.png"))
        click_move(page, action_to_json(action))
        wait_turn(page, turn)
    page.wait_for_selector("#news .won")
    assert view(page)["status"] == "won"
    assert "you won with" in page.inner_text("#news")


def test_a_thrown_win_is_flagged_and_taken_back(page, base):
    open_puzzle(page)
    game = view(page)["line"]
    status, ranking = request(base, "POST", "/api/moves", {"game": game, "time_limit": 8})
    assert status == 200
    lost = next(m for m in ranking["moves"] if m["verdict"] == "no-win" and m["action"].get("cell") is not None)
    click_move(page, lost["action"])
    page.wait_for_selector("#news .threw")
    assert "threw the win away" in page.inner_text("#news")
    page.click("#back")
    wait_turn(page, 0)
    assert "last position proven winnable" in page.inner_text("#news")


def test_a_3_player_table_with_bots_to_its_end_then_its_analysis(page, base):
    bodies: list[dict] = []

    def record(response) -> None:
        if "/api/" in response.url and response.headers.get("content-type", "").startswith("application/json"):
            bodies.append(response.json())

    page.on("response", record)
    page.click('nav button[data-tab="table"]')
    page.fill("#tab-table input[name=seed]", "5")
    page.select_option("#tab-table select[name=players]", "3")
    page.fill("#tab-table input[name=seat]", "1")
    page.fill("#tab-table input[name=delay]", "0")
    page.click("#tab-table button[type=submit]")
    page.wait_for_function("() => view && view.kind === 'table'")
    for _ in range(400):
        page.wait_for_function("() => view.over || view.my_turn")
        now = view(page)
        if now["over"]:
            break
        turn = now["turn"]
        if now["start"] is not None:
            for card in now["start"]["hand"][: now["start"]["least"]]:
                page.locator(f'#start-cards button.card[data-card="{card}"]:not(.paid)').first.click()
            page.click("#start-go")
            page.wait_for_function(f"() => view.turn > {turn} || view.start === null || view.over")
            continue
        move = now["moves"][0]
        if move["kind"] == "start":
            page.click('#hand button.card[data-card="S"]')
            page.click("#pay-go")
        else:
            click_move(page, move["action"])
        page.wait_for_function(f"() => view.turn > {turn} || view.start !== null || view.over")
    final = view(page)
    assert final["over"], "the game did not end"
    line = line_from_json(final["line"])
    leaks = [found for body in bodies if "kind" in body and (found := hidden_cards_in(body, line, seat=1))]
    assert bodies and not leaks, leaks[:3]
    assert not any("hands" in body or "piles" in body for body in bodies if body.get("kind") == "table" and not body["over"])

    page.click("#analyze-btn")
    frame = page.frame_locator("#report")
    frame.locator("body").wait_for(timeout=120_000)
    page.wait_for_function("() => !document.querySelector('#report').hidden", timeout=120_000)
    text = frame.locator("body").inner_text()
    assert "turn" in text.lower()
    if SHOTS:
        page.locator("#report").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(SHOTS) / "web-analysis.png"), full_page=True)
    json.dumps(bodies)  # every body the page received was JSON
