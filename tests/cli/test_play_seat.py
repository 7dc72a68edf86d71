"""``tranquility play --seat K``: one seat played by a person, bots at the others, each seat
seeing its own hand only (solver/analysis/table.py, the board in cli/play/, docs/play.md,
"Playing a seat with bots"). The bots here play a silent policy, fast and deterministic, and
the pilot runs them without a pause (``bot_delay=0``)."""

from __future__ import annotations

import asyncio
import re
import shlex
import subprocess
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest
from textual.widgets import Input
from tranquility.cli.play.app import PlayApp
from tranquility.cli.play.commands import OFF_AT_TABLE
from tranquility.cli.play.widgets import BoardView
from tranquility.solver.analysis.board import Board, BoardError, MoveRefused
from tranquility.solver.analysis.table import FairHint, Seating, Table, seen_token, seen_words
from tranquility.solver.engine.actions import DiscardTwo, PlayIsland, PlayStart, RocksMove
from tranquility.solver.engine.cards import is_island
from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.rules import OFFICIAL, PRESETS
from tranquility.solver.engine.verify import verify
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.notation import parse_notation
from tranquility.solver.search.lookahead import Lookahead
from tranquility.solver.search.memory import remember

from ..helpers import SMALL, run
from ..test_readme import PER_EXAMPLE, ROOT, commands, quick_blocks, sh_blocks
from .test_play import QUICK, _enter, _rows_and_hands, _screen, _settle, _type


def small(seed: int, players: int) -> Board:
    return Board.open(parse_notation(f"deal {seed} {players} {SMALL}\n"))


def _share(table: Table) -> str:
    """The person's share of the Start event: its public quota, its first cards."""
    call = table.start.call if table.start is not None else None
    assert call is not None
    return ",".join(map(str, call.obs.hand[: min(max(call.quota, call.least), call.most)]))


def _play_out(table: Table, check: Callable[[Table], None] = lambda table: None) -> Table:
    """The game to its end: the person plays the first move its list offers and gives its quota."""
    while not table.board.over:
        check(table)
        if table.start is not None:
            table = table.give(_share(table))
        elif table.my_turn:
            table = table.play(table.moves[0].token)
        else:
            table = table.bot_move()
    return table


# -- the table, in the library ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "players", "seat", "bots"), [(1, 2, 0, "thrifty"), (2, 2, 1, "greedy"), (1, 3, 2, "thrifty"), (4, 3, 1, "lookahead")]
)
def test_each_bot_decides_from_its_own_view_and_memory(seed, players, seat, bots):
    seating = Seating(seat, bots, samples=3)

    def check(table: Table) -> None:
        state, line = table.board.state, table.board.line
        assert table.memories == tuple(remember(line, s) for s in range(players))  # kept turn by turn
        for move in table.moves:  # the person's moves: cards of its own hand only
            cards = [move.action.card] if isinstance(move.action, PlayIsland) else []
            cards += list(getattr(move.action, "discard", ()))
            assert all(card in state.hands[seat] for card in cards)
        if table.bots_turn and not state.must_play_start():
            expected = seating.policy().decide(observe(state, state.seat), remember(line, state.seat))
            assert table.bot_move().board.actions[-1] == expected

    end = _play_out(seating.sit(small(seed, players)), check)
    replayed = verify(end.board.line)
    assert replayed.legal and replayed.status == end.board.state.status


def test_the_person_moves_on_its_turn_only():
    table = Seating(1, "thrifty").sit(small(1, 2))
    assert table.bots_turn and table.moves == ()
    with pytest.raises(BoardError, match=r"^seat 0 is to move \(a bot\); your seat is 1$"):
        table.play("2@0")
    table = table.bot_move()
    assert table.my_turn and table.moves
    token = table.moves[0].token
    with pytest.raises(MoveRefused, match=r"^move 2 of 2, .* seat 0 is to move then, not seat 1"):
        table.play(f"{token} {token}")
    with pytest.raises(BoardError, match="your turn, not a bot's"):
        table.bot_move()
    assert not table.board.state.must_play_start()
    with pytest.raises(BoardError, match="you have no Start card to play"):
        table.play("S")
    assert table.play(token).bots_turn
    with pytest.raises(BadInput, match=r"^seat 2: the game has seats 0\.\.1$"):
        Seating(2).sit(small(1, 2))


