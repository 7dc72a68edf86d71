"""One or more tests per rule of docs/rules.md, on tiny hand-made deals and positions.

Most positions are a ``simple_deal`` of ``tiny_rules`` (one row of four cells, islands
1..8, hand 3, Start costs the team 2 cards) with the grid and hands set by hand.
"""

from dataclasses import replace

import pytest
from tranquility.solver.engine.actions import (
    Action,
    Choice,
    ChoiceKind,
    DiscardTwo,
    PlayFinish,
    PlayIsland,
    PlayMonster,
    PlayStart,
    RocksMove,
)
from tranquility.solver.engine.cards import (
    FINISH,
    MONSTER,
    START,
    Card,
    card_label,
    is_island,
    remove_cards,
    sorted_cards,
)
from tranquility.solver.engine.deal import DealError
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.state import IllegalAction, State, replay
from tranquility.solver.engine.verify import verify

from ..helpers import (
    at,
    choices,
    island_choices,
    kinds,
    make_deal,
    position,
    simple_deal,
    tiny_rules,
)


def illegal(state: State, action, words: str) -> None:
    with pytest.raises(IllegalAction) as err:
        state.apply(action)
    assert words in str(err.value)
    assert state.explain_illegal(action) == str(err.value)


def payments(state: State, card: int, cell: int) -> set[tuple[Card, ...]]:
    """The ways to pay for ``card`` into ``cell``."""
    found = set()
    for action in state.actions_for(Choice(ChoiceKind.ISLAND, card, cell)):
        assert isinstance(action, PlayIsland), action
        found.add(action.discard)
    return found


def start_splits(state: State) -> set[tuple[tuple[Card, ...], ...]]:
    """The ways for the team to pay the Start (every legal action here is a Start)."""
    found = set()
    for action in state.legal_actions():
        assert isinstance(action, PlayStart), action
        found.add(action.team_discard)
    return found


# -- cards and choices -----------------------------------------------------------------


def test_cards_sort_islands_then_finish_monster_start():
    assert sorted_cards([START, 12, MONSTER, 3, FINISH, 7]) == (3, 7, 12, FINISH, MONSTER, START)
    assert not is_island(True) and is_island(0) and not is_island("5")
    assert card_label(12) == "island 12" and card_label(START) == "Start 'S'"


def test_remove_cards_is_a_multiset_difference():
    assert remove_cards((3, FINISH, FINISH), [FINISH]) == (3, FINISH)
    assert remove_cards((3, FINISH), [FINISH, FINISH]) is None
    assert remove_cards((3,), []) == (3,)


def test_choices_describe_themselves():
    assert str(Choice(ChoiceKind.ISLAND, 5, 2)) == "5 at cell 2"
    assert str(Choice(ChoiceKind.MONSTER, MONSTER, 4)) == "Sea Monster on cell 4"
    plain = (ChoiceKind.START, ChoiceKind.FINISH, ChoiceKind.DISCARD)
    assert [str(Choice(k)) for k in plain] == ["Start", "Finish", "discard two"]


# -- costs (seeds 000, 002, 003, 004) --------------------------------------------------


def test_seed_example_5_next_to_3_costs_2():
    state = at({0: 3}, [[5, 1, 2, 7, 8]], islands=10, hand=5)
    assert state.island_cost(5, 1) == 2
    assert payments(state, 5, 1) == {(1, 2), (1, 7), (1, 8), (2, 7), (2, 8), (7, 8)}
    after = state.apply(PlayIsland(seat=0, card=5, cell=1, discard=(1, 8)))
    assert after.grid == (3, 5, None, None)
    assert after.discarded == (1, 8)


def test_seed_example_6_between_3_and_7_costs_1():
    state = at({0: 3, 2: 7}, [[6, 1, 2]], islands=10)
    assert state.island_cost(6, 1) == 1
    assert payments(state, 6, 1) == {(1,), (2,)}


def test_cost_is_zero_without_a_placed_neighbour():
    state = at({0: 3}, [[6, 1, 2]], islands=10)
    assert state.island_cost(6, 3) == 0
    assert payments(state, 6, 3) == {()}
    after = state.apply(PlayIsland(seat=0, card=6, cell=3))
    assert after.discarded == ()


def test_cost_is_the_smallest_gap_to_any_placed_neighbour():
    state = at({0: 1, 2: 9}, hands=[[7, 2, 3]], islands=10)
    assert state.island_cost(7, 1) == 2  # 7-1 = 6, 9-7 = 2


