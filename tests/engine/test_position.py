"""Positions without their history (solver/engine/position.py, solver/formats/position_forms.py, docs/formats.md): both forms read
back to the same position, the engine plays on from a position exactly as from the line
that reached it, the solver decides a position as it decides the line, every impossible
position is refused naming its field, and the command line takes positions everywhere."""

from __future__ import annotations

import functools
import json
import random
from dataclasses import fields
from pathlib import Path

import pytest
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.position import Position, PositionError
from tranquility.solver.engine.rules import OFFICIAL, PRESETS, Rocks, Rules
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import game_from_json, line_from_json, line_to_json
from tranquility.solver.formats.json_values import FormatError
from tranquility.solver.formats.notation import parse_notation, write_notation
from tranquility.solver.formats.position_forms import position_from_json, position_from_text, position_to_json, position_to_text
from tranquility.solver.formats.reading import read_game_file
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.policies import simulate

from ..cli.test_html import positions as states_along  # every state a line reaches, its start included
from ..formats.test_formats import win_line
from ..helpers import SMALL, WON, dense, random_action, random_game, run, small_deals, sparse, write

GOLDEN = Path(__file__).parents[1] / "golden"
QUICK = Budget(reproducible=True, workers=1, greedy_playouts=200, search_nodes=20_000, cpsat_deterministic=10.0)


def random_line(game, seed: int, limit: int = 400) -> Line:
    _, actions = random_game(State.initial(game), random.Random(seed), limit)
    return Line(game, tuple(actions))


def fixture_games() -> list[tuple[str, Line | Deal, int]]:
    """The line fixtures of the suite (the won notation game, test_formats' won line), and
    random lines on seeded and small deals with every module: monsters, both rocks modes,
    removed islands, the French Finish setup, the strict one-card rule. Each is a whole
    line, or a deal and the seed of the random line played on it (by fixture_lines)."""
    games: list[tuple[str, Line | Deal, int]] = [
        ("notation WON", parse_notation(f"deal 1 1 {SMALL}\n{WON}\n"), 0),
        ("formats win_line", win_line(), 0),
    ]
    for name in ("official", "monsters", "rocks", "rocks-manual", "islands", "french", "strict", "hungarian"):
        for players in (1, 4):
            games.append((f"{name} {players}p", deal(PRESETS[name], players, 3), players))
    for rules in (dense(monsters=2), dense(rocks="auto"), dense(rocks="manual"), sparse(removed=3, monsters=1)):
        for seed in range(4):
            games.append((f"{rules} seed {seed}", deal(rules, 1 + seed % 3, seed), seed))
    games += [(f"small {i}", g, i) for i, g in enumerate(small_deals(12, seed=5))]
    for path in sorted((GOLDEN / "deals").glob("*.json")):
        game = game_from_json(json.loads(path.read_text()), path)
        assert isinstance(game, Deal)
        games.append((path.name, game, 1))
    return games


@functools.cache
def fixture_lines() -> list[tuple[str, Line]]:
    """The line fixtures, (name, line), their random lines played once, when first asked."""
    return [(name, game if isinstance(game, Line) else random_line(game, seed)) for name, game, seed in fixture_games()]


# The names are known without playing the lines: the tests below are parametrized by name.
LINE_NAMES = [name for name, _, _ in fixture_games()]


@pytest.fixture
def line(request) -> Line:
    """The fixture line named by the test's parameter (indirect)."""
    return dict(fixture_lines())[request.param]


def field_values(p: Position) -> dict:
    return {f.name: getattr(p, f.name) for f in fields(Position)}


@pytest.mark.parametrize(("name", "line"), [(n, n) for n in LINE_NAMES], ids=LINE_NAMES, indirect=["line"])
def test_every_position_reads_back_from_both_forms(name, line):
    for state in states_along(line):
        p = Position.of(state)
        for back in (position_from_text(position_to_text(p)), position_from_json(json.loads(json.dumps(position_to_json(p))))):
            assert field_values(back) == field_values(p)
        assert "\n" not in position_to_text(p)


