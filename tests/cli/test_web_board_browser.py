"""``tranquility serve``'s page in a real browser: Playwright for Python driving Debian's
chromium (never a browser of Playwright's own), as a new player would use it. A grade-1
puzzle played to its win screen by the keyboard alone; a reload, Back and Forward that bring
a free board and a bot table back from the address (and a server that forgot the game); a
move by drag and drop; a move by taps on a phone-sized touch screen with no sideways
scroll; the Start and Discard two by their card panels, Cancel first; the verdict list
cleared by a move; a win thrown away and taken back; a 3-player table with bots to its end,
every response the page received checked for cards its seat could not see, then its
analysis; axe-core finding nothing serious on the board, the table and the win screen.
Skipped when chromium or playwright is missing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from tranquility.puzzles import shipped
from tranquility.solver.formats.codecs import action_to_json, line_from_json
from tranquility.solver.formats.notation import format_action

from ..browser import CHROMIUM, launched
from ..web_board_leaks import hidden_cards_in
from ..web_board_server import SECONDS, request, served

pytest.importorskip("playwright.sync_api")
axe_api = pytest.importorskip("axe_playwright_python.sync_playwright")
PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError
pytestmark = [pytest.mark.slow, pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary installed")]

PUZZLE = "tq1-1p-8cf48077-2"  # official rules, one seat, grade 1: 39 moves
START_PUZZLE = "tq1-2p-8cf48077-8"  # two seats: its solution plays the Start at turn 9
# docs/notation.md's small deal: seed 1, one seat, a 2 x 3 grid, its Start S/2,5 after three moves
SMALL = "deal 1 1 rule rows=2 rule cols=3 rule islands=12 rule finish=1 rule hand=3 rule start_discards=2"
# Screenshots for docs/web.md, written when this names a folder (tests never touch docs/ otherwise).
SHOTS = os.environ.get("TRANQUILITY_SCREENSHOTS")
SERIOUS = ("serious", "critical")  # axe-core's two highest impacts: none may be found
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with served("--workers", "2") as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as found:
        yield found


def opened(browser, base: str, hash_: str = "", **context: Any) -> Any:
    """A page of the board (at ``hash_``, a game's address), the page's errors and any
    request outside the server recorded on it."""
    still = {"reduced_motion": "reduce"} if SHOTS else {}  # a screenshot catches no card on its way
    made = browser.new_context(**({"viewport": {"width": 1280, "height": 900}} | still | context))
    page = made.new_page()
    page.set_default_timeout(SECONDS * 1000)
    page.outside, page.errors = [], []
    own = (base, "data:", "blob:", "about:")
    page.on("request", lambda r: None if r.url.startswith(own) else page.outside.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(base + hash_)
    page.wait_for_selector("body[data-ready]")
    return page


def puzzle_at(browser, base: str, puzzle: str, turns: int, **context: Any) -> Any:
    """A page opened at the address of ``puzzle`` after its solution's first ``turns``
    moves, the check after each move off."""
    moves = "+".join(format_action(a) for a in shipped.solution(puzzle).actions[:turns])
    page = opened(browser, base, f"#puzzle={puzzle}&moves={moves}", **context)
    wait_turn(page, turns)
    page.uncheck("#check")
    return page


@pytest.fixture
def page(browser, base) -> Iterator[Any]:
    found = opened(browser, base)
    yield found
    assert not found.outside, f"the page reached outside the server: {found.outside}"
    assert not found.errors, found.errors
    found.context.close()


def view(page) -> dict:
    return page.evaluate("() => tranquility.state.view")


def tokens(page) -> list[str]:
    return [h["notation"] for h in view(page)["history"]]


def wait_view(page, condition: str) -> None:
    """Wait until ``condition`` (JavaScript on ``v``, the page's view) holds; if it never
    does, fail with what the page showed instead (its turn, choice, panel, news and error)."""
    try:
        page.wait_for_function(f"() => {{ const v = tranquility.state.view; return Boolean(v && ({condition})); }}")
    except PlaywrightTimeout:
        shown = page.evaluate(
            """() => ({turn: tranquility.state.view && tranquility.state.view.turn, mode: tranquility.state.mode,
                       panel: document.querySelector('#panel').innerText,
                       news: document.querySelector('#news').innerText,
                       error: document.querySelector('#error').innerText,
                       focus: document.activeElement && document.activeElement.id})"""
        )
        pytest.fail(f"the page never reached {condition}: {shown}; page errors {page.errors}")


def wait_turn(page, turn: int) -> None:
    wait_view(page, f"v.turn === {turn}")


def deal_by_seed(page, seed: int, players: int, rules: str = "official") -> None:
    """A seeded deal opened with the Deal by seed tab, the check after each move off."""
    page.click('nav button[data-tab="seed"]')
    page.fill("#tab-seed input[name=seed]", str(seed))
    page.select_option("#tab-seed select[name=players]", str(players))
    page.select_option("#tab-seed select[name=rules]", rules)
    page.click("#tab-seed button[type=submit]")
    wait_turn(page, 0)
    page.uncheck("#check")


def open_puzzle(page, puzzle: str = PUZZLE) -> None:
    page.select_option("#tab-puzzle select[name=players]", puzzle.split("-")[1][0])
    page.select_option("#tab-puzzle select[name=grade]", "1")
    page.click("#tab-puzzle button[type=submit]")
    page.click(f'#puzzle-list button[data-puzzle="{puzzle}"]')
    wait_turn(page, 0)


# Whether the element ``selector`` names lies in the window, top and bottom (to a pixel: a scroll ends on fractions).
IN_VIEW = "(s) => { const r = document.querySelector(s).getBoundingClientRect(); return r.top > -1 && r.bottom < innerHeight+1; }"


def shot(page, name: str) -> None:
    """The window, scrolled to the top, as docs/web.md shows it (when SHOTS names a folder)."""
    if SHOTS:
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(SHOTS) / name))


def no_serious_findings(page) -> None:
    found = axe_api.Axe().run(page).response["violations"]
    serious = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found if v["impact"] in SERIOUS]
    assert not serious, serious


# -- the keyboard ------------------------------------------------------------------------------


def press(page, key: str, times: int = 1) -> None:
    for _ in range(times):
        page.keyboard.press(key)


def focused(page) -> dict:
    return page.evaluate("() => ({...document.activeElement.dataset, id: document.activeElement.id})")


def tab_to(page, condition: str) -> None:
    """Tab on until the focused element meets ``condition`` (JavaScript on ``e``)."""
    for _ in range(40):
        if page.evaluate(f"() => {{ const e = document.activeElement; return !!({condition}); }}"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {condition}")


def key_move(page, action: dict) -> None:
    """Play ``action`` with the keys alone: the hand's arrows and Enter, the grid's arrows
    and Enter, Tab and Space in the payment; a Start or a discard typed into the move box."""
    if "play" not in action or action["play"] == "S":
        press(page, "/")
        page.keyboard.type(format_action_json(action))
        press(page, "Enter")
        return
    hand = view(page)["hand"]
    want = hand.index(action["play"])
    now = int(focused(page)["index"])
    press(page, "ArrowRight" if want > now else "ArrowLeft", abs(want - now))
    press(page, "Enter")
    if "cell" in action:
        cols = view(page)["cols"]
        at = page.evaluate("() => tranquility.state.cursor")
        (row, col), (to_row, to_col) = divmod(at, cols), divmod(action["cell"], cols)
        press(page, "ArrowUp" if to_row > row else "ArrowDown", abs(to_row - row))
        press(page, "ArrowRight" if to_col > col else "ArrowLeft", abs(to_col - col))
        press(page, "Enter")
    paid = page.evaluate("() => tranquility.state.mode.paid.slice()")
    wanted = []
    left = [i for i in range(len(hand)) if i != want]
    for card in action.get("discard", []):
        wanted.append(next(i for i in left if str(hand[i]) == str(card) and i not in wanted))
    for index in sorted(set(paid) ^ set(wanted)):
        tab_to(page, f"e.dataset.toggle === 'pay' && e.dataset.index === '{index}'")
        press(page, " ")
    tab_to(page, "e.id === 'panel-go'")
    press(page, "Enter")


def format_action_json(action: dict) -> str:
    from tranquility.solver.formats.codecs import action_from_json

    return format_action(action_from_json(action, "action"))


def test_a_grade_1_puzzle_played_to_its_win_screen_by_the_keyboard_alone(page):
    page.select_option("#tab-puzzle select[name=players]", "1")
    page.select_option("#tab-puzzle select[name=grade]", "1")
    page.click("#tab-puzzle button[type=submit]")
    page.focus(f'#puzzle-list button[data-puzzle="{PUZZLE}"]')
    press(page, "Enter")
    wait_turn(page, 0)
    assert "at least 14 cards left" in page.inner_text("#goal")
    assert focused(page)["key"].startswith("hand-")
    no_serious_findings(page)
    page.uncheck("#check")  # the check solves after every move: this game needs none
    page.focus('#hand button.card[tabindex="0"]')
    actions = [action_to_json(a) for a in shipped.solution(PUZZLE).actions]
    for turn, action in enumerate(actions, start=1):
        key_move(page, action)
        wait_turn(page, turn)
        if SHOTS and turn == 20:  # mid-game, the next card chosen: its cells lit with their costs
            want, now = view(page)["hand"].index(actions[turn]["play"]), int(focused(page)["index"])
            press(page, "ArrowRight" if want > now else "ArrowLeft", abs(want - now))
            press(page, "Enter")
            shot(page, "web-board.png")
            press(page, "Escape")
        if turn == 2:  # Escape backs out of a chosen card
            press(page, "Enter")
            assert page.evaluate("() => tranquility.state.mode !== null")
            press(page, "Escape")
            assert page.evaluate("() => tranquility.state.mode === null")
    page.wait_for_selector("#end:not([hidden])")
    end = page.inner_text("#end")
    assert "You won!" in end and "14 cards left" in end and "No hint used" in end
    assert page.locator('#end .card[data-card="F"]').count() == 1
    assert page.evaluate("() => document.activeElement.id") == "end-title"
    shot(page, "web-win.png")
    no_serious_findings(page)
    assert f"#puzzle={PUZZLE}" in page.url and "moves=66@29" in page.url
    press(page, "Tab")  # from the end screen's title to its first button, then to New game
    tab_to(page, "e.id === 'end-new'")
    press(page, "Enter")
    solved = page.locator(f'#puzzle-list button[data-puzzle="{PUZZLE}"]')
    assert "solved" in solved.get_attribute("class") and "14 left" in solved.inner_text()
    page.check("#tab-puzzle input[name=unsolved]")
    assert solved.count() == 0


def test_the_puzzle_picker_pages_through_the_whole_catalogue(page):
    page.wait_for_selector("#puzzle-list button")
    listed = len(shipped.catalogue())
    pages = -(-listed // 12)  # 12 a page
    assert page.inner_text("#puzzle-count") == f"{listed} puzzles; page 1 of {pages}"
    first = page.locator("#puzzle-list button").first.get_attribute("data-puzzle")
    assert page.is_disabled("#puzzle-prev")
    page.click("#puzzle-next")
    assert page.inner_text("#puzzle-count").endswith(f"page 2 of {pages}")
    assert page.locator("#puzzle-list button").first.get_attribute("data-puzzle") != first
    for _ in range(pages - 2):
        page.click("#puzzle-next")
    assert page.is_disabled("#puzzle-next") and page.locator("#puzzle-list button").count() >= 1


# -- the address --------------------------------------------------------------------------------


def test_a_free_board_comes_back_from_its_address_on_reload_back_forward_and_a_forgetful_server(page):
    deal_by_seed(page, 2, 2)
    moves = [view(page)["moves"][0]["notation"]]
    for turn in (1, 2):
        page.fill("#move-input", view(page)["moves"][0]["notation"])
        page.press("#move-input", "Enter")
        wait_turn(page, turn)
    played = tokens(page)
    assert moves == played[:1]
    assert "seed=2" in page.url and "players=2" in page.url
    page.reload()
    page.wait_for_selector("body[data-ready]")
    wait_turn(page, 2)
    assert tokens(page) == played
    assert not page.is_checked("#check")  # turned off before the reload, it stays off
    page.go_back()
    wait_turn(page, 1)
    assert tokens(page) == played[:1]
    page.go_forward()
    wait_turn(page, 2)
    assert tokens(page) == played
    page.evaluate("() => { tranquility.state.view.id = 'forgotten'; }")  # as if the server had dropped it
    page.click("#undo")
    wait_turn(page, 1)
    assert tokens(page) == played[:1]
    for turn in (2, 1, 0):  # each move and the undo an entry of the browser's history
        page.go_back()
        wait_turn(page, turn)
    page.go_back()  # the page as it opened: the pickers again
    page.wait_for_selector("#load", state="visible")
    assert page.locator("#game").is_hidden()
    shown = page.locator('nav .tab[aria-pressed="true"]')  # the tab of the picker shown, pressed again
    assert shown.count() == 1 and page.is_visible(f"#tab-{shown.get_attribute('data-tab')}")


def test_a_pasted_game_comes_back_from_its_address_as_its_position(page):
    page.click('nav button[data-tab="text"]')
    page.fill("#tab-text textarea", f"{SMALL}\n10@4 7@2 1@0")
    page.click("#tab-text button[type=submit]")
    wait_turn(page, 0)  # the board begins at the position the pasted game reached
    assert "#position=tq1+" in page.url
    page.uncheck("#check")
    page.fill("#move-input", "S/2,5")
    page.press("#move-input", "Enter")
    wait_turn(page, 1)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    wait_turn(page, 1)
    assert tokens(page) == ["S/2,5"] and sorted(c["card"] for c in view(page)["grid"] if c["card"] is not None) == [1, 7, 10]


def test_a_bot_table_comes_back_from_its_address_on_reload_and_back(page):
    page.click('nav button[data-tab="table"]')
    page.fill("#tab-table input[name=seed]", "5")
    page.fill("#tab-table input[name=seat]", "1")
    page.fill("#tab-table input[name=delay]", "0")
    page.click("#tab-table button[type=submit]")
    wait_view(page, "v.kind === 'table'")
    assert "address holds the deal's seed" in page.inner_text("#goal")
    pressed = page.locator('nav .tab[aria-pressed="true"]')
    assert pressed.count() == 0  # the pickers are folded away: no tab shows as the one in use
    for _ in range(2):
        wait_view(page, "v.my_turn && !v.start")
        turn = view(page)["turn"]
        move = view(page)["moves"][0]
        page.fill("#move-input", move["notation"])
        page.press("#move-input", "Enter")
        wait_view(page, f"v.turn > {turn}")
    wait_view(page, "v.my_turn")
    seen = tokens(page)
    assert "table=1" in page.url and "seat=1" in page.url
    page.reload()
    page.wait_for_selector("body[data-ready]")
    wait_turn(page, len(seen))
    assert tokens(page) == seen
    page.go_back()
    wait_view(page, f"v.history.length < {len(seen)} && v.my_turn")
    assert tokens(page) == seen[: len(tokens(page))]
    shot(page, "web-table.png")
    no_serious_findings(page)


# -- the mouse and the fingers ------------------------------------------------------------------


def test_a_move_by_drag_and_drop(page):
    open_puzzle(page)
    page.uncheck("#check")
    source = page.locator('#hand button.card[data-card="66"]').bounding_box()
    target = page.locator('#grid [data-cell="29"]').bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 10, target["y"] + 10, steps=8)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4)
    page.mouse.up()
    page.wait_for_selector("#panel:not([hidden]) #panel-go")
    assert "Play 66 into cell 29" in page.inner_text("#panel")
    page.click("#panel-go")
    wait_turn(page, 1)
    assert tokens(page) == ["66@29"]
    assert page.locator('#grid [data-cell="29"].last').count() == 1


def touch_drag(page, source: str, target: str) -> None:
    """A finger on ``source``, moved onto ``target`` and lifted (both in the window)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    boxes = [page.locator(selector).bounding_box() for selector in (source, target)]
    (x0, y0), (x1, y1) = [(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for b in boxes]
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, 11):
        point = {"x": x0 + (x1 - x0) * step / 10, "y": y0 + (y1 - y0) * step / 10}
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


def test_moves_by_taps_and_a_finger_drag_on_a_phone_with_no_sideways_scroll(browser, base):
    page = puzzle_at(browser, base, PUZZLE, 4, **PHONE)
    try:
        page.tap('#hand button.card[data-card="73"]')
        page.tap('#grid [data-cell="32"]')
        page.tap("#panel-go")
        wait_turn(page, 5)
        page.tap('#hand button.card[data-card="30"]')
        shot(page, "web-phone.png")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        small = page.evaluate(
            """() => [...document.querySelectorAll('#game button, #game input, #game [role=gridcell]')]
                 .filter((e) => e.offsetParent !== null)
                 .map((e) => [e.id || e.dataset.key || e.textContent.trim(), e.type === 'checkbox' ? e.closest('label') : e])
                 .map(([name, e]) => [name, e.getBoundingClientRect()])
                 .filter(([, r]) => r.width < 43.5 || r.height < 43.5).map(([name]) => name)"""
        )
        assert not small, f"touch targets under 44 px: {small}"
        assert page.locator("#keys").is_hidden()  # a touch screen's player has no keys to read of
        touch_drag(page, '#hand button.card[data-card="30"]', '#grid [data-cell="13"]')
        assert "Play 30 into cell 13" in page.inner_text("#panel")
        page.wait_for_timeout(500)  # a finger's next tap, not a double tap
        page.tap("#panel-go")
        try:
            page.wait_for_function("() => tranquility.state.view.turn === 6", timeout=5000)
        except PlaywrightTimeout:
            # On a loaded machine chromium sometimes drops the emulated tap that follows the
            # touch drag: the page stood ready (this panel, Play focused, no error) and never
            # got a click. A player taps again; so does the test, once, with the page unchanged.
            assert "Play 30 into cell 13" in page.inner_text("#panel") and not page.inner_text("#error")
            page.tap("#panel-go")
        wait_turn(page, 6)
        assert tokens(page)[-2:] == ["73@32", "30@13"]
        page.tap("#how summary")  # the rules in short, for a player who has never played
        assert "ascending order" in page.inner_text("#how") and page.locator("#how p").first.is_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert not page.outside and not page.errors
    finally:
        page.context.close()


def test_a_hint_on_a_phone_brings_its_cell_into_view(browser, base):
    """The Hint button lies below the hand on a phone, the grid above it: the outlined cell
    is scrolled into view."""
    page = puzzle_at(browser, base, PUZZLE, 1, **PHONE)
    try:
        page.tap('#hand button.card[data-card="74"]')
        page.locator("#hint").scroll_into_view_if_needed()
        assert not page.evaluate(IN_VIEW, "#grid")
        page.tap("#hint")
        page.wait_for_function("() => tranquility.state.game.hints === 1")
        assert page.evaluate(IN_VIEW, "#grid .cell.best") and page.evaluate(IN_VIEW, '#hand button.card[data-card="74"]')
        assert not page.outside and not page.errors
    finally:
        page.context.close()


# -- the panels ---------------------------------------------------------------------------------


def test_the_start_and_discard_two_by_card_panels_with_cancel(browser, base):
    page = puzzle_at(browser, base, START_PUZZLE, 8)
    try:
        page.click('#hand button.card[data-card="S"]')
        assert "Play the Start" in page.inner_text("#panel")
        cost = next(m["cost"] for m in view(page)["moves"] if m["kind"] == "start")
        page.locator('#panel button[data-toggle="start"][data-seat="0"]').first.click()
        assert page.inner_text("#panel .count") == f"1 of {cost} chosen"
        assert page.is_disabled("#panel-go")
        page.click("#panel-cancel")
        assert page.locator("#panel").is_hidden() and view(page)["turn"] == 8
        page.click('#hand button.card[data-card="S"]')
        suggested = page.inner_text("#panel .suggestion")  # in words, the notation after them
        assert suggested.startswith("Suggested: seat 0 gives ") and "; seat 1 gives " in suggested and "(S/" in suggested
        page.click("#start-suggested")
        assert page.inner_text("#panel .count") == f"{cost} of {cost} chosen"
        page.click("#panel-go")
        wait_turn(page, 9)
        assert tokens(page)[-1].startswith("S/")
        assert "moves=" in page.url and "S/" in page.url

        page.click("#discard")
        page.locator('#panel button[data-toggle="discard"]').nth(0).click()
        assert page.inner_text("#panel .count") == "1 of 2 chosen"
        page.click("#panel-cancel")
        assert page.locator("#panel").is_hidden()
        page.click("#discard")
        hand = view(page)["hand"]
        page.locator('#panel button[data-toggle="discard"]').nth(0).click()
        page.locator('#panel button[data-toggle="discard"]').nth(1).click()
        assert page.inner_text("#panel .count") == "2 of 2 chosen"
        page.click("#panel-go")
        wait_turn(page, 10)
        assert sorted(tokens(page)[-1][1:].split(",")) == sorted(map(str, hand[:2]))
        assert not page.outside and not page.errors
    finally:
        page.context.close()


def test_a_solo_start_is_paid_from_the_hand_after_its_forced_round(browser, base):
    """One seat holds 4 cards when its Start costs 8: all 4 go, it draws 5, and the panel
    offers those 5 for the 4 still owed."""
    page = puzzle_at(browser, base, PUZZLE, 12)
    try:
        page.click('#hand button.card[data-card="S"]')
        round_ = next(m for m in view(page)["moves"] if m["kind"] == "start")["start"]
        assert round_["owed"] == 4 and len(round_["forced"]) == 4 and "first every card in hand goes" in page.inner_text("#panel")
        shown = page.eval_on_selector_all('#panel button[data-toggle="start"]', "(cards) => cards.map((c) => c.dataset.card)")
        assert shown == [str(c) for c in round_["hands"][0]]
        page.click("#start-suggested")
        assert page.inner_text("#panel .count") == "4 of 4 chosen"
        page.click("#panel-go")
        wait_turn(page, 13)
        assert tokens(page)[-1].startswith("S/")
        assert not page.outside and not page.errors
    finally:
        page.context.close()


def test_two_finishes_can_be_discarded(page):
    deal_by_seed(page, 2, 2)
    assert view(page)["hand"].count("F") >= 2
    page.click("#discard")
    page.locator('#panel button[data-toggle="discard"][data-card="F"]').nth(0).click()
    page.locator('#panel button[data-toggle="discard"][data-card="F"]').nth(1).click()
    assert page.locator('#panel button[data-toggle="discard"][aria-pressed="true"]').count() == 2
    page.click("#panel-go")
    wait_turn(page, 1)
    assert tokens(page) == ["xF,F"]


def test_the_manual_rocks_row_chosen_in_the_payment_stays_chosen(page):
    deal_by_seed(page, 3, 2, "rocks-manual")
    moves = view(page)["moves"]
    move = next(m for m in moves if m["kind"] == "island" and "rocks" in m["action"])
    page.click(f'#hand button.card[data-card="{move["card"]}"]')
    page.click(f'#grid [data-cell="{move["cell"]}"]')
    rows = page.eval_on_selector_all("#rocks-row option", "(options) => options.map((o) => o.value)")
    assert len(rows) > 1
    page.select_option("#rocks-row", rows[-1])
    for _ in range(2):  # cell numbers on and off: the panel is drawn again, twice
        page.click("#numbers")
    assert page.input_value("#rocks-row") == rows[-1]
    page.click("#panel-go")
    wait_turn(page, 1)
    assert tokens(page)[-1].endswith(f">{rows[-1]}")


# -- the solver beside the board --------------------------------------------------------------


def test_the_verdict_list_belongs_to_its_position_a_row_previews_then_plays(page):
    open_puzzle(page)
    page.uncheck("#check")
    page.click("#moves-btn")
    page.wait_for_function("() => { const job = tranquility.state.job; return job && job.id && !/^start/.test(job.text); }")
    page.click("#verdict-cancel")  # after its first progress: it stops with the moves decided by then
    page.wait_for_selector("#verdict-cancel", state="hidden")
    assert not page.inner_text("#error")
    # stopped (the page says so), unless the ranking ended before the cancel reached it
    assert "moves: stopped" in page.inner_text("#news") or page.locator("#verdicts .v-row").count()
    page.click("#moves-btn")
    assert page.locator("#verdict-cancel").is_visible()
    page.wait_for_selector("#verdicts .v-row", timeout=60_000)
    rows = page.locator("#verdicts .v-row")
    assert rows.count() > 1
    first = rows.nth(0).locator("code").inner_text()
    rows.nth(0).click()
    assert page.locator("#panel").is_visible() and view(page)["turn"] == 0
    page.click("#panel-go")
    wait_turn(page, 1)
    assert tokens(page) == [first]
    assert page.locator("#verdicts").is_hidden() and page.locator("#verdicts .v-row").count() == 0


def test_a_thrown_win_is_flagged_and_taken_back(page, base):
    open_puzzle(page)
    game = view(page)["line"]
    status, ranking = request(base, "POST", "/api/moves", {"game": game, "time_limit": 8})
    assert status == 200, ranking
    lost = next(m for m in ranking["moves"] if m["verdict"] == "no-win" and m["action"].get("cell") is not None)
    page.fill("#move-input", lost["notation"])
    page.press("#move-input", "Enter")
    # a worker's first solve may compile the solver's core first: the check gets more time than a click
    said = "() => document.querySelector('#news .threw') || !document.querySelector('#error').hidden"
    page.wait_for_function(said, timeout=90_000)
    assert not page.inner_text("#error"), page.inner_text("#error")
    assert "threw the win away" in page.inner_text("#news")
    page.click("#back")
    wait_turn(page, 0)
    assert "last position proven winnable" in page.inner_text("#news")
    page.click("#hint")
    page.wait_for_function("() => tranquility.state.game.hints === 1")
    assert "hints=1" in page.url and "Hints used: 1" in page.inner_text("#goal")


def test_the_hint_answers_for_the_chosen_card_else_names_the_card(page):
    open_puzzle(page)
    page.uncheck("#check")
    page.click('#hand button.card[data-card="74"]')
    assert page.inner_text("#hint") == "Hint for 74"
    page.keyboard.press("h")
    page.wait_for_function("() => tranquility.state.game.hints === 1")
    said = page.inner_text("#news")
    assert said.startswith("Best for your 74: play 74 at cell 29 (74@29)") and "outlined on the grid" in said, said
    mode = page.evaluate("() => tranquility.state.mode")
    assert mode["card"] == 74 and mode["best"] == 29 and page.locator('#grid [data-cell="29"].best').count() == 1
    page.keyboard.press("Escape")
    assert page.inner_text("#hint") == "Hint"
    page.click("#hint")
    page.wait_for_function("() => tranquility.state.game.hints === 2")
    assert page.inner_text("#news").startswith("Hint: 66@29.")
    assert page.evaluate("() => tranquility.state.mode.card") == 66
    page.click('#grid [data-cell="29"]')
    page.click("#panel-go")
    wait_turn(page, 1)
    assert tokens(page) == ["66@29"] and "hints=2" in page.url


def test_the_fair_hint_at_a_bot_table_names_a_move_and_its_cell(page):
    page.click('nav button[data-tab="table"]')
    page.fill("#tab-table input[name=seed]", "5")
    page.fill("#tab-table input[name=delay]", "0")
    page.click("#tab-table button[type=submit]")
    wait_view(page, "v.kind === 'table' && v.my_turn && !v.start")
    assert page.is_visible("#hint") and page.is_enabled("#hint")
    page.click("#hint")
    assert page.is_disabled("#hint") and page.inner_text("#hint") == "Thinking…"  # one hint at a time
    page.wait_for_function("() => tranquility.state.game.hints === 1", timeout=60_000)
    assert page.is_enabled("#hint")
    said = page.inner_text("#news")
    assert said.startswith("Hint: play ") and "worlds dealt to fit what you have seen" in said, said
    mode = page.evaluate("() => tranquility.state.mode")
    best = page.locator("#grid .cell.best")
    assert mode["kind"] == "card" and best.count() == 1
    best.click()
    page.click("#panel-go")
    wait_view(page, "v.turn >= 1")  # the bots may have moved on since
    assert tokens(page)[0].startswith(f"{mode['card']}@{mode['best']}")
    no_serious_findings(page)


def test_a_1280_by_800_window_shows_the_grid_and_the_whole_hand_without_scrolling(browser, base):
    """A laptop's window: the puzzle's goal or the table's note on the seed above the grid,
    the last move told, and the hand still in the window."""
    games = [f"#puzzle={PUZZLE}&moves=66@29", "#table=1&seed=7&players=3&rules=official&seat=0&bots=tuned&delay=0&moves=24@0"]
    for game in games:
        page = opened(browser, base, game, viewport={"width": 1280, "height": 800})
        try:
            wait_view(page, "v.turn >= 1 && (v.kind === 'board' || v.my_turn)")
            assert page.evaluate(IN_VIEW, "#grid") and page.evaluate(IN_VIEW, "#hand"), game
        finally:
            page.context.close()


def test_the_start_events_panel_comes_into_view_when_it_asks_for_your_share(browser, base):
    """Seat 2 (a bot) plays the Start after these moves of seat 0's; in a window 800 px tall
    the panel is below the hand, and is scrolled into view when it asks, after a reload too."""
    moves = "24@0+40@2+70@26+71@27-5+78@33-23"
    table = f"#table=1&seed=7&players=3&rules=official&seat=0&bots=tuned&delay=0&moves={moves}"
    page = opened(browser, base, table, viewport={"width": 1280, "height": 800})
    try:
        wait_view(page, "v.start !== null")
        assert page.evaluate(IN_VIEW, "#panel-go") and "Choose your share below the grid" in page.inner_text("#news")
        page.evaluate("() => window.scrollTo(0, 0)")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        wait_view(page, "v.start !== null")
        assert page.evaluate(IN_VIEW, "#panel-go")
        quota = view(page)["start"]["quota"]
        for card in view(page)["start"]["hand"][:quota]:
            page.click(f'#panel button[data-toggle="give"][data-card="{card}"]')
        page.click("#panel-go")
        wait_view(page, "v.start === null")
        assert "give:" in unquote(page.url)  # the share is one of the address's moves
        assert not page.outside and not page.errors
    finally:
        page.context.close()


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
    wait_view(page, "v.kind === 'table'")
    announced = False
    for _ in range(400):
        wait_view(page, "v.over || v.my_turn")
        now = view(page)
        if now["over"]:
            break
        turn = now["turn"]
        announced = announced or "seat 0" in page.inner_text("#news")
        if now["start"] is not None:
            assert "The Start event" in page.inner_text("#panel")
            assert page.evaluate(IN_VIEW, "#panel-go"), "the Start event's Give is out of view"
            for card in now["start"]["hand"][: now["start"]["least"]]:
                page.locator(f'#panel button[data-toggle="give"][data-card="{card}"]:not(.paid)').first.click()
            page.click("#panel-go")
            wait_view(page, f"v.turn > {turn} || v.start === null || v.over")
            continue
        assert page.inner_text("#turn") == "Your turn"
        move = now["moves"][0]
        if move["kind"] == "start":
            page.click('#hand button.card[data-card="S"]')
            page.click("#panel-go")
        else:
            page.fill("#move-input", move["notation"])
            page.press("#move-input", "Enter")
        wait_view(page, f"v.turn > {turn} || v.start !== null || v.over")
    final = view(page)
    assert final["over"], "the game did not end"
    assert announced, "no bot move was told beside the board"
    line = line_from_json(final["line"])
    leaks = [found for body in bodies if "kind" in body and (found := hidden_cards_in(body, line, seat=1))]
    assert bodies and not leaks, leaks[:3]
    assert not any("hands" in body or "piles" in body for body in bodies if body.get("kind") == "table" and not body["over"])
    page.wait_for_selector("#end:not([hidden])")
    if final["status"] == "lost":  # the end screen says who could not move
        assert "to move with" in page.inner_text("#end") and "so the team could not go on" in page.inner_text("#end")
    no_serious_findings(page)
    page.click("#end-analyze")
    frame = page.frame_locator("#report")
    page.wait_for_function("() => !document.querySelector('#report').hidden", timeout=240_000)
    text = frame.locator("body").inner_text()
    assert "turn" in text.lower()
    if SHOTS:
        page.locator("#report").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(SHOTS) / "web-analysis.png"), full_page=True)