def test_cannot_pay_more_than_the_cards_left_in_hand():
    state = at({0: 3}, [[5, 1]], islands=10)
    assert state.island_cost(5, 1) == 2
    assert (5, 1) not in island_choices(state)
    assert (5, 3) in island_choices(state)  # free there
    illegal(state, PlayIsland(seat=0, card=5, cell=1, discard=(1,)), "costs 2 but only 1 other card")
    # Paying every other card in hand is allowed.
    state = at({0: 3}, [[5, 1, 2]], islands=10)
    assert (5, 1) in island_choices(state)
    after = state.apply(PlayIsland(seat=0, card=5, cell=1, discard=(1, 2)))
    assert after.discarded == (1, 2) and after.grid == (3, 5, None, None)


def test_discard_must_be_exactly_the_cost_from_the_hand():
    state = at({0: 3}, [[5, 1, 2]], islands=10)
    illegal(state, PlayIsland(seat=0, card=5, cell=1, discard=(1,)), "costs 2; the action discards 1")
    illegal(state, PlayIsland(seat=0, card=5, cell=3, discard=(1,)), "costs 0; the action discards 1")
    illegal(state, PlayIsland(seat=0, card=5, cell=1, discard=(1, 9)), "9 is not in seat 0's hand")
    illegal(state, PlayIsland(seat=0, card=5, cell=1, discard=(5, 1)), "5 is not in seat 0's hand")


def test_any_card_may_pay_a_cost():
    state = at({0: 3}, [[5, FINISH, MONSTER]], islands=10, monsters=1)
    assert payments(state, 5, 1) == {(FINISH, MONSTER)}
    assert state.apply(PlayIsland(seat=0, card=5, cell=1, discard=(MONSTER, FINISH))).discarded == (FINISH, MONSTER)


def test_island_play_errors():
    state = at({0: 3}, [[5, 1, 2]], islands=10)
    illegal(state, PlayIsland(seat=0, card=6, cell=1), "6 is not in seat 0's hand")
    illegal(state, PlayIsland(seat=0, card=5, cell=4), "not on the 1x4 grid")
    illegal(state, PlayIsland(seat=0, card=5, cell=0), "already holds 3")
    illegal(state, PlayIsland(seat=0, card=FINISH, cell=1), "not an island")  # type: ignore[arg-type]
    assert state.island_cost(5, 0) is None
    assert state.island_cost(5, 9) is None


# -- ascending order -------------------------------------------------------------------


def test_order_sequence_is_one_ascending_line():
    state = at({1: 5}, [[4, 6, 1]], islands=10)
    assert island_choices(state) == {(4, 0), (6, 2), (6, 3)}  # 1 in cell 0 would cost 4
    illegal(state, PlayIsland(seat=0, card=6, cell=0), "breaks the ascending order (sequence)")


def test_order_sequence_runs_across_rows():
    # 2x2, reading order 0 1 / 2 3 (row 0 at the bottom): 5 in cell 1 forces cells 2 and 3 above 5.
    state = at({1: 5}, [[4, 6, 7]], rows=2, cols=2, islands=8)
    assert island_choices(state) == {(4, 0), (6, 2), (6, 3), (7, 2), (7, 3)}


def test_order_grid_rows_and_columns_only():
    # 2x2 grid order: cell 2 (row 1, col 0) is neither in 5's row nor in its column.
    state = at({1: 5}, [[4, 6, 2]], rows=2, cols=2, islands=8, order="grid")
    assert island_choices(state) == {(4, 0), (4, 2), (6, 2), (6, 3)}  # 2 costs 3 anywhere
    illegal(state, PlayIsland(seat=0, card=4, cell=3), "breaks the ascending order (grid)")
    illegal(state, PlayIsland(seat=0, card=6, cell=0), "breaks the ascending order (grid)")


def test_order_grid_whole_column_and_row():
    # 3x3: 5 at the bottom of column 1 and 2 at the left of row 2 constrain the whole line.
    state = at({1: 5, 6: 2}, [[4, 6, 3, 8, 9]], rows=3, cols=3, islands=9, order="grid", hand=5)
    assert (4, 7) not in island_choices(state)  # above 5 in column 1: must exceed 5
    assert (6, 7) in island_choices(state)
    assert (3, 8) in island_choices(state)  # right of 2 in row 2, no column constraint
    assert (3, 0) not in island_choices(state)  # below 2 in column 0
    assert (6, 0) not in island_choices(state)  # left of 5 in row 0
    assert (4, 5) in island_choices(state)  # row 1 and column 2 are empty