@pytest.mark.parametrize(("name", "line"), [(n, n) for n in LINE_NAMES], ids=LINE_NAMES, indirect=["line"])
def test_the_engine_plays_on_from_a_position_as_from_the_line(name, line):
    states = states_along(line)
    for turn, (state, action) in enumerate(zip(states, line.actions, strict=False)):
        here = Position.of(state).state()
        assert set(here.legal_choices()) == set(state.legal_choices()), turn
        assert here.status == state.status and here.cards_left == state.cards_left
        assert here.discarded == state.discarded and here.gone == state.gone
        assert Position.of(here.apply(action)) == Position.of(states[turn + 1])
    # And the whole rest of the line, replayed from a position partway, reaches the same end.
    middle = len(line.actions) // 2
    rest = Line(Position.of(states[middle]), line.actions[middle:])
    check = verify(rest)
    assert check.legal and check.state is not None
    assert Position.of(check.state) == Position.of(states[-1])


def test_the_lines_reach_every_kind_of_position():
    """The fixtures above are not all alike: they hold won and lost positions, sunk islands,
    rocks in play and gone, Start cards discarded after the first."""
    ends = [states_along(line)[-1] for _, line in fixture_lines()]
    positions = [Position.of(s) for _, line in fixture_lines() for s in states_along(line)]
    assert any(s.won for s in ends) and any(s.status == Status.LOST for s in ends)
    assert any(p.sunk for p in positions) and any(p.removed for p in positions)
    assert any(p.rocks_row is not None and p.rocks_rolls for p in positions)
    assert any(p.rules.rocks != "off" and p.rocks_row is None for p in positions)
    starts_held = [sum(h.count("S") for h in (*p.hands, *p.piles)) for p in positions]
    assert any(p.start_played and held < p.players - 1 for p, held in zip(positions, starts_held, strict=True))


# -- solving a position and the line that reaches it ---------------------------------------------