def test_the_start_event_asks_the_person_for_its_share():
    table = Seating(1, "thrifty").sit(small(3, 2))  # seat 1 holds the Start: it plays it at turn 4
    while not table.board.state.must_play_start():
        table = table.play(table.moves[0].token) if table.my_turn else table.bot_move()
    assert [m.token for m in table.moves] == ["S"]
    with pytest.raises(BoardError, match="the Start is played as S alone"):
        table.play("S/1|2")
    asked = table.play("S")
    start = asked.start
    assert start is not None and start.call is not None and asked.board.turn == table.board.turn and asked.my_turn
    call = start.call
    assert "Give " in start.words()[-1] and f"Your hand for it: {' '.join(map(str, call.obs.hand))}." in start.words()
    with pytest.raises(BoardError, match="the Start event waits for you"):
        asked.play("S")
    with pytest.raises(BoardError, match=r"card\(s\), not 3"):
        asked.give(",".join(map(str, (call.obs.hand * 3)[:3])))
    absent = next(card for card in range(1, 13) if card not in call.obs.hand)
    with pytest.raises(BoardError, match="give cards of your hand"):
        asked.give(",".join([str(absent)] * max(call.least, 1)))
    with pytest.raises(BoardError, match="give CARDS"):
        asked.give("1 2")
    given = asked.give(_share(asked))
    start_action = given.board.actions[-1]
    assert isinstance(start_action, PlayStart) and given.start is None
    assert ",".join(map(str, start_action.team_discard[1])) == _share(asked)


def test_the_person_gives_when_a_bot_plays_the_start():
    table = Seating(1, "thrifty").sit(small(1, 2))  # seat 0, a bot, plays the Start at turn 5
    while table.start is None:
        table = table.play(table.moves[0].token) if table.my_turn else table.bot_move()
    assert table.board.state.seat == 0 and table.my_turn and not table.bots_turn and table.moves == ()
    assert table.start is not None and table.start.words()[0].startswith("The Start event (seat 0 played the Start)")
    with pytest.raises(BoardError, match="rocks ROW is for"):
        table.rocks("1")
    after = table.give(_share(table))
    assert isinstance(after.board.actions[-1], PlayStart) and after.board.actions[-1].seat == 0


def test_after_its_start_the_person_moves_the_manual_rocks():
    table = Seating(0, "thrifty").sit(Board.open(deal(PRESETS["rocks-manual"], 2, 5)))
    while table.start is None or table.start.call is not None:
        if table.start is not None:
            table = table.give(_share(table))
        else:
            table = table.play(table.moves[0].token) if table.my_turn else table.bot_move()
    assert table.start is not None and table.start.rows == (1, 2, 3, 4, 5)
    assert table.start.words() == ["The Start is played: move the Jagged Rocks to a row (1, 2, 3, 4, 5): type the row."]
    with pytest.raises(BoardError, match="one of rows 1, 2, 3, 4, 5"):
        table.rocks("0")
    with pytest.raises(BoardError, match="give is for your share"):
        table.give("")
    moved = table.rocks("4")
    played = moved.board.actions[-1]
    assert isinstance(played, PlayStart) and played.rocks == RocksMove(4) and moved.board.state.rocks_row == 4