# -- adjacency -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "adjacency, cost_at_2, cost_at_3",
    [("sequence", 2, 0), ("orthogonal", 0, 2), ("both", 2, 2)],
)
def test_adjacency(adjacency, cost_at_2, cost_at_3):
    # 2x2 with 5 in cell 1 (bottom right); 7 goes to cell 2 (top left, next in reading
    # order: the sequence wraps) or cell 3 (top right, straight above 5).
    state = at({1: 5}, [[7, 1, 2]], rows=2, cols=2, islands=8, adjacency=adjacency)
    assert state.island_cost(7, 2) == cost_at_2
    assert state.island_cost(7, 3) == cost_at_3


def test_adjacency_orthogonal_no_wrap_and_no_diagonal():
    # 3x3 orthogonal: cell 4 (centre) sees 1, 3, 5, 7, never the corners nor cell 2/6 wraps.
    state = at({0: 1, 2: 3, 6: 7, 8: 9}, [[5, 4, 6]], rows=3, cols=3, islands=9, adjacency="orthogonal", order="grid")
    assert state.island_cost(5, 4) == 0
    state = at({3: 2}, [[5, 4, 6]], rows=3, cols=3, islands=9, adjacency="orthogonal", order="grid")
    assert state.island_cost(5, 4) == 3  # left neighbour
    state = at({2: 2}, [[5, 4, 6]], rows=3, cols=3, islands=9, adjacency="orthogonal")
    assert state.island_cost(5, 3) == 0  # cell 2 ends row 0: no wrap in orthogonal
    state = at({2: 2}, [[5, 4, 6]], rows=3, cols=3, islands=9, adjacency="sequence")
    assert state.island_cost(5, 3) == 3  # but the sequence wraps


def test_adjacency_sequence_ignores_the_cell_above():
    state = at({0: 2}, [[5, 4, 6]], rows=3, cols=3, islands=9, adjacency="sequence")
    assert state.island_cost(5, 3) == 0  # straight above 2, but 3 cells later in reading order


# -- Start cards -----------------------------------------------------------------------


def two_seats(**options) -> State:
    """Two seats, islands 1..8: seat 0 holds 1 2 3 over S 4; seat 1 holds 5 6 7 over S 8 F.
    ``start_position``: seat 0 played 2 and drew S; seat 1 discarded 5 6 and drew S 8."""
    return State.initial(simple_deal(tiny_rules(**options), 2))


def test_start_is_never_in_an_opening_hand_and_is_drawn_later():
    state = two_seats()
    assert state.hands == ((1, 2, 3), (5, 6, 7))
    state = state.apply(PlayIsland(seat=0, card=2, cell=1))
    assert state.hands[0] == (1, 3, START)
    assert not state.must_play_start()  # seat 1 to move
    state = state.apply(DiscardTwo(seat=1, discard=(5, 6)))
    assert state.must_play_start()
    assert choices(state) == {Choice(ChoiceKind.START, START)}


def start_position(**options) -> State:
    state = two_seats(**options)
    state = state.apply(PlayIsland(seat=0, card=2, cell=1))
    return state.apply(DiscardTwo(seat=1, discard=(5, 6)))  # seat 0: 1 3 S; seat 1: 7 8 S


def test_must_play_start():
    state = start_position()
    illegal(state, DiscardTwo(seat=0, discard=(1, 3)), "holds a Start card and must play it")
    illegal(state, PlayIsland(seat=0, card=3, cell=2), "must play it")


def test_start_is_free_and_the_team_splits_the_discards():
    state = start_position()
    splits = start_splits(state)
    # Seat 0 keeps 1 3 after the Start; seat 1 holds 7 8 S (its Start, dead once a Start
    # is played, may be paid): every 2 of those 5 cards.
    assert len(splits) == 10
    assert {((1, 3), ()), ((), (7, 8)), ((1,), (8,)), ((), (8, START))} <= splits
    after = state.apply(PlayStart(seat=0, team_discard=((3,), (8,))))
    assert after.start_played
    assert after.discarded == (3, 5, 6, 8)
    # Then every seat draws back up from its own pile.
    assert after.hands == ((1, 4), (7, FINISH, START))
    assert after.seat == 1


@pytest.mark.parametrize(
    "split, words",
    [
        (((1, 3),), "one list per seat (2)"),
        (((1, 3), (), ()), "one list per seat (2)"),
        (((1,), ()), "must discard 2 card(s)"),
        (((1, 3), (7,)), "must discard 2 card(s)"),
        (((1, 7), ()), "7 is not in seat 0's hand"),
        (((), (7, 7)), "7 is not in seat 1's hand"),
        (((START, 1), ()), "Start 'S' is not in seat 0's hand"),
    ],
)
def test_team_discard_split_validation(split, words):
    illegal(start_position(), PlayStart(seat=0, team_discard=split), words)


