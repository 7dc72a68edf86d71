"""The ``lookahead`` policy: a seat's memory, the worlds it samples, and no peeking.

The central check: deal again every card a seat cannot see (other hands, the undrawn
piles, the faces of the other seats' discards, the removed islands), keeping every count
and the public history, and the seat's memory, observation and decision stay the same.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from dataclasses import replace

import pytest
from tranquility.solver.engine.actions import Action, DiscardTwo, PlayIsland, PlayStart, RocksMove
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island
from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.rules import PRESETS, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import line_to_json
from tranquility.solver.search.lookahead import (
    DEFAULT_SAMPLES,
    EFFECT,
    SIMULATE_POLICIES,
    Lookahead,
    MoveEstimate,
    last_round,
)
from tranquility.solver.search.memory import SeatMemory, remember
from tranquility.solver.search.placements import fitting_islands
from tranquility.solver.search.policies import POLICIES, Thrifty, make_policy, play_on, simulate
from tranquility.solver.search.worlds import sample_world, undo_turn

from ..helpers import run

OFFICIAL = PRESETS["official"]


def every_card(rules: Rules, players: int) -> Counter[Card]:
    cards: Counter[Card] = Counter(range(1, rules.islands + 1))
    cards.update({START: players, FINISH: rules.finish, MONSTER: rules.monsters})
    return +cards


def where_cards_are(state: State) -> Counter[Card]:
    """Every card of a state, wherever it is (the played Start card counted once)."""
    cards = Counter(v for v in state.grid if v is not None) + Counter(state.gone) + Counter(state.discarded)
    cards += Counter(state.deal.removed_islands)
    for seat in range(state.players):
        cards += Counter(state.hands[seat]) + Counter(state.pile(seat))
    cards[START] += state.start_played
    return cards


def positions(rules: Rules, players: int, seed: int, every: int) -> list[tuple[Line, State]]:
    """Lines of a thrifty game cut every ``every`` turns (not the won end), with their states."""
    game = deal(rules, players, seed)
    actions = simulate(game, "thrifty").line.actions
    cuts = []
    for turn in range(0, len(actions), every):
        line = Line(game, actions[:turn])
        state = line.end_state()
        if not state.won:
            cuts.append((line, state))
    return cuts


# -- memory ------------------------------------------------------------------------------


def test_memory_holds_the_public_history_and_the_seats_own_cards():
    game = deal(OFFICIAL, 3, 4)
    line = simulate(game, "thrifty").line
    state = line.end_state()
    for seat in range(3):
        memory = remember(line, seat)
        assert len(memory.history) == len(line.actions) == len(memory.hands) - 1
        assert memory.hand == state.hands[seat] and memory.hands[0] == state.initial(game).hands[seat]
        # What the seat put face down is on the discard pile, and every seat's count adds up.
        assert Counter(memory.own_discards) <= Counter(state.discarded)
        assert len(memory.own_discards) == memory.discarded_by(seat)
        # Its faces are the cards its own actions paid (no forced Start round in this game).
        paid = [c for a in line.actions if a.seat == seat and isinstance(a, PlayIsland | DiscardTwo) for c in a.discard]
        paid += [c for a in line.actions if isinstance(a, PlayStart) for c in a.team_discard[seat]]
        assert Counter(memory.own_discards) == Counter(paid)
        assert sum(memory.discarded_by(s) for s in range(3)) == len(state.discarded)
        placed = [r for r in memory.history if r.card is not None]
        assert {r.card for r in placed} >= {v for v in state.grid if v is not None}
        assert memory.start_player() == next(a.seat for a in line.actions if isinstance(a, PlayStart))
    # The public record is the same in every seat's memory; only the own cards differ.
    memories = [remember(line, seat) for seat in range(3)]
    assert memories[0].history == memories[1].history == memories[2].history
    assert memories[0].own_discards != memories[1].own_discards


def test_the_table_keeps_the_same_memory_as_a_replay():
    """A remembering policy gets, each turn, the memory ``remember`` builds of the line so far."""
    seen: list[SeatMemory] = []

    class Recorder(Thrifty):
        remembers = True

        def decide(self, obs, memory):
            assert memory is not None and memory.seat == obs.seat and memory.hand == obs.hand
            seen.append(memory)
            return self.act(obs)

    game = deal(OFFICIAL, 2, 3)
    played = simulate(game, Recorder(random.Random(0)), 0)
    assert played.line == simulate(game, "thrifty").line  # remembering alone changes no move
    assert len(seen) > 20
    for memory in seen:
        assert memory == remember(Line(game, played.line.actions[: len(memory.history)]), memory.seat)


# -- worlds ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "preset, players, seed",
    [("official", 2, 0), ("official", 4, 1), ("monsters", 3, 2), ("islands", 2, 3), ("rocks", 3, 0), ("official", 1, 5)],
)
def test_a_world_matches_everything_the_seat_saw(preset, players, seed):
    rules = PRESETS[preset]
    for line, state in positions(rules, players, seed, 6):
        for seat in range(players):
            memory = remember(line, seat)
            world = sample_world(memory, observe(state, seat), random.Random(seed))
            assert observe(world, seat) == observe(state, seat)
            assert where_cards_are(world) == every_card(rules, players)
            # Before the Start event each seat's Start card is in its own hand or pile.
            for other in range(players):
                assert state.start_played or START in world.hands[other] + world.pile(other)
        step, _ = play_on(world, make_policy("thrifty"))  # the engine plays on in it
        assert step.won or step.status == "lost"


def test_weights_lean_the_face_down_cards_towards_the_ones_thrifty_gives_up():
    line, state = positions(OFFICIAL, 2, 0, 8)[4]
    memory, obs = remember(line, 0), observe(state, 0)
    weights = Lookahead().giving_weights(obs, memory)
    assert weights[FINISH] < min(weights[c] for c in weights if is_island(c))
    dead = {c for c in weights if is_island(c) and c not in fitting_islands(state)}
    hidden = len(state.discarded) - len(memory.own_discards)
    assert 0 < hidden <= len(dead)  # enough dead islands to fill every hidden discard

    def face_down_dead(world: State) -> int:
        return sum(n for c, n in (Counter(world.discarded) - Counter(memory.own_discards)).items() if c in dead)

    rng = random.Random(0)
    plain = [face_down_dead(sample_world(memory, obs, rng)) for _ in range(20)]
    leaning = [sample_world(memory, obs, rng, weights) for _ in range(20)]
    assert all(observe(world, 0) == obs for world in leaning)
    assert sum(map(face_down_dead, leaning)) > sum(plain) + 20


def test_undoing_a_turn_gives_back_what_the_seat_saw_before_it():
    """Undo the other seat's last turn in the real game: the seat's view is the one it had
    then, and the island played is back in the mover's hand."""
    undone = 0
    for players, seed in ((2, 0), (4, 3)):
        game = deal(OFFICIAL, players, seed)
        actions = simulate(game, "thrifty").line.actions
        for turn in range(2, len(actions)):
            line = Line(game, actions[:turn])
            state, seat = line.end_state(), line.end_state().seat
            memory = remember(line, seat)
            window = last_round(memory)
            if state.won or not window:
                continue
            past = undo_turn(state, window[-1], Counter(memory.own_discards), random.Random(turn))
            if past is None:
                continue
            before = Line(game, actions[: turn - 1]).end_state()
            assert observe(past, seat) == observe(before, seat)
            assert where_cards_are(past) == where_cards_are(state)
            assert window[-1].card is None or window[-1].card in past.hands[window[-1].seat]
            undone += 1
    assert undone > 40