def test_another_seats_payment_is_face_down_in_the_history():
    island = PlayIsland(seat=1, card=41, cell=20, discard=(3, "F"))
    assert (seen_token(island, 1), seen_token(island, 0)) == ("41@20-3,F", "41@20-?,?")
    assert seen_words(island, 0) == "seat 1 plays 41 at cell 20, paying 2 card(s) face down"
    stay = DiscardTwo(seat=1, discard=(10, 20), rocks=RocksMove(None, (30, 40)))
    assert seen_token(stay, 0) == "x?,?>stay-?,?"
    assert seen_words(stay, 0) == "seat 1 discards 2 card(s) face down; the rocks stay (paying 2 card(s) face down)"
    assert seen_token(replace(stay, rocks=RocksMove(0)), 0) == "x?,?>0"
    start = PlayStart(seat=0, team_discard=((10, 20), (), (30,)))
    assert seen_token(start, 0) == "S/10,20||?" and seen_token(start, 2) == "S/?,?||30"
    assert (
        seen_words(start, 2)
        == "seat 0 plays the Start card; the team discards (seat 0: 2 card(s) face down; seat 1: nothing; seat 2: 30)"
    )


def test_the_fair_hint_ranks_every_move_with_its_interval():
    table = Seating(0, "thrifty", hint_samples=3).sit(small(1, 2))
    found = list(table.estimate_each())
    assert [e.action for e in found] == [m.action for m in table.moves] and {e.worlds for e in found} == {3}
    assert found == list(table.estimate_each())  # the same worlds every time: seed, turn and seat
    together = Lookahead(0, 3).estimate(table.view, table.memory, [m.action for m in table.moves], "hint/0/0/0")
    assert tuple(found) == together  # one move at a time, each in the same worlds as the others
    hint = FairHint(3, tuple(found))
    assert [e.wins for e in hint.ranked] == sorted((e.wins for e in found), reverse=True)
    words = hint.words()
    assert words[0] == f"{len(found)} move(s), each played out in the same 3 worlds that fit what you have seen:"
    for line, estimate in zip(words[1:], hint.ranked, strict=True):
        low, high = estimate.interval()
        assert line.endswith(f"{estimate.wins}/3 won: {estimate.rate:.0%} ({low:.0%}-{high:.0%})")
    with pytest.raises(BoardError, match="the fair hint is for your turn"):
        next(table.play(table.moves[0].token).estimate_each())


# -- the board, driven by the pilot ------------------------------------------------------------------


def _drive_table(board: Board, seating: Seating, script: Callable[[PlayApp, object], Awaitable[None]], size=(150, 50)) -> None:
    app = PlayApp(board, check=True, seating=seating, bot_delay=0)
    app.budget = QUICK

    async def run_it() -> None:
        async with app.run_test(size=size) as pilot:
            await _settle(app, pilot)
            await script(app, pilot)

    asyncio.run(run_it())


_BOT_TOKEN = re.compile(r"(\d+@\d+(-\?(,\?)*)?|x\?(,\?)*|F|M@\d+|S/[?,|\w]*)(>(\d+|stay(-\?(,\?)*)?))?")


def _shows_nothing_hidden(app: PlayApp) -> None:
    """The board pane, line by line, and the history: the grid, the person's own hand, every
    other hand and every pile as counts, the discards face down but the person's own; another
    seat's payments as ``?``."""
    table = app.table
    assert table is not None
    state, seat = table.board.state, table.seat
    lines = app.query_one(BoardView).render().plain.splitlines()
    last = table.board.actions[-1] if table.board.actions else None
    rows, _ = _rows_and_hands(state, None if last is None else getattr(last, "cell", None))
    for pattern in rows:
        assert any(re.match(pattern, line) for line in lines), pattern
    seats = lines.index(next(line for line in lines if line.startswith("Seat")))
    for s in range(state.players):
        line, mark = lines[seats + 1 + s], r"( <)?"
        pile = len(state.pile(s))
        if s == seat:
            assert re.fullmatch(rf" *{s}{mark} +{re.escape(' '.join(map(str, state.hands[s])))} +{pile} +you", line), line
        else:
            held = len(state.hands[s])
            assert re.fullmatch(rf" *{s}{mark} +{held} cards? +{pile} *", line), line
    own = table.memory.own_discards
    said = f"Discarded: {len(state.discarded)} card(s) face down" + (
        f"; yours among them: {' '.join(map(str, own))}" if own else ""
    )
    at = next(i for i, line in enumerate(lines) if line.startswith("Discarded: "))
    end = next((i for i, line in enumerate(lines) if i > at and line.startswith(("Out of the game", "puzzle "))), len(lines))
    assert " ".join(" ".join(lines[at:end]).split()) == said  # a long list wraps
    screen = _screen(app)
    for turn, token, who in re.findall(r"(\d+)\. (\S+) +seat (\d) ", screen):
        action = table.board.actions[int(turn) - 1]
        assert token == seen_token(action, seat)
        if int(who) != seat or isinstance(action, PlayStart):
            assert _BOT_TOKEN.fullmatch(token), token
        if isinstance(action, PlayStart):  # the person's share only
            groups = token.removeprefix("S/").split(">")[0].split("|")
            assert all(set(g) <= {"?", ","} for s, g in enumerate(groups) if s != seat), token