def test_start_errors():
    state = two_seats()
    illegal(state, PlayStart(seat=0, team_discard=((1, 2), ())), "holds no Start card")
    played = start_position().apply(PlayStart(seat=0, team_discard=((1, 3), ())))
    again = position(played, hands=[[4, START, 1], [7, 8, START]])
    illegal(again, PlayStart(seat=1, team_discard=((), (7, 8))), "already been played")


def test_dead_start_cards_are_discarded_or_paid():
    state = start_position().apply(PlayStart(seat=0, team_discard=((1, 3), ())))
    assert state.hands[1] == (7, 8, START)
    assert not state.must_play_start()
    assert Choice(ChoiceKind.DISCARD) in choices(state)
    assert {(7, 3), (8, 3)} <= island_choices(state)
    after = state.apply(DiscardTwo(seat=1, discard=(START, 7)))
    assert START in after.discarded
    state = position(state, grid={1: 6})
    paid = state.apply(PlayIsland(seat=1, card=7, cell=2, discard=(START,)))
    assert paid.discarded == (1, 3, 5, 6, START)


def test_start_the_team_cannot_pay_loses():
    # Seat 0 alone: 1 2 3 over S and 5 more cards; a Start costing 20 cannot be paid.
    state = at(hands=[[1, 2, START]], start_discards=20)
    state = replace(state, drawn=(4,))
    assert state.must_play_start()
    assert choices(state) == set()
    assert state.status == "lost"
    illegal(state, PlayStart(seat=0, team_discard=((1, 2),)), "cannot pay the 20 cards")


# -- solo Start: forced rounds ---------------------------------------------------------


def solo_start(start_discards: int) -> State:
    """One seat, pile 1 2 3 S 4 5 6 7 8 F: discard 1 2 and draw S 4, then the Start."""
    state = State.initial(simple_deal(tiny_rules(start_discards=start_discards)))
    state = state.apply(DiscardTwo(seat=0, discard=(1, 2)))
    assert state.hands == ((3, 4, START),)
    return state


def test_solo_start_paid_from_one_hand():
    state = solo_start(2)
    assert start_splits(state) == {((3, 4),)}
    after = state.apply(PlayStart(seat=0, team_discard=((3, 4),)))
    assert after.hands == ((5, 6, 7),)


def test_solo_start_forced_rounds():
    # Owed 4 but the hand holds 3 4: both are discarded, the seat draws 5 6 7, and chooses
    # the last 2 of those three.
    state = solo_start(4)
    assert start_splits(state) == {((5, 6),), ((5, 7),), ((6, 7),)}
    after = state.apply(PlayStart(seat=0, team_discard=((5, 7),)))
    assert after.discarded == (1, 2, 3, 4, 5, 7)
    assert after.hands == ((6, 8, FINISH),)
    assert after.drawn == (10,)
    illegal(state, PlayStart(seat=0, team_discard=((3, 4),)), "3 is not in seat 0's hand")
    illegal(state, PlayStart(seat=0, team_discard=((5,),)), "must discard 2 card(s) now (of 4 in all)")
    illegal(state, PlayStart(seat=0, team_discard=((3, 4, 5, 6),)), "must discard 2 card(s) now")


def test_solo_start_several_forced_rounds():
    # Owed 7: 3 4 forced (5 left), 5 6 7 forced (2 left), then choose 2 of 8 F.
    state = solo_start(7)
    assert start_splits(state) == {((8, FINISH),)}
    after = state.apply(PlayStart(seat=0, team_discard=((8, FINISH),)))
    assert after.hands == ((),)
    assert after.status == "lost"


def test_solo_start_runs_dry():
    state = solo_start(8)  # 2 + 3 + 2 cards reachable, one short
    assert state.status == "lost"
    illegal(state, PlayStart(seat=0, team_discard=((),)), "cannot pay the 8 cards")


def test_start_with_empty_hands_but_cards_in_the_piles():
    # Hand size 1: seat 0 plays its 1 and draws S, so it holds nothing but the Start while
    # its pile still holds 2 3 4 F. The hands are empty, the piles are not: the forced round
    # discards nothing, the seat draws 2, and the team pays it. Not a loss.
    rules = tiny_rules(hand=1, start_discards=1)
    state = State.initial(make_deal([[1, START, 2, 3, 4, 5, 6, 7, 8, FINISH]], rules))
    state = state.apply(PlayIsland(seat=0, card=1, cell=0))
    assert state.hands == ((START,),)
    assert choices(state) == {Choice(ChoiceKind.START, START)}
    assert start_splits(state) == {((2,),)}
    after = state.apply(PlayStart(seat=0, team_discard=((2,),)))
    assert after.discarded == (2,) and after.hands == ((3,),) and after.status == "open"