@pytest.mark.slow
def test_solving_a_position_and_its_line_give_the_same_verdict():
    verdicts = set()
    for i, game in enumerate(small_deals(14, seed=23)):
        line = random_line(game, i)
        for turn in sorted({0, 1, len(line.actions) // 2, len(line.actions) - 1}):
            if turn < 0:
                continue
            prefix = Line(game, line.actions[:turn])
            state = states_along(prefix)[-1]
            by_line = solve(prefix, QUICK)
            by_position = solve(Position.of(state), QUICK)
            if by_line.verdict == "unknown" or by_position.verdict == "unknown":
                continue
            assert by_line.verdict == by_position.verdict, (i, turn)
            verdicts.add(by_line.verdict)
            if by_position.verdict == "win":
                found = by_position.line
                assert found is not None and found.position == Position.of(state)  # it starts at the position
                whole = Line(game, prefix.actions + found.actions)
                assert verify(whole).won
    assert verdicts == {"win", "no-win"}


# -- the goldens -------------------------------------------------------------------------------------


def golden_position(rules: Rules, players: int, seed: int, turns: int = 20) -> Position:
    state = State.initial(deal(rules, players, seed))
    rng = random.Random(0)
    for _ in range(turns):
        state = state.apply(random_action(state, rng))
    return Position.of(state)


GOLDENS = {
    "position_official_s1_p4_t20": (OFFICIAL, 4, 1),
    "position_monsters_rocks_s7_p3_t20": (Rules(monsters=4, rocks=Rocks.AUTO), 3, 7),
}


@pytest.mark.parametrize("name", list(GOLDENS))
def test_goldens(name):
    p = golden_position(*GOLDENS[name])
    text = (GOLDEN / f"{name}.txt").read_text()
    data = json.loads((GOLDEN / f"{name}.json").read_text())
    assert position_to_text(p) + "\n" == text
    assert position_to_json(p) == data
    assert read_game_file(GOLDEN / f"{name}.txt") == p
    assert read_game_file(GOLDEN / f"{name}.json") == p


def test_an_official_mid_game_position_is_short():
    assert 150 <= len(position_to_text(golden_position(OFFICIAL, 4, 1))) <= 300


# -- validation: each impossible position names its field -----------------------------------------


def base() -> dict:
    """An official 2-seat position 6 turns in (random play, fixed seed)."""
    return position_to_json(Position.of(states_along(random_line(deal(OFFICIAL, 2, 4), 4, limit=6))[-1]))


def refused(data: dict, *words: str) -> str:
    with pytest.raises(PositionError) as err:
        position_from_json(data)
    message = str(err.value)
    assert "\n" not in message
    for word in words:
        assert word in message, message
    return message


def first_island(data: dict) -> tuple[int, int]:
    cell = next(i for i, v in enumerate(data["grid"]) if v is not None)
    return cell, data["grid"][cell]


def test_the_base_position_is_valid():
    data = base()
    assert position_from_json(data).players == 2 and sum(v is not None for v in data["grid"]) >= 2


def test_a_card_twice():
    data = base()
    _, island = first_island(data)
    data["piles"][1].append(island)
    refused(data, "position.piles[1]", f"island {island} appears twice", "grid[")


def test_a_grid_out_of_order():
    data = base()
    data["grid"] = [None] * 36
    data["grid"][3], data["grid"][10] = 50, 20
    for seat in range(2):  # the islands, taken from wherever they were
        data["hands"][seat] = [c for c in data["hands"][seat] if c not in (50, 20)]
        data["piles"][seat] = [c for c in data["piles"][seat] if c not in (50, 20)]
    refused(data, "position.grid[10]", "20 must be larger than 50 in grid[3]", "order=sequence")


def test_a_hand_over_the_limit():
    data = base()
    data["hands"][0].append(data["piles"][0].pop())
    refused(data, "position.hands[0]", "6 cards, more than a hand of 5")


def test_a_short_hand_with_cards_still_to_draw():
    data = base()
    data["piles"][1].insert(0, data["hands"][1].pop())
    refused(data, "position.hands[1]", "drawing back up to 5")


def test_start_cards():
    data = base()
    assert data["start_played"] is False
    data["start_played"] = True
    refused(data, "position.piles[", "more Start cards than the game's 2 (1 played)")
    data = base()
    seat = next(s for s in range(2) if "S" in data["piles"][s])
    data["piles"][seat].remove("S")
    refused(data, "position.start_played", f"seat {seat}'s Start card is in neither")
    data = base()
    data["piles"][0].append("S")
    refused(data, "position.piles[1][", "more Start cards than the game's 2")
    data = base()
    data["piles"][1].remove("S")
    data["piles"][0].append("S")
    refused(data, "position.hands[0]/piles[0]", "seat 0 holds 2 Start cards")


def test_cards_not_in_the_game():
    data = base()
    data["piles"][0].append(81)
    refused(data, "position.piles[0][", "island 81 is not in the game", "1..80")
    data = base()
    data["piles"][0].append("M")
    refused(data, "position.piles[0][", "Sea Monster 'M' is not in the game", "monsters=0")
    data = base()
    data["piles"][0].append("F")
    data["piles"][1].append("F")
    refused(data, "position.piles[", "more Finish cards than the game's 5")
    data = base()
    data["piles"][0].append("X")
    with pytest.raises(FormatError, match=r"position\.piles\[0\]\[\d+\]: 'X' is not a card"):
        position_from_json(data)


def test_seats_and_shapes():
    data = base()
    data["seat"] = 2
    refused(data, "position.seat", "one of 0..1, got 2")
    data = base()
    data["grid"] = data["grid"][:-1]
    refused(data, "position.grid", "35 cells", "6x6")
    data = base()
    data["piles"] = data["piles"][:1]
    refused(data, "position.piles", "2 hand(s) but 1 pile(s)")
    data = base()
    data["hands"], data["piles"] = [], []
    refused(data, "position.hands", "1 to 5 seats")


def test_the_modules():
    data = base()
    data["rocks_row"] = 1
    refused(data, "position.rocks_row", "rule 'rocks' is off")
    data = base()
    data["sunk"] = [first_island(data)[1]]
    refused(data, "position.sunk", "the game has 0 Sea Monster(s)")
    data = base()
    data["removed_islands"] = [1]
    refused(data, "position.removed_islands", "rule 'removed' sets aside 0")
    rocks = position_to_json(golden_position(Rules(rocks=Rocks.AUTO), 2, 3, turns=6))
    assert rocks["rocks_row"] is not None and rocks["rocks_rolls"]
    refused(dict(rocks, rocks_row=None), "position.rocks_row", "stay until 4 rows are complete (0 are)")
    refused(dict(rocks, rocks_row=6), "position.rocks_row", "a row of 0..5")
    refused(dict(rocks, rules=dict(rocks["rules"], rocks="manual")), "position.rocks_rolls", "rocks=manual")
    # With Sea Monsters a complete row can open again, so rocks gone early are possible.
    monsters = position_to_json(golden_position(*GOLDENS["position_monsters_rocks_s7_p3_t20"]))
    assert position_from_json(dict(monsters, rocks_row=None, rocks_rolls=[])).rocks_row is None


def test_won_needs_a_full_grid():
    data = base()
    data["won"], data["start_played"] = True, True
    refused(data, "position.piles[", "more Start cards than the game's 2 (1 played)")
    data["piles"][1].remove("S")
    refused(data, "position.piles[", "more Finish cards than the game's 5 (1 played)")
    data["piles"][1].remove("F")
    refused(data, "position.won", "full grid")
    data["won"] = False
    assert position_from_json(data).discarded.count("S") == 0  # the Start played is no discard


def test_json_shape_errors_name_the_key():
    data = base()
    data["extra"] = 1
    with pytest.raises(FormatError, match="position: unknown key 'extra'"):
        position_from_json(data)
    data = base()
    del data["seat"]
    with pytest.raises(FormatError, match="position: missing key 'seat'"):
        position_from_json(data)
    data = base()
    data["start_played"] = "yes"
    with pytest.raises(FormatError, match=r"position\.start_played: must be true or false"):
        position_from_json(data)


@functools.cache
def official_text() -> str:
    """The text form of the official 4-player golden position."""
    return position_to_text(golden_position(OFFICIAL, 4, 1))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda w: ["tq2", *w[1:]], "tag"),
        (lambda w: w[:4], "expected 'tq1 RULES GRID SEATS SEAT STAGE"),
        (lambda w: [w[0], "nosuch", *w[2:]], "rules: expected a preset"),
        (lambda w: [w[0], "official,rows=five", *w[2:]], "rules: rule 'rows': must be an integer"),
        (lambda w: [*w[:2], w[2] + "/_6", *w[3:]], "grid: 7 row(s)"),
        (lambda w: [*w[:2], "_7" + w[2][2:], *w[3:]], "grid row 0: 7 cell(s)"),
        (lambda w: [*w[:2], "x" + w[2], *w[3:]], "grid row 0: expected an island number"),
        (lambda w: [*w[:3], w[3].replace(":", ";", 1), *w[4:]], "seat 0: expected HAND:PILE"),
        (lambda w: [*w[:4], "9", *w[5:]], "seat: the seat to move must be one of 0..3"),
        (lambda w: [*w[:5], "Q"], "stage: expected '-'"),
        (lambda w: [*w, "sunk"], "expected KEY=VALUE"),
        (lambda w: [*w, "rocks=2"], "rocks_row: the Jagged Rocks are set but rule 'rocks' is off"),
    ],
)
def test_text_form_errors_name_the_word(change, words):
    with pytest.raises(FormatError) as err:
        position_from_text(" ".join(change(official_text().split())))
    assert words in str(err.value) and str(err.value).startswith("position text")