def test_filtered_worlds_match_the_seat_and_replay_the_last_round():
    """A filtered world shows the seat what it saw, and the blueprint (thrifty, who played
    these games), at the other seats, made in it the moves they made since the seat's last
    turn: in nearly every world at 2 players, where a plain world agrees about half the time."""
    policy = Lookahead(blueprint="thrifty")
    agreed = plain = worlds = 0
    for line, state in positions(OFFICIAL, 2, 4, 3):
        seat = state.seat
        memory, obs = remember(line, seat), observe(state, seat)
        window = last_round(memory)
        if not window or state.must_play_start():
            continue
        weights = policy.giving_weights(obs, memory)
        rng = random.Random(len(line.actions))
        for _ in range(4):
            world, matched = policy.agreeing_world(memory, obs, rng, weights, window)
            assert observe(world, seat) == obs and where_cards_are(world) == every_card(OFFICIAL, 2)
            agreed += matched == len(window)
            worlds += 1
        # One try only: how often a world dealt within the counts agrees by itself.
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr("tranquility.solver.search.lookahead.TRIES", 1)
            plain += sum(policy.agreeing_world(memory, obs, rng, weights, window)[1] == len(window) for _ in range(4))
    assert worlds >= 40
    assert agreed >= 0.9 * worlds and plain <= 0.75 * worlds, (agreed, plain, worlds)


def test_worlds_are_seeded_and_differ_between_samples():
    line, state = positions(OFFICIAL, 3, 7, 10)[2]
    memory, obs = remember(line, 1), observe(state, 1)
    first = [sample_world(memory, obs, random.Random("s")) for _ in range(2)]
    again = [sample_world(memory, obs, random.Random("s")) for _ in range(2)]
    assert first == again
    rng = random.Random("s")
    assert sample_world(memory, obs, rng).hands != sample_world(memory, obs, rng).hands