def test_start_with_empty_hands_and_piles_is_lost():
    rules = tiny_rules(hand=1, start_discards=1)
    state = State.initial(make_deal([[1, START, 2, 3, 4, 5, 6, 7, 8, FINISH]], rules))
    state = position(state.apply(PlayIsland(seat=0, card=1, cell=0)), drawn=(10,))
    assert state.status == "lost"


def test_team_start_forced_round_draws_every_seat():
    # Seat 0 holds 1 3 (+S), seat 1 holds 7 8 S: 5 cards for 6 owed. All five go, seat 0
    # draws 4, seat 1 draws F, and the team picks the last card from those two.
    state = start_position(start_discards=6)
    splits = start_splits(state)
    assert splits == {((4,), ()), ((), (FINISH,))}
    after = state.apply(PlayStart(seat=0, team_discard=((), (FINISH,))))
    assert after.hands == ((4,), ())
    assert after.discarded == (1, 3, 5, 6, 7, 8, FINISH, START)


# -- Finish cards ----------------------------------------------------------------------


def finish_position(**changes) -> State:
    state = at([1, 2, 3, 4], [[FINISH, 5, 6]], start_played=True)
    return replace(state, **changes)


def test_finish_wins_with_full_grid_and_start():
    state = finish_position()
    assert Choice(ChoiceKind.FINISH, FINISH) in choices(state)
    won = state.apply(PlayFinish(seat=0))
    assert won.won and won.status == "won"
    assert won.hands == ((5, 6),)
    assert choices(won) == set()
    illegal(won, DiscardTwo(seat=0, discard=(5, 6)), "already won")


def test_finish_needs_a_full_grid():
    state = finish_position(grid=(1, 2, None, 4))
    assert "finish" not in kinds(state)
    illegal(state, PlayFinish(seat=0), "needs a full grid (3 of 4 cells filled)")


def test_finish_needs_a_start():
    state = finish_position(start_played=False)
    assert "finish" not in kinds(state)
    illegal(state, PlayFinish(seat=0), "needs a Start card played first")


def test_finish_needs_a_finish_card():
    state = position(finish_position(), hands=[[4, 5, 6]])
    illegal(state, PlayFinish(seat=0), "holds no Finish card")


def test_finish_cards_may_be_discarded():
    state = at({0: 1}, [[FINISH, 5, 6]])
    assert "finish" not in kinds(state)
    assert state.apply(DiscardTwo(seat=0, discard=(FINISH, 5))).discarded == (5, FINISH)


# -- discard two -----------------------------------------------------------------------


def test_discard_two_needs_two_cards():
    state = at({}, [[5]])
    assert "discard" not in kinds(state)
    illegal(state, DiscardTwo(seat=0, discard=(5,)), "exactly 2 cards, got 1")
    state = at({}, [[5, 6, 7]])
    illegal(state, DiscardTwo(seat=0, discard=(5, 6, 7)), "exactly 2 cards, got 3")
    illegal(state, DiscardTwo(seat=0, discard=()), "exactly 2 cards, got 0")
    illegal(state, DiscardTwo(seat=0, discard=(5, 5)), "not in seat 0's hand")
    assert {a.discard for a in state.legal_actions() if isinstance(a, DiscardTwo)} == {(5, 6), (5, 7), (6, 7)}


# -- one card, running out, losing -----------------------------------------------------


def test_one_card_play_lets_a_single_card_be_played():
    state = at({0: 1}, [[5]], one_card="play")
    assert choices(state) == {Choice(ChoiceKind.ISLAND, 5, 2), Choice(ChoiceKind.ISLAND, 5, 3)}
    assert state.status == "open"


def test_one_card_lose():
    state = at({0: 1}, [[5]], one_card="lose")
    assert choices(state) == set() and state.status == "lost"
    illegal(state, PlayIsland(seat=0, card=5, cell=3), "begins its turn with 1 card(s) and loses")
    assert at({0: 1}, [[]], one_card="lose").status == "lost"
    assert at({0: 1}, [[5, 6]], one_card="lose").status == "open"


def test_lost_when_no_legal_action():
    # One card that fits nowhere cheaply enough, and no pair to discard.
    assert at({0: 1, 2: 7}, [[4]]).status == "lost"
    assert at({}, [[]]).status == "lost"
    # A Finish card alone before the grid is full.
    assert at({0: 1}, [[FINISH]], start_played=True).status == "lost"