def test_the_text_form_needs_the_rocks_row_when_rocks_are_on():
    text = position_to_text(golden_position(*GOLDENS["position_monsters_rocks_s7_p3_t20"]))
    without = " ".join(w for w in text.split() if not w.startswith("rocks="))
    with pytest.raises(PositionError, match="rocks: rule rocks=auto: give rocks=ROW"):
        position_from_text(without)


def test_the_rolls_kept_play_the_same():
    """Position.of keeps the rolls reduced mod lcm(1..rows-1), and no more than the cards left."""
    p = golden_position(*GOLDENS["position_monsters_rocks_s7_p3_t20"])
    assert p.rocks_rolls and max(p.rocks_rolls) < 60
    assert len(p.rocks_rolls) <= sum(map(len, p.hands)) + sum(map(len, p.piles))


# -- lines and notation from a position ------------------------------------------------------------


def test_a_line_from_a_position_in_json_and_notation():
    game = deal(OFFICIAL, 3, 2)
    line = random_line(game, 2, limit=12)
    middle = Position.of(states_along(Line(game, line.actions[:5]))[-1])
    assert middle.seat == 2  # the notation's seats count on from the seat to move
    rest = Line(middle, line.actions[5:])
    data = json.loads(json.dumps(line_to_json(rest)))
    assert "position" in data and "deal" not in data
    assert line_from_json(data) == rest and rest.position == middle
    text = write_notation(rest)
    assert text.startswith("position tq1 ")
    assert parse_notation(text) == rest
    both = dict(data, deal={})
    with pytest.raises(FormatError, match="holds both 'deal' and 'position'"):
        line_from_json(both)