# -- no peeking ----------------------------------------------------------------------------


def redealt(line: Line, state: State, seat: int, rng: random.Random) -> Line:
    """The same line as ``seat`` saw it, with every card it never saw dealt again: the
    islands it never saw are renumbered among themselves (other hands, the other seats'
    discards, the removed islands), and the cards not yet drawn are shuffled across the
    piles (each pile keeps its Start card and its size)."""
    memory = remember(line, seat)
    seen = {v for v in state.grid if v is not None} | set(state.gone) | set(memory.own_discards)
    seen |= {c for hand in memory.hands for c in hand}
    seen |= {r.card for r in memory.history if r.card is not None}
    hidden = [c for c in range(1, state.rules.islands + 1) if c not in seen]
    renumber = dict(zip(hidden, rng.sample(hidden, len(hidden)), strict=True))

    def new(cards):
        return tuple(renumber.get(c, c) if is_island(c) else c for c in cards)

    game = line.deal
    loose = [c for s in range(state.players) for c in new(state.pile(s)) if c != START]
    rng.shuffle(loose)
    piles = []
    for s, pile in enumerate(game.piles):
        drawn = state.drawn[s]
        rest = [START if c == START else loose.pop() for c in pile[drawn:]]
        piles.append(new(pile[:drawn]) + tuple(rest))
    deal2 = Deal(
        rules=game.rules,
        piles=tuple(piles),
        removed_islands=tuple(sorted(new(game.removed_islands))),
        rocks_row=game.rocks_row,
        rocks_rolls=game.rocks_rolls,
    )

    def move(action: Action) -> Action:
        rocks = action.rocks
        if rocks is not None:
            action = replace(action, rocks=RocksMove(rocks.row, new(rocks.discard)))
        if isinstance(action, PlayIsland | DiscardTwo):
            return replace(action, discard=new(action.discard))
        if isinstance(action, PlayStart):
            return replace(action, team_discard=tuple(new(d) for d in action.team_discard))
        return action

    return Line(deal2, tuple(move(a) for a in line.actions))


@pytest.mark.parametrize("preset, players, seed", [("official", 2, 1), ("official", 4, 2), ("islands", 3, 4), ("monsters", 2, 6)])
def test_no_peeking_the_decision_ignores_every_card_the_seat_cannot_see(preset, players, seed):
    policy = Lookahead(seed=3, samples=2)
    checked = searched = 0
    for line, state in positions(PRESETS[preset], players, seed, 9)[1:]:
        if state.must_play_start():
            continue
        seat = state.seat
        memory, obs = remember(line, seat), observe(state, seat)
        other = redealt(line, state, seat, random.Random(seed))
        assert verify(other).legal  # the re-dealt line is a real game
        other_state = other.end_state()
        assert other_state.hands != state.hands or other_state.discarded != state.discarded
        assert remember(other, seat) == memory and observe(other_state, seat) == obs
        assert policy.decide(observe(other_state, seat), remember(other, seat)) == policy.decide(obs, memory)
        checked += 1
        searched += len(policy.candidates(obs, policy.act(obs))) > 1
    assert checked >= 3 and searched >= 1


# -- the policy ------------------------------------------------------------------------------


def test_a_lookahead_game_replays_and_repeats():
    game = deal(OFFICIAL, 3, 3)  # a deal where 4 worlds a round already show a move better than tuned's
    first = simulate(game, Lookahead(seed=1, samples=4), 1)
    assert first.policy == "lookahead" and verify(first.line).legal
    assert verify(first.line).won == first.won
    assert simulate(game, Lookahead(seed=1, samples=4), 1) == first
    assert first.line != simulate(game, "tuned").line  # it does search: some move differs


def test_one_seat_looks_ahead_and_the_others_play_the_blueprint():
    game = deal(OFFICIAL, 3, 1)  # a deal where seat 0 leaves the blueprint's move twice
    played = simulate(game, Lookahead(seed=1, samples=4, seat=0), 1)
    state, blueprint, differ = State.initial(game), make_policy("tuned"), 0
    for action in played.line.actions:
        if not isinstance(action, PlayStart):
            own = blueprint.act(observe(state, state.seat))
            if state.seat != 0:
                assert action == own
            differ += action != own
        state = state.apply(action)
    assert differ > 0