def test_lost_states_accept_no_action():
    state = at({0: 1, 2: 7}, [[4]])
    illegal(state, PlayIsland(seat=0, card=4, cell=1), "costs 3 but only 0")
    illegal(state, DiscardTwo(seat=0, discard=(4,)), "exactly 2")


# -- drawing and turns -----------------------------------------------------------------


def test_draw_back_up_from_own_pile_only():
    state = two_seats()
    after = state.apply(DiscardTwo(seat=0, discard=(1, 2)))
    assert after.hands == ((3, 4, START), (5, 6, 7))
    assert after.drawn == (5, 3)
    assert after.pile(0) == ()
    # Seat 0's pile is empty now: it plays on with a short hand.
    after = after.apply(DiscardTwo(seat=1, discard=(5, 6))).apply(PlayStart(seat=0, team_discard=((3, 4), ())))
    assert after.hands[0] == ()
    assert after.hands[1] == (7, 8, START)  # seat 1 drew 8 and its own Start earlier


def test_hand_never_exceeds_the_hand_size():
    state = two_seats()
    after = state.apply(PlayIsland(seat=0, card=1, cell=0))
    assert after.hands[0] == (2, 3, START)
    assert all(len(h) <= 3 for h in after.hands)


def test_turn_passes_seat_to_seat():
    state = State.initial(simple_deal(tiny_rules(islands=12, rows=2, cols=2, start_discards=0), 3))
    seats = []
    for _ in range(5):
        seats.append(state.seat)
        state = state.apply(next(state.legal_actions()))
    assert seats == [0, 1, 2, 0, 1]
    assert state.turn == 5
    # A Start moves the turn on too, after every seat has drawn.
    state = start_position().apply(PlayStart(seat=0, team_discard=((1, 3), ())))
    assert state.seat == 1


def test_wrong_seat_is_refused():
    illegal(two_seats(), DiscardTwo(seat=1, discard=(5, 6)), "it is seat 0's turn, not seat 1's")


def test_replay():
    deal = simple_deal(tiny_rules(), 2)
    actions: list[Action] = [PlayIsland(seat=0, card=2, cell=1), DiscardTwo(seat=1, discard=(5, 6))]
    assert replay(deal, actions) == start_position()


# -- Sea Monsters ----------------------------------------------------------------------


def monster_position(**changes) -> State:
    state = at({0: 1, 1: 2, 2: 5}, [[MONSTER, 3, 4]], monsters=1, islands=9, start_played=True)
    return replace(state, **changes)


def test_monster_sinks_an_island_and_empties_the_cell():
    state = monster_position()
    assert {c.cell for c in state.legal_choices() if c.kind == "monster"} == {0, 1, 2}
    after = state.apply(PlayMonster(seat=0, cell=2))
    assert after.grid == (1, 2, None, None)
    assert after.gone == (5, MONSTER)
    assert after.monsters_played == 1
    assert after.discarded == ()  # free
    assert after.hands[0] == (3, 4, START)  # drew back up
    assert after.island_cost(3, 2) == 1  # the cell takes a card again


def test_monster_needs_an_island():
    state = monster_position()
    illegal(state, PlayMonster(seat=0, cell=3), "cell 3 is empty")
    illegal(state, PlayMonster(seat=0, cell=7), "cell 7 is empty")
    illegal(position(state, hands=[[3, 4, 6]]), PlayMonster(seat=0, cell=0), "Sea Monster 'M' is not in seat 0's hand")


def test_finish_waits_for_every_monster():
    state = at([1, 2, 3, 4], [[FINISH, MONSTER, 6]], monsters=1, islands=9, start_played=True)
    assert "finish" not in kinds(state)
    illegal(state, PlayFinish(seat=0), "every Sea Monster played (0 of 1)")
    assert "finish" in kinds(replace(state, monsters_played=1))


def test_a_discarded_monster_leaves_the_game_unwinnable():
    # Our reading of "Finish may not be played until every monster has been played".
    state = at([1, 2, 3, 4], [[FINISH, MONSTER, 6]], monsters=1, islands=9, start_played=True)
    after = state.apply(DiscardTwo(seat=0, discard=(MONSTER, 6)))
    assert not after.finish_allowed()


def test_monster_is_a_legal_card_to_discard():
    state = monster_position()
    assert state.apply(DiscardTwo(seat=0, discard=(MONSTER, 3))).discarded == (3, MONSTER)


# -- Jagged Rocks ----------------------------------------------------------------------

ROCKS = {"rows": 3, "cols": 2, "islands": 9}