async def _a_game_at_the_table(app: PlayApp, pilot) -> None:
    table = app.table
    assert table is not None and table.my_turn and table.board.turn == 1  # the bot at seat 0 moved first
    assert app.said == f"seat 0 played {seen_token(table.board.actions[0], 1)}. Your move." and not app.workers
    for word, why in (("undo", "undo"), ("redo", "undo"), ("back", "undo"), ("moves", "moves"), ("check", "check")):
        await _enter(pilot, word)
        assert app.said == OFF_AT_TABLE[why]
    for key, why in (("ctrl+z", "undo"), ("ctrl+g", "undo"), ("ctrl+b", "moves"), ("ctrl+n", "check")):
        await pilot.press(key)
        assert app.said == OFF_AT_TABLE[why]
    await _enter(pilot, "analyze")
    assert app.said.startswith("the post-game analysis is for a game that is over")
    await _enter(pilot, "give 1")
    assert app.said == "refused: give is for your share of the Start event, when the event asks for it"
    hinted = answered = False
    while app.table is not None:
        table = app.table
        _shows_nothing_hidden(app)
        assert table.my_turn and not app.workers  # the bots moved until the person's turn
        assert app.proofs.verdicts == {}  # nothing was solved from the hidden cards
        if table.start is not None:
            assert app.reported.startswith("The Start event") and "Your hand for it" in app.reported
            await _enter(pilot, f"give {_share(table)}")
        elif not hinted and 1 < len(table.moves) < 40:
            await pilot.press("ctrl+t")  # the fair hint: every move of the person, ranked
            await _settle(app, pilot)
            shown = app.reported.splitlines()
            assert (
                shown[0] == f"{len(table.moves)} move(s), each played out in the same 2 worlds that fit what you have seen:"
                and len(shown) > 1
            )
            for line in shown[1:]:
                assert re.fullmatch(r" *\d+\. \S+ +\d/2 won: \d+% \(\d+%-\d+%\)", line), line
            assert "Fair hint: turn" in _screen(app)
            hinted = True
        else:
            before = table.board.turn
            await _enter(pilot, table.moves[0].token)
            await _settle(app, pilot)
            if app.table is not None and app.table.start is None:  # the bot answered, and the person is to move
                assert app.board.turn == before + 2 and app.said.startswith("seat 0 played ") and app.said.endswith(" Your move.")
                answered = True
    assert hinted and answered
    # The end: every card is face up, the usual board's commands are back.
    board = app.board
    assert board.over and "Every card is face up now." in app.said and "analyze fair" in app.said
    shown = _screen(app).splitlines()
    _, hands = _rows_and_hands(board.state, None)
    for pattern in hands:
        assert any(re.match(pattern, line) for line in shown), pattern
    for seat in range(board.state.players):
        pile = board.state.pile(seat)
        assert not pile or any(" ".join(map(str, pile)) in line for line in shown)
    assert "face down" not in _screen(app) and "Pile (top first)" in _screen(app)
    await _enter(pilot, "undo")
    assert app.board.turn == board.turn - 1 and app.said.startswith("undone")


