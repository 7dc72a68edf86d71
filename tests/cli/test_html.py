"""``tranquility explain --html``: the self-contained replay page (cli/html.py).

The first tests read the file as text and with ``html.parser``; the last ones open it in a
real headless browser (Debian's ``chromium``) and read the DOM its script drew. Those are
skipped only when no chromium binary is installed (``.ci/run`` installs one)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from tranquility.cli.html import replay_html, verdict_text
from tranquility.cli.progress import seconds_text
from tranquility.solver.analysis.explain import explain
from tranquility.solver.engine.actions import PlayFinish, PlayIsland, PlayStart, describe
from tranquility.solver.engine.cards import FINISH, START
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import Rules
from tranquility.solver.engine.state import State
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import DecidedBy, Verdict

from ..browser import Tab, chromium_args, needs_browser
from ..helpers import run

# A 2x4 grid, islands 1..12, two seats: seed 1 is a win in 10 turns, seed 2 is no-win.
RULES = Rules(rows=2, cols=4, islands=12, hand=3, start_discards=2)
WIN_SEED, NO_WIN_SEED = 1, 2
IDS = (
    "step-label", "action-text", "grid", "hands", "first", "prev", "next", "last", "slider", "critical", "verdict", "turn-list"
)


def explained(game):
    e = explain(game, budget=Budget(seconds=5, workers=1), critical_budget=2)
    data = e.to_json()
    line = e.result.line or (e.reach.line if e.reach else None)
    return line, data


@pytest.fixture(scope="module")
def won():
    line, data = explained(deal(RULES, 2, WIN_SEED))
    assert data["verdict"] == "win"
    return line, data, replay_html(line, data)


class Page(HTMLParser):
    """Tags, ids, attributes and the text inside each element that has an id."""

    VOID = frozenset({"meta", "input", "br", "img", "link", "hr", "source", "area", "base", "col", "embed", "track", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, dict]] = []
        self.text: dict[str, str] = {}
        self.scripts: dict[str, str] = {}
        self.values: dict[int, str] = {}  # grid cell index -> the number or mark drawn in it
        self.chips: dict[str, list[str]] = {}  # element id -> the cards drawn inside it
        self.marks: dict[str, list[tuple[str, set[str]]]] = {}  # element id -> (card, the chip's classes)
        self._open: list[tuple[str, str | None, str]] = []  # (tag, id, class)
        self._script: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        self.attrs.append((tag, attrs))
        if tag == "script":
            self._script = attrs.get("id") or f"script-{len(self.scripts)}"
            self.scripts[self._script] = ""
        if "id" in attrs:
            self.text.setdefault(attrs["id"], "")
        if tag not in self.VOID:
            self._open.append((tag, attrs.get("id"), attrs.get("class") or ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None
        for i in range(len(self._open) - 1, -1, -1):
            if self._open[i][0] == tag:
                del self._open[i:]
                break

    def handle_data(self, data):
        if self._script is not None:
            self.scripts[self._script] += data
            return
        for _, ident, _ in self._open:
            if ident is not None:
                self.text[ident] += data
        inner = next((i for _, i, _ in reversed(self._open) if i), None)
        classes = self._open[-1][2].split() if self._open else []
        if "val" in classes and inner and inner.startswith("cell-"):
            self.values[int(inner[5:])] = data.strip()
        if "cardchip" in classes and inner:
            self.chips.setdefault(inner, []).append(data.strip())
            self.marks.setdefault(inner, []).append((data.strip(), set(classes)))


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    return page


def embedded(text: str) -> dict:
    return json.loads(parse(text).scripts["replay-data"])


def positions(line: Line) -> list[State]:
    state = line.initial_state()
    out = [state]
    for action in line.actions:
        state = state.apply(action)
        out.append(state)
    return out


# -- the file, read as text ------------------------------------------------------------------


def test_one_self_contained_document(won):
    _, _, text = won
    assert text.startswith("<!DOCTYPE html>")
    assert text.count("<html") == 1 and text.rstrip().endswith("</html>")
    page = parse(text)
    assert page.tags.count("html") == page.tags.count("head") == page.tags.count("body") == 1
    for ident in IDS:
        assert ident in page.text, ident
    # Nothing to load: no URL at all, no external script, stylesheet, image or font.
    assert "http://" not in text and "https://" not in text and "//cdn" not in text
    assert "@import" not in text and "url(" not in text
    for tag, attrs in page.attrs:
        assert "src" not in attrs, (tag, attrs)
        assert "href" not in attrs, (tag, attrs)
        assert tag not in ("link", "img", "iframe", "object", "embed"), tag
    assert [t for t, a in page.attrs if t == "script"] == ["script", "script"]


def test_the_script_and_style_sheet_shipped_beside_the_module_are_inlined(won):
    """The page's script and style sheet are files of the package (cli/replay_page.js and
    .css), each inlined whole, and pyproject's package data ships them and every file the
    served board's page loads."""
    import tomllib

    _, _, text = won
    cli = Path(__file__).parents[2] / "cli"
    for name in ("replay_page.js", "replay_page.css"):
        assert (cli / name).read_text(encoding="utf-8") in text, name
    assert "</script" not in (cli / "replay_page.js").read_text(encoding="utf-8").lower()
    shipped = tomllib.loads((cli.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]
    files = {"tranquility.cli": [cli / "replay_page.js", cli / "replay_page.css"]}
    files["tranquility.cli.web_board"] = [f for f in (cli / "web_board" / "static").rglob("*") if f.is_file()]
    for package, found in files.items():
        folder = cli if package == "tranquility.cli" else cli / "web_board"
        for file in found:
            name = file.relative_to(folder).as_posix()
            globs = [re.escape(glob).replace(r"\*", "[^/]*") for glob in shipped[package]]  # a * stays in its folder
            assert any(re.fullmatch(glob, name) for glob in globs), f"{name} is not in {package}'s package data"


def test_embeds_every_position_replayed(won):
    line, data, text = won
    steps = embedded(text)["steps"]
    assert len(steps) == len(line.actions) + 1
    for k, (step, state) in enumerate(zip(steps, positions(line), strict=True)):
        assert step["step"] == k
        assert step["grid"] == list(state.grid)
        assert step["hands"] == [list(h) for h in state.hands]
        assert step["piles"] == [list(state.pile(s)) for s in range(state.players)]  # every pile, top first
        assert step["seat"] == state.seat and step["start_played"] == state.start_played
    assert steps[0]["action"] is None
    assert steps[-1]["status"] == "won" and None not in steps[-1]["grid"]
    for turn in data["turns"]:
        action = steps[turn["turn"]]["action"]
        assert action["text"] == turn["text"]
        assert action["critical"] == turn["critical"]
        assert not action["given"]


def test_each_step_names_the_cards_paid_and_drawn(won):
    """What a step moved, from the positions before and after it: every card is accounted
    for (hands + drawn + cells emptied = hands + paid + cells filled + out of the game +
    the Start or Finish card played)."""
    line, _, text = won
    steps = embedded(text)["steps"]
    states = positions(line)
    for k, action in enumerate(line.actions, start=1):
        before, after, moved = states[k - 1], states[k], steps[k]["action"]
        assert moved["drawn"] == [list(line.deal.piles[s][before.drawn[s] : after.drawn[s]]) for s in range(2)]
        if isinstance(action, PlayIsland):
            assert moved["paid"] == list(action.discard)
            assert moved["drawn"][action.seat] == list(before.pile(action.seat)[: len(action.discard) + 1])
        if isinstance(action, PlayStart):
            assert not Counter(c for d in action.team_discard for c in d) - Counter(moved["paid"])
        played = [START] if isinstance(action, PlayStart) else [FINISH] if isinstance(action, PlayFinish) else []
        cells = list(zip(before.grid, after.grid, strict=True))
        left = Counter(c for h in before.hands for c in h) + Counter(c for d in moved["drawn"] for c in d)
        left += Counter(b for b, a in cells if b is not None and a != b)
        right = Counter(c for h in after.hands for c in h) + Counter(moved["paid"]) + Counter(moved["gone"])
        right += Counter(a for b, a in cells if a is not None and a != b) + Counter(played)
        assert left == right, k
    paid = [s["action"]["paid"] for s in steps[1:]]
    assert any(paid) and any(not p for p in paid)  # the line pays on some turns, not on others


def test_header_shows_verdict_objective_summary(won):
    _, data, text = won
    page = parse(text)
    assert page.text["verdict"].strip() == "win"
    objective = data["objective"]
    assert f"This line leaves {objective['value']} cards in hands and piles at the win" in page.text["objective"]
    assert ("(proven)" in page.text["objective"]) == objective["optimal"]
    assert f"{data['summary']['spare_cards']} cards left" in page.text["summary"]
    assert "Rules: official + rows=2 cols=4 islands=12 hand=3 start_discards=2: 2x4 grid" in page.text["rules"]
    said = page.text["verdict-by"]
    assert said.startswith("The team can win this deal. Here is a winning line, found by ")
    assert f"by {data['method']}" not in said and said.endswith(f"; {seconds_text(data['total_seconds'])} in all.")


def test_the_terminal_and_the_page_give_the_same_time(tmp_path):
    """One figure for the whole explanation, printed by one formatter: the terminal's first
    line and the page's header agree to the digit."""
    out = tmp_path / "replay.html"
    args = ["explain", "--seed", WIN_SEED, "--players", "2", "--rule", "rows=2", "--rule", "cols=4"]
    args += ["--rule", "islands=12", "--rule", "hand=3", "--rule", "start_discards=2"]
    result = run(*args, "--time-limit", "2", "--critical-time", "1", "--html", out)
    assert result.exit_code == 0, result.output
    took = re.match(r"WIN +in (\d+\.\d\d s): ", result.stdout)
    assert took is not None, result.stdout
    said = parse(out.read_text(encoding="utf-8")).text["verdict-by"]
    assert said.endswith(f"; {took.group(1)} in all."), said


DECIDES = {
    Verdict.WIN: (DecidedBy.GREEDY, DecidedBy.EXHAUSTIVE, DecidedBy.CPSAT, DecidedBy.REPLAY),
    Verdict.NO_WIN: (DecidedBy.REFUTE, DecidedBy.EXHAUSTIVE, DecidedBy.CPSAT, DecidedBy.IMPLIED),
    Verdict.UNKNOWN: (DecidedBy.TIMEOUT, DecidedBy.INTERRUPTED),
}


def test_every_way_of_deciding_is_covered():
    assert {m for ms in DECIDES.values() for m in ms} == set(DecidedBy)


@pytest.mark.parametrize("verdict, method", [(v.value, m.value) for v, ms in DECIDES.items() for m in ms])
def test_what_happened_is_said_in_player_words(verdict, method):
    """The header never says just "by greedy": each way the solver decides is put in words."""
    said = verdict_text({"verdict": verdict, "method": method, "seconds": 1.25})
    assert said.endswith(".") and f"by {method}" not in said and "the solver" not in said
    if verdict == "win":
        assert said.startswith("Won: " if method == "replay" else "The team can win this deal.")
    elif verdict == "no-win":
        assert said.startswith("The team cannot win this deal, however it plays")
    else:
        assert said.startswith("Not decided")


def test_embedded_text_cannot_break_out(won):
    line, data, _ = won
    data = copy.deepcopy(data)
    evil = '</script><script>alert("x")</script><!-- & \u2028'
    data["turns"][0]["text"] = evil
    data["objective"]["name"] = "<b>bold</b>"
    text = replay_html(line, data)
    assert text.count("</script>") == 2  # the two elements' own end tags
    assert "<!--" not in text and "<b>bold" not in text and "&lt;b&gt;bold" in text
    steps = embedded(text)["steps"]
    assert steps[data["turns"][0]["turn"]]["action"]["text"] == evil


@pytest.mark.slow
def test_no_win_replays_the_best_reach():
    line, data = explained(deal(RULES, 2, NO_WIN_SEED))
    assert data["verdict"] == "no-win" and data["reach"] is not None
    text = replay_html(line, data)
    page = parse(text)
    steps = embedded(text)["steps"]
    assert len(steps) == len(line.actions) + 1
    assert steps[-1]["filled"] == data["reach"]["cells"]
    assert [s["action"]["text"] for s in steps[1:]] == [describe(a) for a in line.actions]
    assert page.text["verdict"].strip() == "no-win"
    assert f"The furthest the team can get: {data['reach']['cells']} of 8 cells filled" in page.text["reach"]
    assert page.text["verdict-by"].startswith("The team cannot win this deal, however it plays (proven ")


def test_a_given_position_is_marked(won):
    line, _, _ = won
    position = Line(line.deal, line.actions[:3])
    full, data = explained(position)
    assert data["verdict"] == "win" and full.actions[:3] == position.actions
    text = replay_html(full, data)
    steps = embedded(text)["steps"]
    assert [s["action"]["given"] for s in steps[1:4]] == [True] * 3
    assert not any(s["action"]["given"] for s in steps[4:])
    assert "Turns 1-3 are the position that was given" in parse(text).text["prefix-note"]


@pytest.mark.slow
def test_cli_writes_the_page(tmp_path):
    out = tmp_path / "replay.html"
    args = ["explain", "--seed", WIN_SEED, "--players", "2", "--rule", "rows=2", "--rule", "cols=4"]
    args += ["--rule", "islands=12", "--rule", "hand=3", "--rule", "start_discards=2"]
    args += ["--time-limit", "7", "--critical-time", "2", "--html", out]
    result = run(*args)
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and "replay-data" in text
    assert run(*args).exit_code != 0  # never overwrites without --force
    assert run(*args, "--force").exit_code == 0


# -- the page, in a real browser ---------------------------------------------------------------

def browse(path: Path, tmp_path: Path, fragment: str = "", screenshot: Path | None = None) -> str:
    """The DOM after the page's script ran, as headless chromium serialises it."""
    profile = tmp_path / f"profile{len(list(tmp_path.glob('profile*')))}"
    args = chromium_args(profile)
    args += [f"--screenshot={screenshot}"] if screenshot else ["--dump-dom"]
    args.append(path.resolve().as_uri() + fragment)
    done = subprocess.run(args, capture_output=True, text=True, timeout=20)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.fixture(scope="module")
def page_file(won, tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "replay.html"
    path.write_text(won[2], encoding="utf-8")
    return path


@pytest.mark.slow
@needs_browser
def test_browser_draws_the_first_step(won, page_file, tmp_path):
    line, _, _ = won
    dom_text = browse(page_file, tmp_path)
    dom = parse(dom_text)
    last = len(line.actions)
    assert dom.text["step-label"].strip() == f"Step 0 of {last}: the starting position"
    assert "Opening hands dealt" in dom.text["action-text"]
    assert sorted(dom.values) == list(range(RULES.cells))
    assert set(dom.values.values()) == {"\u00b7"}  # every cell empty
    for seat, hand in enumerate(line.initial_state().hands):
        assert dom.text[f"seat-{seat}"].startswith(f"Seat {seat}")
        assert dom.chips[f"hand-{seat}"] == [str(c) for c in hand]
        assert dom.chips[f"pile-{seat}"] == [str(c) for c in line.deal.piles[seat][RULES.hand :]]  # top first
        assert dom.text[f"count-{seat}"] == str(len(line.deal.piles[seat]) - RULES.hand)
    assert "Seat 0 to move" in dom.text["status-text"]
    assert len(re.findall(r'<li id="turn-\d+"', dom_text)) == last + 1


@pytest.mark.slow
@needs_browser
def test_browser_draws_the_final_grid(won, page_file, tmp_path):
    line, _, _ = won
    final = positions(line)[-1]
    dom = parse(browse(page_file, tmp_path, "#step=last"))
    last = len(line.actions)
    assert dom.text["step-label"].strip() == f"Step {last} of {last}: after turn {last}"
    assert dom.values == {i: str(v) for i, v in enumerate(final.grid)}
    assert dom.text["status-text"].strip() == "Won"


@pytest.mark.slow
@needs_browser
def test_browser_opens_the_step_in_the_fragment(won, page_file, tmp_path):
    line, data, _ = won
    dom_text = browse(page_file, tmp_path, "#step=5")
    dom = parse(dom_text)
    turn = next(t for t in data["turns"] if t["turn"] == 5)
    assert dom.text["step-label"].strip() == f"Step 5 of {len(line.actions)}: after turn 5"
    assert dom.text["action-text"].lower() == turn["text"].lower() + "."
    assert dom.values == {i: "\u00b7" if v is None else str(v) for i, v in enumerate(positions(line)[5].grid)}
    kind = (turn["critical"] or {}).get("kind")
    if kind is not None:
        assert f'data-kind="{kind}"' in dom_text
    assert re.search(r'<li id="turn-5" class="current"', dom_text)


class Replay(Tab):
    """The replay page in the browser, once its script has drawn it."""

    def __init__(self, page_file: Path) -> None:
        super().__init__(page_file.resolve().as_uri(), ready="document.body.dataset.ready === '1'")

    def label(self) -> str:
        return self.js("document.getElementById('step-label').textContent")


@pytest.mark.slow
@needs_browser
def test_browser_steps_with_keys_buttons_and_slider(won, page_file):
    line, data, _ = won
    last = len(line.actions)
    browser = Replay(page_file)
    try:
        assert browser.label() == f"Step 0 of {last}: the starting position"
        assert browser.js("document.getElementById('prev').disabled") is True
        browser.key("ArrowRight")
        browser.key("ArrowRight")
        assert browser.label() == f"Step 2 of {last}: after turn 2"
        browser.key("ArrowLeft")
        assert browser.label() == f"Step 1 of {last}: after turn 1"
        browser.click("#next")
        assert browser.label() == f"Step 2 of {last}: after turn 2"
        browser.click("#last")
        assert browser.label() == f"Step {last} of {last}: after turn {last}"
        assert browser.js("document.getElementById('next').disabled") is True
        assert browser.js("document.getElementById('slider').value") == str(last)
        browser.click("#prev")
        assert browser.label() == f"Step {last - 1} of {last}: after turn {last - 1}"
        browser.click("#first")
        assert browser.label() == f"Step 0 of {last}: the starting position"
        browser.js("(function(s){s.value = 4; s.dispatchEvent(new Event('input'))})(document.getElementById('slider'))")
        assert browser.label() == f"Step 4 of {last}: after turn 4"
        browser.click("#turn-7")
        assert browser.label() == f"Step 7 of {last}: after turn 7"
        text = next(t["text"] for t in data["turns"] if t["turn"] == 7)
        assert browser.js("document.getElementById('action-text').textContent").lower() == text.lower() + "."
        cells = browser.js("Array.from(document.querySelectorAll('#grid td')).map(function(td){return td.id})")
        rows, cols = RULES.rows, RULES.cols
        assert cells == [f"cell-{r * cols + c}" for r in reversed(range(rows)) for c in range(cols)]
        only = [t["turn"] for t in data["turns"] if (t["critical"] or {}).get("kind") == "only"]
        for number in only:
            browser.click(f"#turn-{number}")
            assert browser.js("document.getElementById('critical').textContent").startswith("Only move: ")
            assert browser.js("getComputedStyle(document.getElementById('critical')).display") != "none"
        requests = browser.urls
        assert page_file.resolve().as_uri() in requests  # the recording works
        assert all(url.startswith("file:") for url in requests), requests  # and nothing else was fetched
    finally:
        browser.close()


@pytest.mark.slow
@needs_browser
def test_browser_marks_the_cards_paid_and_drawn(won, page_file, tmp_path):
    text = won[2]
    steps = embedded(text)["steps"]
    k = next(k for k, s in enumerate(steps) if s["action"] and s["action"]["paid"] and any(s["action"]["drawn"]))
    moved = steps[k]["action"]
    dom = parse(browse(page_file, tmp_path, f"#step={k}"))
    assert dom.marks["paid-text"] == [(str(c), {"cardchip", "paid", *([c] if isinstance(c, str) else [])}) for c in moved["paid"]]
    assert dom.chips["drawn-text"] == [str(c) for d in moved["drawn"] for c in d]
    assert dom.text["drawn-text"].startswith(f"Seat {moved['seat']} draws ")
    for seat, drawn in enumerate(moved["drawn"]):
        marked = [card for card, classes in dom.marks.get(f"hand-{seat}", []) if "drawn" in classes]
        assert sorted(marked) == sorted(str(c) for c in drawn if c in steps[k]["hands"][seat]), seat
        assert dom.chips.get(f"pile-{seat}", []) == [str(c) for c in steps[k]["piles"][seat]]
    # The starting position moved nothing.
    start = parse(browse(page_file, tmp_path))
    assert "paid-text" not in start.marks and "drawn-text" not in start.chips


@pytest.mark.slow
@needs_browser
def test_browser_gives_the_grid_most_of_the_board(page_file):
    """In a 1200 x 900 window each cell of the 2 x 4 grid is over 100 px wide (it was 54 px)
    and the grid spans more than a third of the window; the hands stay in view."""
    browser = Replay(page_file)
    try:
        cell = browser.js("document.getElementById('cell-0').getBoundingClientRect().width")
        grid = browser.js("document.getElementById('grid').getBoundingClientRect().width")
        window = browser.js("window.innerWidth")
        assert cell > 100 and grid > window / 3, (cell, grid, window)
        hands_top = browser.js("document.getElementById('hands').getBoundingClientRect().top")
        assert hands_top < browser.js("window.innerHeight"), "the hands are still in view"
    finally:
        browser.close()


# -- the page fits the window -----------------------------------------------------------------------

BOXES = """(function () {
  function box(e) { var r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }
  var panel = document.getElementById('turns-panel'), seats = document.querySelectorAll('#hands-body tr');
  return {window: [0, 0, innerWidth, innerHeight], page: document.documentElement.scrollHeight,
          grid: box(document.getElementById('grid')), seats: Array.prototype.map.call(seats, box),
          panel: box(panel), scrolls: panel.scrollHeight > panel.clientHeight,
          current: box(document.querySelector('#turn-list li.current'))};
})()"""


def inside(box: list[float], outer: list[float]) -> bool:
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


@pytest.fixture(scope="module", params=[3, 5], ids=lambda p: f"{p} players")
def official_page(request, tmp_path_factory):
    """The replay of an official game the thrifty policy won (6 x 6 grid, the longest piles
    at 3 players), explained as played."""
    from tranquility.solver.engine.rules import OFFICIAL
    from tranquility.solver.search.policies import simulate

    line = next(p.line for p in (simulate(deal(OFFICIAL, request.param, s), "thrifty", s) for s in range(20)) if p.won)
    e = explain(line, critical_budget=0.0)
    path = tmp_path_factory.mktemp("official") / "replay.html"
    path.write_text(replay_html(line, e.to_json()), encoding="utf-8")
    return path, request.param, len(line.actions)


@pytest.mark.slow
@needs_browser
def test_browser_fits_the_grid_every_seat_and_the_moves_in_the_window(official_page):
    """At 1400 x 1000 the 6 x 6 grid, every seat and the list of moves are in view without
    scrolling (the seats beside the grid); at 900 x 700 the list of moves stays in view and
    scrolls on its own, its current step shown."""
    path, players, turns = official_page
    step = turns // 2
    url = path.resolve().as_uri() + f"#step={step}"
    browser = Tab(url, ready="document.body.dataset.ready === '1'")
    try:
        for width, height in ((1400, 1000), (900, 700)):
            browser.resize(width, height)
            for k in (0, step):  # the longest piles, then a grid half filled
                browser.js(f"location.hash = '#step={k}'")
                browser.wait_for(f"document.getElementById('step-label').textContent.indexOf('Step {k} ') === 0")
                boxes = browser.js(BOXES)
                window = boxes["window"]
                assert boxes["page"] <= height, (width, k, boxes["page"])  # the page itself never scrolls
                assert inside(boxes["panel"], window) and boxes["panel"][3] - boxes["panel"][1] > 300, (width, boxes)
                assert boxes["scrolls"] and inside(boxes["current"], boxes["panel"]), (width, k, boxes)
                if width == 1400:
                    assert inside(boxes["grid"], window), (k, boxes["grid"])
                    assert len(boxes["seats"]) == players
                    for seat, box in enumerate(boxes["seats"]):
                        assert inside(box, window), (k, seat, box)
                    assert boxes["seats"][0][0] > boxes["grid"][2]  # beside the grid
                else:
                    assert boxes["grid"][1] < height, (k, boxes["grid"])
    finally:
        browser.close()