def rocks_state(mode="auto", rocks_row=0, rolls=(5, 2, 7, 0, 0, 0), grid=None, hands=None, **options) -> State:
    """One seat, 3x2 grid (unless ``options`` say otherwise), the Start already played."""
    rules = tiny_rules(**{**ROCKS, **options}, rocks=mode)
    deal = simple_deal(rules, rocks_row=rocks_row, rocks_rolls=rolls if mode == "auto" else ())
    return position(State.initial(deal), grid, hands, start_played=True)


def test_rocks_block_their_row():
    state = rocks_state(hands=[[1, 2, 3]])
    assert state.rocks_row == 0
    assert {cell for _, cell in island_choices(state)} == {2, 3, 4, 5}
    assert state.island_cost(1, 0) is None
    illegal(state, PlayIsland(seat=0, card=1, cell=0), "blocked by the Jagged Rocks")


def test_auto_rocks_use_the_rolls():
    state = rocks_state(hands=[[1, 2, 3]])
    # After 1 in cell 2: eligible rows [1, 2]; roll 5 -> 5 % 2 = 1 -> row 2.
    state = state.apply(PlayIsland(seat=0, card=1, cell=2))
    assert (state.rocks_row, state.rolls_used) == (2, 1)
    # Roll 2 over eligible [0, 1] -> row 0.
    state = state.apply(DiscardTwo(seat=0, discard=(2, 3)))
    assert (state.rocks_row, state.rolls_used) == (0, 2)


def test_auto_rocks_skip_full_rows():
    # Row 1 full: from row 0 the only other row with an empty cell is row 2, whatever the roll.
    state = rocks_state(grid={2: 3, 3: 4}, hands=[[5, 6, 7]], rolls=(0, 1, 2))
    state = state.apply(DiscardTwo(seat=0, discard=(5, 6)))
    assert state.rocks_row == 2


def test_auto_rocks_roll_against_three_rows():
    state = rocks_state(rocks_row=1, grid={}, hands=[[1, 2, 3]], rows=4, cols=1, islands=6, rolls=(7,))
    # From row 1, eligible [0, 2, 3]; 7 % 3 = 1 -> row 2.
    assert state.apply(DiscardTwo(seat=0, discard=(1, 2))).rocks_row == 2


def test_rocks_leave_after_all_rows_but_one_on_small_grids():
    # 3 rows: the rocks leave once 2 rows are complete, and no roll is used.
    state = rocks_state(rocks_row=2, grid={0: 1, 1: 2, 2: 3}, hands=[[4, 5, 6]], rolls=(0,))
    after = state.apply(PlayIsland(seat=0, card=4, cell=3, discard=(5,)))
    assert after.rocks_row is None and after.rolls_used == 0
    assert after.island_cost(6, 4) == 2  # the old rocks row takes cards again


def test_rocks_leave_after_four_rows_on_big_grids():
    rules = {"rows": 6, "cols": 1, "islands": 9}
    state = rocks_state(rocks_row=5, grid={0: 1, 1: 2, 2: 3}, hands=[[4, 5, 6]], rolls=(0, 0), **rules)
    # Three complete rows: the rocks still move.
    moved = state.apply(DiscardTwo(seat=0, discard=(5, 6)))
    assert moved.rocks_row == 3 and moved.rolls_used == 1
    left = state.apply(PlayIsland(seat=0, card=4, cell=3, discard=(5,)))
    assert left.rocks_row is None and left.rolls_used == 0


def test_running_out_of_rolls_is_a_deal_error():
    state = rocks_state(hands=[[1, 2, 3]], rolls=())
    with pytest.raises(DealError, match="ran out of rocks_rolls"):
        state.apply(DiscardTwo(seat=0, discard=(1, 2)))
    line = Line(state.deal, (DiscardTwo(seat=0, discard=(1, 2)),))
    verdict = verify(line)
    assert not verdict.legal and verdict.error is not None
    assert "turn 1: seat 0" in verdict.error and "rocks_rolls" in verdict.error


def test_auto_rocks_refuse_a_rocks_move():
    state = rocks_state(hands=[[1, 2, 3]])
    illegal(state, DiscardTwo(seat=0, discard=(1, 2), rocks=RocksMove(1)), "rocks=auto")


def test_rocks_off_refuse_a_rocks_move():
    illegal(two_seats(), DiscardTwo(seat=0, discard=(1, 2), rocks=RocksMove(0)), "not in play")