@pytest.mark.slow
def test_a_game_at_a_table_of_bots_hides_every_card_but_the_seats_own():
    seating = Seating(1, "thrifty", hint_samples=2)
    _drive_table(Board.open(deal(OFFICIAL, 2, 3)), seating, _a_game_at_the_table)


def test_the_screen_is_the_same_whatever_the_hidden_cards_are():
    """Two deals that differ only in what seat 0 cannot see (the other hands, every pile
    below its own hand) draw the same screen."""
    first = deal(OFFICIAL, 3, 7)
    hand = OFFICIAL.hand
    piles = [tuple(reversed(p)) if s else p[:hand] + tuple(reversed(p[hand:])) for s, p in enumerate(first.piles)]
    other = Deal(rules=first.rules, piles=tuple(piles))
    assert other.piles[0][:hand] == first.piles[0][:hand]  # seat 0's hand alike, the other hands not
    assert all(Board.open(other).state.hands[s] != Board.open(first).state.hands[s] for s in (1, 2))
    screens = []
    for game in (first, other):

        async def seen(app, pilot) -> None:
            screens.append(_screen(app))
            hidden = {c for s in (1, 2) for c in app.board.state.hands[s] if is_island(c) and c > 40}  # no count is
            board_pane = app.query_one(BoardView).render().plain
            assert hidden and not any(re.search(rf"(?<![\d.]){card}(?!\d)", board_pane) for card in hidden)

        _drive_table(Board.open(game), Seating(0, "thrifty"), seen, size=(100, 30))
    assert screens[0] == screens[1]


@pytest.mark.slow
def test_solo_the_pile_is_face_down_and_no_bot_plays():
    async def script(app, pilot) -> None:
        assert "Pile (face down)" in _screen(app)
        await _enter(pilot, "10@4 7@2 1@0")  # one seat: several moves at once
        assert app.board.turn == 3
        await _enter(pilot, "S/2,5")
        assert app.said.startswith("refused: at a table the Start is played as S alone")
        await _enter(pilot, "S")  # the hand holds the 2 cards owed: no choice, so nothing is asked
        assert app.board.turn == 4 and app.said == "played S/2,5."
        await _enter(pilot, "8@3-4 6@1-3 11@5-9 F")
        assert app.table is None and app.board.state.won and "Every card is face up now." in app.said
        assert "Pile (top first)" in _screen(app)
        await _enter(pilot, "analyze fair")  # the fair analysis: each turn judged by what its mover saw
        await _settle(app, pilot)
        assert app.fair is not None and app.analysis is app.fair.perfect
        shown = " ".join(_screen(app).split())
        assert "Fair analysis:" in shown and "Verdict: WON. The line won the game." in shown

    _drive_table(small(1, 1), Seating(0, "thrifty"), script)


@pytest.mark.slow
def test_save_and_load_at_a_table(tmp_path):
    async def script(app, pilot) -> None:
        assert app.board.turn == 1 and app.table is not None and app.table.my_turn
        await _enter(pilot, f"save {tmp_path / 'game.json'}")
        assert app.said.startswith("wrote ")
        small(1, 1).save(tmp_path / "solo.json")
        await _enter(pilot, f"load {tmp_path / 'solo.json'}")
        assert app.said == "not loaded: seat 1: the game has seats 0..0" and app.board.turn == 1
        await _enter(pilot, app.table.moves[0].token)
        await _settle(app, pilot)
        assert app.board.turn == 3
        await _enter(pilot, f"load {tmp_path / 'game.json'}")  # the same seat, in the game loaded
        await _settle(app, pilot)
        assert app.board.turn == 1 and app.table is not None and app.table.seat == 1 and app.table.my_turn

    _drive_table(small(1, 2), Seating(1, "thrifty"), script)


async def _to_the_start_event(app: PlayApp, pilot) -> None:
    """Play the first move the list offers until the Start event asks for the person's share."""
    await _settle(app, pilot)
    while app.table is not None and app.table.start is None:
        await _enter(pilot, app.table.moves[0].token)
        await _settle(app, pilot)