def test_a_bad_position_in_a_notation_header_names_line_and_column():
    with pytest.raises(FormatError, match=r"line 1, column 10: .*position text, grid"):
        parse_notation("position tq1 official _5 0:0 0 -\n")


# -- the command line ----------------------------------------------------------------------------------


@pytest.fixture
def small_position(tmp_path):
    """A small one-seat game, 3 turns in, as a line file and its position's two forms."""
    line = parse_notation(f"deal 1 1 {SMALL}\n{WON}\n")
    state = states_along(Line(line.deal, line.actions[:3]))[-1]
    p = Position.of(state)
    return {
        "line": write(tmp_path / "game.tq", f"deal 1 1 {SMALL}\n{WON}\n"),
        "text": write(tmp_path / "position.tq", position_to_text(p) + "\n"),
        "json": write(tmp_path / "position.json", position_to_json(p)),
        "position": p,
        "rest": line.actions[3:],
    }


def test_show_turn_position_prints_both_forms(small_position):
    result = run("show", small_position["line"], "--turn", 3, "--position")
    assert result.exit_code == 0, result.output
    first, rest = result.stdout.split("\n", 1)
    assert first == position_to_text(small_position["position"])
    assert json.loads(rest) == position_to_json(small_position["position"])
    only = run("show", small_position["line"], "--turn", 3, "--position", "--json")
    assert only.exit_code == 0 and json.loads(only.stdout) == position_to_json(small_position["position"])
    plain = run("show", small_position["line"], "--turn", 3, "--json")
    assert json.loads(plain.stdout) == json.loads(only.stdout)
    hidden = run("show", small_position["line"], "--position", "--hide-piles")
    assert hidden.exit_code == 2 and "--hide-piles" in hidden.stderr


def test_show_draws_a_position_file(small_position):
    for path in (small_position["text"], small_position["json"]):
        result = run("show", path)
        assert result.exit_code == 0, result.output
        # The temporary path is longer than the test's 100 columns: the header wraps at a space.
        assert " ".join(result.stdout.split()).startswith(f"{path}: position, 1 player(s)")


def test_verify_and_solve_take_a_position_file_and_text(small_position, tmp_path):
    text = small_position["text"].read_text().strip()
    as_json = json.dumps(position_to_json(small_position["position"]))
    for args in ([small_position["text"]], [small_position["json"]], ["--position", text], ["--position", as_json]):
        check = run("verify", *args, "--json")
        assert check.exit_code == 0, check.output
        assert json.loads(check.stdout) == {"legal": True, "won": False, "status": "open", "turns": 0, "error": None}
    out = tmp_path / "win.json"
    solved = run("solve", "--position", text, "--reproducible", "--out", out)
    assert solved.exit_code == 0, solved.output
    assert "WIN" in solved.stdout
    line = read_game_file(out)
    assert isinstance(line, Line) and line.position == small_position["position"]
    won = run("verify", out)
    assert won.exit_code == 0 and "status won" in won.stdout
    notation = run("verify", out, "--notation")
    assert notation.exit_code == 0 and notation.stdout.startswith("position tq1 ")