def test_manual_rocks_move_or_stay():
    state = rocks_state("manual", hands=[[1, 2, 3]])
    actions = set(state.actions_for(Choice(ChoiceKind.ISLAND, 1, 2)))
    # Move to row 1 or 2, or stay paying the two cards left in hand (before any draw).
    assert actions == {
        PlayIsland(seat=0, card=1, cell=2, rocks=RocksMove(1)),
        PlayIsland(seat=0, card=1, cell=2, rocks=RocksMove(2)),
        PlayIsland(seat=0, card=1, cell=2, rocks=RocksMove(None, (2, 3))),
    }
    moved = state.apply(PlayIsland(seat=0, card=1, cell=2, rocks=RocksMove(2)))
    assert moved.rocks_row == 2 and moved.hands == ((2, 3, START),)
    stayed = state.apply(PlayIsland(seat=0, card=1, cell=2, rocks=RocksMove(None, (2, 3))))
    assert stayed.rocks_row == 0
    assert stayed.discarded == (2, 3)
    assert stayed.hands == ((4, 5, START),)
    # The rocks move before the draw: a card still on the pile cannot pay for staying.
    illegal(state, PlayIsland(seat=0, card=1, cell=2, rocks=RocksMove(None, (2, START))), "not in seat 0's hand")


def test_manual_rocks_errors():
    state = rocks_state("manual", hands=[[1, 2, 3]])
    play = PlayIsland(seat=0, card=1, cell=2)
    illegal(state, play, "must move the rocks or keep them")
    illegal(state, replace(play, rocks=RocksMove(0)), "may move to row 1, 2, not to row 0")
    illegal(state, replace(play, rocks=RocksMove(7)), "not to row 7")
    illegal(state, replace(play, rocks=RocksMove(None, (2,))), "exactly 2 more cards")
    illegal(state, replace(play, rocks=RocksMove(None, (2, 4))), "rocks_discard: island 4 is not in seat 0's hand")
    illegal(state, replace(play, rocks=RocksMove(1, (2, 3))), "only for \"stay\"")


def test_manual_rocks_stay_needs_two_cards_after_the_action():
    state = rocks_state("manual", grid={2: 1}, hands=[[2, 3, 4]])
    actions = set(state.actions_for(Choice(ChoiceKind.ISLAND, 3, 3)))  # costs 2: nothing left
    # Row 1 is full now: the rocks can only go to row 2.
    assert actions == {PlayIsland(seat=0, card=3, cell=3, discard=(2, 4), rocks=RocksMove(2))}


def test_manual_rocks_leave_without_a_move():
    state = rocks_state("manual", rocks_row=2, grid={0: 1, 1: 2, 2: 3}, hands=[[4, 5, 6]])
    play = PlayIsland(seat=0, card=4, cell=3, discard=(5,))
    assert set(state.actions_for(Choice(ChoiceKind.ISLAND, 4, 3))) == {play, replace(play, discard=(6,))}
    assert state.apply(play).rocks_row is None
    illegal(state, replace(play, rocks=RocksMove(1)), "leave the game on this action")


def test_manual_rocks_move_after_a_start_before_the_team_draws():
    rules = tiny_rules(**ROCKS, rocks="manual", start_discards=1)
    deal = simple_deal(rules, rocks_row=0)
    state = State.initial(deal).apply(DiscardTwo(seat=0, discard=(1, 2), rocks=RocksMove(1)))
    assert state.hands == ((3, 4, START),)
    # The Start costs 1 card: the seat pays 3 or 4 and keeps one card. Before the team
    # draws that is too few to pay for staying, so the rocks must move off row 1.
    actions = set(state.legal_actions())
    assert actions == {
        PlayStart(seat=0, team_discard=((3,),), rocks=RocksMove(0)),
        PlayStart(seat=0, team_discard=((3,),), rocks=RocksMove(2)),
        PlayStart(seat=0, team_discard=((4,),), rocks=RocksMove(0)),
        PlayStart(seat=0, team_discard=((4,),), rocks=RocksMove(2)),
    }


def test_monster_reopens_a_row_for_the_rocks():
    rules = tiny_rules(**ROCKS, rocks="auto", monsters=1)
    deal = simple_deal(rules, rocks_row=2, rocks_rolls=(1, 0))
    state = position(State.initial(deal), {2: 3, 3: 4}, [[MONSTER, 5, 6]])
    # Row 1 is full, so from row 2 only row 0 was eligible; sinking 4 reopens row 1.
    after = state.apply(PlayMonster(seat=0, cell=3))
    assert after.rocks_row == 1  # eligible [0, 1], roll 1


def test_finish_carries_no_rocks_move():
    state = rocks_state("manual", grid=[1, 2, 3, 4, 5, 6], hands=[[FINISH, 7, 8]])
    state = replace(state, rocks_row=None, start_played=True)
    illegal(state, PlayFinish(seat=0, rocks=RocksMove(1)), "carries no rocks move")
    assert state.apply(PlayFinish(seat=0)).won