@pytest.mark.parametrize("typed", ["give {}", "{}"])
def test_the_start_event_takes_what_it_says_to_type(typed):
    async def script(app, pilot) -> None:
        bar = _screen(app).splitlines()[-1]
        assert bar.split() == ["^t", "Hint", "^s", "Save", "^o", "Load", "^r", "Analysis"]  # what is off is not offered
        await pilot.press("ctrl+z")  # still says why it is off
        assert app.said == OFF_AT_TABLE["undo"]
        await _to_the_start_event(app, pilot)
        table, field = app.table, app.query_one("#command", Input)
        assert table is not None and table.start is not None and table.board.state.seat == 0
        assert field.value == "" and app.said.endswith("type the cards (12,44).")  # said, not pre-filled
        board_pane = " ".join(app.query_one(BoardView).render().plain.split())
        assert "Start being played by seat 0, its event asking" in board_pane and "not yet played" not in board_pane
        share = _share(table)
        await _type(pilot, typed.format(share))  # key by key, as the message says
        assert app.table is not None and app.table.start is None, app.said
        played = app.board.actions[table.board.turn]
        assert isinstance(played, PlayStart) and ",".join(map(str, played.team_discard[1])) == share
        assert "Start played;" in " ".join(app.query_one(BoardView).render().plain.split())

    _drive_table(small(1, 2), Seating(1, "thrifty"), script, size=(80, 24))


# -- the command line ----------------------------------------------------------------------------


def test_the_table_options_are_checked_before_the_board_opens(tmp_path, monkeypatch):
    for flags, said in (
        (["--bots", "greedy"], "--bots is only taken with --seat"),
        (["--bot-delay", "0"], "--bot-delay is only taken with --seat"),
        (["--hint-samples", "4"], "--hint-samples is only taken with --seat"),
        (["--seat", "2"], "--seat 2: the game has seats 0..1"),
        (["--seat", "0", "--bot-delay", "-1"], "-1.0 is not in the range x>=0"),
        (["--seat", "0", "--bots", "nobody"], "'nobody' is not one of"),
    ):
        result = run("play", "--seed", "1", "--players", "2", *flags)
        assert result.exit_code == 2 and said in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1 or "Usage" in result.output
    path = tmp_path / "line.json"
    assert run("simulate", "--seed", "1", "--players", "3", "--out", path).exit_code == 0
    result = run("play", path, "--seat", "3")
    assert result.exit_code == 2 and result.output.startswith("Error: --seat 3: the game has seats 0..2 (see ")
    result = run("play", path, "--seat", "2", "--bots", "lookahead", "--bot-delay", "0")  # taken
    assert result.exit_code == 2 and "needs a terminal" in result.output
    # The board in the browser is serve's: play --web says so, in one line.
    result = run("play", "--seed", "3", "--players", "2", "--seat", "1", "--web")
    assert result.exit_code == 2 and "tranquility serve is the board in the browser" in result.output


def test_the_play_examples_of_the_docs_run_as_written(tmp_path, monkeypatch):
    """Each ``tranquility play`` line of docs/play.md, as written, in the folder its quick
    examples leave (the files they write): its options are taken and its board opens (up to
    the terminal it needs)."""
    text = (ROOT / "docs" / "play.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for line in commands(quick_blocks(text)):
        made = subprocess.run(["sh", "-c", line], capture_output=True, text=True, timeout=PER_EXAMPLE, check=False)
        assert made.returncode == 0, (line, made.stderr)
    examples = [line.split("#")[0] for line in commands(sh_blocks(text)) if line.startswith("tranquility play ")]
    for example in examples:
        args = shlex.split(example)[1:]
        result = run(*args)
        assert result.exit_code == 2 and "needs a terminal" in result.output, (example, result.output)
    seated = [e for e in examples if "--seat" in e and "--bots" in e]
    assert any("--players 3" in e for e in seated), examples  # three seats, two of them bots