@pytest.mark.slow
def test_every_command_takes_a_position(small_position):
    text = small_position["text"].read_text().strip()
    for command in (
        ["explain", "--position", text, "--reproducible", "--critical-time", "1"],
        ["analyze", "--position", text, "--reproducible"],
        ["simulate", "--position", text],
        ["grade", small_position["json"]],
        ["solve", small_position["json"], "--reproducible"],
    ):
        result = run(*command)
        assert result.exit_code in (0, 1), (command, result.output)
        assert "Traceback" not in result.output


def test_bad_positions_on_the_command_line_exit_2(small_position):
    text = small_position["text"].read_text().strip()
    bad = text.replace(" 0 -", " 3 -")
    assert bad != text
    for args in (
        ["verify", "--position", bad],
        ["solve", "--position", bad],
        ["simulate", "--position", "tq1 nosuch"],
        ["verify", "--position", "{not json"],
    ):
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: --position: ")
        assert result.stderr.count("--position") == 1 and ("position text" in result.stderr or "nor JSON" in result.stderr)
    both = run("solve", small_position["json"], "--position", text)
    assert both.exit_code == 2 and "only one of them" in both.stderr
    neither = run("verify")
    assert neither.exit_code == 2 and "Missing argument 'FILE' (or give --position TEXT)" in neither.stderr
    twice = run("verify", small_position["json"], "--position", text)
    assert twice.exit_code == 2 and "not both" in twice.stderr
    file = write(small_position["text"].parent / "bad.tq", bad + "\n")
    result = run("show", file)
    assert result.exit_code == 2 and str(file) in result.stderr and "seat" in result.stderr


def test_verify_counts_the_turns_of_a_line_from_its_position(small_position):
    p = small_position["position"]
    rest = small_position["rest"]
    bad = Line(p, (rest[0], rest[0]))
    check = verify(bad)
    assert not check.legal and check.turns == 1 and check.error is not None
    assert check.error.startswith("turn 2: seat 0 plays")


def test_the_html_replay_embeds_the_position(small_position):
    from tranquility.cli.html import replay_html, replay_steps

    p = small_position["position"]
    line = Line(p, small_position["rest"])
    page = replay_html(line, {"verdict": "win"})
    assert json.dumps(position_to_json(p), separators=(",", ":")) in page
    steps = replay_steps(line, {})
    assert [position_from_text(s["position"]) for s in steps] == [Position.of(s) for s in states_along(line)]


def test_a_text_form_file_may_hold_comments_and_a_notation_file_may_name_it(small_position, tmp_path):
    p = small_position["position"]
    path = write(tmp_path / "commented.tq", f"\ufeff# a table's position\n{position_to_text(p)}\n# typed by hand\n")
    assert read_game_file(path) == p
    game = write(tmp_path / "from-file.tq", "deal-file position.tq\nS/2,5\n")
    line = read_game_file(game)
    assert isinstance(line, Line) and line.position == p and line.actions == small_position["rest"][:1]
    assert verify(line).legal


def test_an_impossible_position_inside_a_line_file_names_the_line_and_field(tmp_path):
    data = line_to_json(Line(golden_position(OFFICIAL, 4, 1)))
    data["position"]["seat"] = 7
    path = write(tmp_path / "line.json", data)
    with pytest.raises(FormatError, match=r"line\.json: line\.position\.seat: the seat to move must be one of 0\.\.3, got 7"):
        read_game_file(path)
    result = run("verify", path)
    assert result.exit_code == 2 and "line.position.seat" in result.stderr


def test_a_position_shows_its_text_form_as_its_repr(small_position):
    """As a chess board shows its FEN: the repr is the text form, which reads back as the same position."""
    position = small_position["position"]
    text = position_to_text(position)
    assert position.text() == text and repr(position) == f"Position({text!r})"
    assert position_from_text(text) == position


@pytest.mark.parametrize("preset", ["official", "rocks", "islands"])
def test_a_state_shows_the_text_form_of_the_position_it_stands_at(preset):
    game = deal(PRESETS[preset], 3, 2)
    state = states_along(simulate(game, "thrifty", 0).line)[12]
    assert repr(state) == f"State({Position.of(state).text()!r})"