def test_the_advantage_is_paired_world_by_world():
    base = MoveEstimate(DiscardTwo(seat=0), (False,) * 4, 0.0, (0.1, 0.5, 0.2, 0.9))
    ahead = MoveEstimate(DiscardTwo(seat=0), (False,) * 4, 0.0, (0.2, 0.6, 0.3, 1.0))
    mean, low = ahead.advantage(base)
    # Every world +0.1: no spread, so the bound is the mean itself, whatever the worlds' luck.
    assert mean == pytest.approx(0.1) and low == pytest.approx(0.1)
    noisy = MoveEstimate(DiscardTwo(seat=0), (False,) * 4, 0.0, (0.9, 0.1, 0.9, 0.1))
    mean, low = noisy.advantage(base)
    assert mean == pytest.approx(0.075) and low < 0  # as large a mean, but nothing to rely on


@pytest.mark.slow
def test_successive_halving_keeps_the_better_half_and_leaves_the_blueprint_only_on_a_real_effect():
    policy = Lookahead(seed=2, samples=3)
    compared = 0
    for line, state in positions(OFFICIAL, 3, 3, 4):
        if state.must_play_start():
            continue
        obs, memory = observe(state, state.seat), remember(line, state.seat)
        own = policy.act(obs)
        moves = policy.candidates(obs, own)
        if len(moves) < 3:
            continue
        found = policy.halving(obs, memory, moves, f"lookahead/{policy.seed}/{obs.turn}/{obs.seat}")
        assert found[0].action == own and len(found) == 2
        # The blueprint's move is played in every round's worlds, the survivor in as many.
        assert found[0].worlds == found[1].worlds and found[0].worlds % policy.samples == 0
        assert found[0].worlds > policy.samples  # more than one round: some alternative was dropped
        mean, low = found[1].advantage(found[0])
        chosen = found[1].action if mean >= EFFECT and low > 0 else own
        assert policy.decide(obs, memory) == chosen
        compared += 1
    assert compared >= 5


# Lines the silent policies played before lookahead came: sha256 of the line's JSON.
GOLDEN = {
    ("thrifty", "official", 2, 0): "162ee98ff6749b88",
    ("cautious", "official", 4, 1): "74e350a99e5d0d82",
    ("greedy", "monsters", 4, 2): "4e743ee2c7a87d65",
    ("wavering", "rocks-manual", 2, 1): "9f4dc3d970618f65",
    ("random", "islands", 4, 0): "45b8595c7db6189e",
    ("thrifty", "french", 1, 2): "94672d93d36affee",
    ("thrifty", "rocks", 4, 1): "faf8b7c928890079",
}


@pytest.mark.parametrize("policy, preset, players, seed", list(GOLDEN))
def test_the_silent_policies_play_the_lines_they_played_before(policy, preset, players, seed):
    line = simulate(deal(PRESETS[preset], players, seed), policy, seed).line
    digest = hashlib.sha256(json.dumps(line_to_json(line)).encode()).hexdigest()[:16]
    assert digest == GOLDEN[policy, preset, players, seed]


def test_lookahead_is_not_a_silent_policy():
    assert tuple(POLICIES) == ("tuned", "cautious", "thrifty", "greedy", "wavering", "random")
    assert (*POLICIES, "lookahead") == SIMULATE_POLICIES
    with pytest.raises(ValueError, match="unknown policy 'lookahead'"):
        make_policy("lookahead")


# -- the command line ------------------------------------------------------------------------


def test_cli_plays_lookahead(tmp_path):
    out = tmp_path / "line.json"
    args = ("simulate", "--seed", 5, "--players", 2, "--policy", "lookahead", "--samples", 2, "--sim-seed", 1)
    result = run(*args, "--json", "--out", out)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["policy"] == "lookahead"
    assert data["line"] == line_to_json(simulate(deal(OFFICIAL, 2, 5), Lookahead(seed=1, samples=2), 1).line)
    assert run("verify", out).exit_code == 0
    help_text = " ".join(run("simulate", "--help").output.split())
    assert f"the moves still in played out once in each [default: {DEFAULT_SAMPLES}]" in help_text


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--policy", "thrifty", "--samples", 3],
            "Error: --samples goes with --policy lookahead or open-hands; thrifty does not sample",
        ),
        (["--policy", "greedy", "--lookahead-seat", 0], "Error: --lookahead-seat goes with --policy lookahead"),
        (["--policy", "lookahead", "--lookahead-seat", 2], "Error: --lookahead-seat 2: the game has seats 0..1"),
        (["--policy", "lookahead", "--samples", 0], "Error: Invalid value for '--samples'"),
    ],
)
def test_cli_rejects_sampling_options_that_do_not_fit(args, message):
    result = run("simulate", "--seed", 1, "--players", 2, *args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1, result.output
