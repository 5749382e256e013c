"""Convoluted Coprimality: the rules, one test each, plus random games checked
against a small independent referee written here from the rules text."""

from __future__ import annotations

import json
from math import gcd

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import IllegalMove, InvalidOptions, InvalidRecord

GAME = "convoluted-coprimality"


def new(**options):
    return quetgames.new_game(GAME, **options)


def play_all(state, moves):
    for move in moves:
        state = state.play(move)
    return state


def board(state):
    return state.view()["board"]


def cell(state, name):
    col = ord(name[0]) - ord("a")
    row = int(name[1:]) - 1
    return board(state)["grid"][row][col]


def snapshot(state):
    return state.record, json.dumps(state.view(), sort_keys=True)


# -- options -------------------------------------------------------------


def test_default_options():
    state = new()
    assert state.options == {"players": 2, "size": 12, "max_rounds": 3}
    assert state.moves_record == "q1.cc.p2_s12_r3."
    assert board(state)["size"] == 12 and len(board(state)["grid"]) == 12


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1}, {"players": 9}, {"size": 3}, {"size": 27}, {"max_rounds": 0},
        {"max_rounds": 21}, {"players": True}, {"size": 12.0}, {"size": "12"}, {"colour": 1},
        {"size": 10**40},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidOptions):
        new(**options)


# -- the start -----------------------------------------------------------


def test_the_one_is_written_in_a1_for_free_and_player_one_writes_the_two():
    # The seed text: Player 1 places 2 right of the 1 or below it.
    state = new()
    assert cell(state, "a1") == 1
    assert state.history == ()
    assert state.to_move == (0,)
    assert state.legal_moves() == ["b1", "a2"]  # reading order: row 1, then row 2
    assert board(state)["path"] == ["a1"]
    assert board(state)["next_number"] == 2
    assert board(state)["block"] == [1, 2]
    assert board(state)["block_index"] == 1
    assert board(state)["round"] == 1 and board(state)["max_rounds"] == 3


# -- the rules example (4 × 4, two players) -------------------------------
#
#      a  b  c  d
#   1  1  2  3  4
#   2  .  .  ?  5      6 may go in c2 (touches 3 and 5) or d3 (edge).
#   3  .  .  ?  .      In c2 it sits beside 3: gcd(6, 3) = 3, so the writer is out.
#   4  .  .  .  .


def rules_example():
    return play_all(new(size=4), ["b1", "c1", "d1", "d2"])


def test_rules_example_the_three_is_forced_to_the_edge():
    state = new(size=4).play("b1")
    assert state.to_move == (1,)  # block 2 is just the 3, and it is Player 2's
    # b2 touches the 2 but is an inner square with no other number beside it.
    assert state.legal_moves() == ["c1"]
    with pytest.raises(IllegalMove, match="b2 is not on the edge of the grid and touches only one number"):
        state.play("b2")


def test_rules_example_one_player_writes_the_whole_block_four_five():
    state = play_all(new(size=4), ["b1", "c1"])
    assert state.to_move == (0,)
    assert board(state)["block"] == [4, 5]
    state = state.play("d1")
    assert state.to_move == (0,)  # 4 is not prime: the block goes on
    assert state.legal_moves() == ["d2"]  # c2 is inner and touches only the 4
    state = state.play("d2")
    assert state.to_move == (1,)  # 5 is prime: block 4 (6, 7) goes to Player 2


def test_rules_example_the_view_warns_before_a_knock_out():
    state = rules_example()
    assert state.legal_moves() == ["c2", "d3"]
    b = board(state)
    assert b["targets"] == {
        "c2": {"eliminates": True, "clashes": [3], "warning": "Writing 6 at c2 puts it beside 3 (common factor 3): you would be knocked out."},
        "d3": {"eliminates": False, "clashes": [], "warning": None},
    }
    assert b["last_square"] == "d2"
    assert b["path"] == ["a1", "b1", "c1", "d1", "d2"]
    assert b["grid"][0] == [1, 2, 3, 4] and b["grid"][1] == [None, None, None, 5]


def test_rules_example_writing_six_beside_three_knocks_out_and_ends_a_two_player_game():
    state = rules_example()
    end = state.play("c2")
    assert end.is_over and end.to_move == ()
    assert end.scores == (1, 0)
    assert end.winners == (0,)
    assert end.legal_moves() == []
    b = board(end)
    assert b["eliminated"] == [1] and b["alive"] == [0]
    assert b["eliminations"] == [{"seat": 1, "number": 6, "square": "c2", "round": 1, "clashes": [3]}]
    assert b["over_by"] == "last_standing" and b["next_number"] is None and b["targets"] == {}
    assert "Player 2" not in end.view()["status"] and "Player 1 wins" in end.view()["status"]
    with pytest.raises(IllegalMove, match="game is over"):
        end.play("d3")


def test_rules_example_the_safe_square_keeps_everyone_in():
    state = rules_example().play("d3")
    assert state.scores == (1, 1) and not state.is_over
    assert state.to_move == (1,)  # 7 finishes Player 2's block


# -- blocks passing on after a knock-out, and a stuck grid (4 × 4, three players)
#
# Blocks: [1 2] P1, [3] P2, [4 5] P3, [6 7] P1. P1 writes 6 beside the 3 and is
# out, so the 7 passes to P2; the next block [8..11] goes to the seat after P2
# (P3, not P2 again), then [12 13] to P2 (P1 is skipped) and [14..17] to P3.
#
#      a  b  c  d
#   1  1  2  3  4
#   2  8  7  6  5
#   3  9 10 11  .
#   4 14 13 12  .      15 must touch 14 at a4, but a3 and b4 are full: stuck.

THREE = ["b1", "c1", "d1", "d2", "c2", "b2", "a2", "a3", "b3", "c3", "c4", "b4", "a4"]
THREE_MOVERS = [0, 1, 2, 2, 0, 1, 2, 2, 2, 2, 1, 1, 2]  # who writes 2, 3, ..., 14


def test_three_players_turns_follow_the_blocks_and_skip_a_knocked_out_seat():
    state = new(players=3, size=4)
    for number, (move, seat) in enumerate(zip(THREE, THREE_MOVERS), start=2):
        assert state.to_move == (seat,), f"writing {number}"
        state = state.play(move)


def test_a_knocked_out_seat_hands_the_rest_of_its_block_on():
    state = play_all(new(players=3, size=4), THREE[:4])
    assert board(state)["targets"]["c2"]["clashes"] == [3]
    assert board(state)["targets"]["c2"]["eliminates"] is True
    state = state.play("c2")
    assert state.scores == (0, 1, 1) and not state.is_over
    assert state.to_move == (1,)  # the 7 of Player 1's block passes to Player 2
    assert board(state)["block"] == [6, 7] and board(state)["next_number"] == 7
    state = state.play("b2")
    assert state.to_move == (2,)  # the next block goes to the seat after Player 2


def test_a_stuck_path_wipes_the_grid_and_the_lowest_seat_still_in_begins():
    before = play_all(new(players=3, size=4), THREE[:-1])
    after = before.play("a4")
    b = board(after)
    assert b["round"] == 2 and b["grids_ended"] == 1
    assert b["path"] == ["a1"] and b["next_number"] == 2 and b["block"] == [1, 2]
    assert sum(v is not None for row in b["grid"] for v in row) == 1 and b["grid"][0][0] == 1
    assert after.to_move == (1,)  # Player 1 is out, so Player 2 begins the new grid
    assert after.legal_moves() == ["b1", "a2"]
    assert b["previous_path"] == ["a1"] + THREE
    assert b["eliminated"] == [0]
    assert after.history == tuple(THREE)


def test_when_the_last_grid_gets_stuck_the_survivors_share_the_win():
    end = play_all(new(players=3, size=4, max_rounds=1), THREE)
    assert end.is_over
    assert end.scores == (0, 1, 1)
    assert end.winners == (1, 2)
    assert board(end)["over_by"] == "rounds" and board(end)["grids_ended"] == 1
    assert board(end)["grid"][3] == [14, 13, 12, None]  # the last grid stays on show
    assert "share the win" in end.view()["status"]


# -- a clean stuck grid with two players (5 × 5) ---------------------------
#
#      a  b  c  d  e
#   1  1  2  3  4  5
#   2 10  9  8  7  6
#   3 11  . 21 20 19
#   4 12  . 22 23 18      24 would be Player 2's (block 24..29), but every square
#   5 13 14 15 16 17      beside 23 is full: the grid is wiped and Player 1 begins.

FIVE = ["b1", "c1", "d1", "e1", "e2", "d2", "c2", "b2", "a2", "a3", "a4", "a5",
        "b5", "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4", "d4"]


def test_the_new_grid_goes_to_player_one_not_to_the_owner_of_the_stuck_number():
    before = play_all(new(size=5), FIVE[:-1])
    assert before.to_move == (0,) and board(before)["block"] == [20, 21, 22, 23]
    after = before.play("d4")
    assert board(after)["eliminated"] == []
    assert board(after)["round"] == 2
    assert after.to_move == (0,)
    # The inner squares b3 and b4 stayed empty; the new path starts in a1 again.
    assert board(after)["previous_path"][-1] == "d4"
    assert after.play("a2").to_move == (1,)  # 3 is block 2 again


def test_two_survivors_of_the_last_grid_both_win():
    end = play_all(new(size=5, max_rounds=1), FIVE)
    assert end.is_over and end.scores == (1, 1) and end.winners == (0, 1)
    assert end.view()["status"] == "Game over: after 1 grid, Player 1 and Player 2 share the win"


def test_max_rounds_grids_are_played():
    state = new(size=5, max_rounds=2)
    state = play_all(state, FIVE)
    assert not state.is_over and board(state)["round"] == 2
    state = play_all(state, FIVE)
    assert state.is_over and state.winners == (0, 1)
    assert board(state)["grids_ended"] == 2
    assert len(state.record.split(".")[3]) == len(FIVE)  # 44 moves, two to a character


# -- rejected moves --------------------------------------------------------


@pytest.mark.parametrize(
    "move, message",
    [
        ("a1", "a1 already holds 1"),
        ("c1", "c1 is not next to 1, the number before it \\(at a1\\)"),
        ("b2", "b2 is not next to 1"),
        ("m1", "off the board"),
        ("a13", "off the board"),
        ("B1", "not a square name"),
        ("b01", "not a square name"),
        (" b1", "not a square name"),
        ("b1 ", "not a square name"),
        ("", "not a square name"),
        ("b-1", "not a square name"),
        ("9" * 150, "not a square name"),
        ("x" * 500, "far too long"),
    ],
)
def test_rejected_moves_say_why_and_change_nothing(move, message):
    state = new()
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=message):
        state.play(move)
    assert snapshot(state) == before


def test_an_occupied_square_is_named_with_its_number():
    state = play_all(new(size=4), ["b1", "c1", "d1", "d2", "d3"])  # 7 next, beside 6 at d3
    with pytest.raises(IllegalMove, match="d2 already holds 5"):
        state.play("d2")


def test_wrong_seat_and_non_text_moves_are_refused():
    state = new()
    with pytest.raises(IllegalMove, match="not Player 2's turn"):
        state.play("b1", seat=1)
    with pytest.raises(IllegalMove, match="there is no seat"):
        state.play("b1", seat=5)
    with pytest.raises(IllegalMove, match="written as text"):
        state.play(12)


# -- records ---------------------------------------------------------------


def test_record_packs_two_moves_a_character():
    # Directions: up 0, right 1, down 2, left 3; a pair is 'a' + 4 × first + second.
    state = rules_example()  # right, right, right, down
    assert state.moves_record == "q1.cc.p2_s4_r3.fg"
    state = state.play("d3")  # down: an odd last move is q r s t
    assert state.moves_record == "q1.cc.p2_s4_r3.fgs"
    assert quetgames.load(state.record) == state


def test_records_round_trip_through_a_grid_change():
    state = play_all(new(players=3, size=4), THREE + ["a2", "a3"])
    loaded = quetgames.load(state.record)
    assert loaded == state and loaded.history == state.history
    assert loaded.view() == state.view()
    named = state.with_seats(["Ann", "Bo", "Cy"], ["human", "random", "human"])
    assert quetgames.load(named.record).view() == named.view()


def test_worst_case_default_record_is_short():
    # A default game has at most 3 grids of 12 × 12, each at most 143 moves (2 to 144).
    moves = 3 * (12 * 12 - 1)
    longest = len("q1.cc.p2_s12_r3.") + (moves + 1) // 2
    assert longest <= 1000
    # And a real long game is exactly that compact.
    state = new(size=5, max_rounds=3)
    state = play_all(state, FIVE * 3)
    assert len(state.moves_record) == len("q1.cc.p2_s5_r3.") + len(FIVE) * 3 // 2


@pytest.mark.parametrize(
    "moves, message",
    [
        ("z", "letters a to p"),
        ("fA", "letters a to p"),
        ("qf", "letters a to p"),  # a lone move is only allowed last
        ("q", "off the grid"),  # up from a1
        ("a", "off the grid"),
        ("fgc", "move 5 of the record cannot be played: d1 already holds 4"),  # 6 goes up from d2
        ("fgm", "goes on after the game ended"),  # 6 left into c2 ends the game; then 7 up
        ("~", "letters a to p"),
        ("-", "letters a to p"),
    ],
)
def test_damaged_moves_in_a_record_are_refused(moves, message):
    with pytest.raises(InvalidRecord, match=message):
        quetgames.load(f"q1.cc.p2_s4_r3.{moves}")


def test_records_with_bad_options_are_refused():
    for text in ["q1.cc.p2_s3_r3.", "q1.cc.p2_s12_r3_s4.", "q1.cc.s12_p2_r3.", "q1.cc.p2_s012_r3."]:
        with pytest.raises(InvalidRecord):
            quetgames.load(text)


# -- the view ----------------------------------------------------------------


def test_view_is_json_ready_and_complete():
    state = play_all(new(players=3, size=4), THREE[:6])
    view = state.view()
    assert json.loads(json.dumps(view)) == view
    b = view["board"]
    assert set(b) == {
        "size", "grid", "path", "last_square", "next_number", "block", "block_index", "round", "max_rounds",
        "grids_ended", "alive", "eliminated", "eliminations", "targets", "previous_path", "over_by", "writers",
    }
    assert list(b["targets"]) == view["legal_moves"] == state.legal_moves()
    assert b["block"] == [8, 9, 10, 11] and b["block_index"] == 5 and b["next_number"] == 8
    assert "Player 3 to write 8" in view["status"]


# -- an independent referee for random games --------------------------------


def referee_is_prime(n):
    return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))


class Referee:
    """The rules again, written plainly from the rules text, with squares as
    names and the grid as a dict; slow but independent of the engine."""

    def __init__(self, players, size, max_rounds):
        self.players, self.size, self.max_rounds = players, size, max_rounds
        self.alive = list(range(players))
        self.grids_ended = 0
        self.over = False
        self.new_grid()

    def new_grid(self):
        self.cells = {(0, 0): 1}
        self.at = (0, 0)
        self.number = 1
        self.mover = min(self.alive)

    def around(self, sq):
        r, c = sq
        return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < self.size and 0 <= c + dc < self.size]

    def options(self):
        out = []
        for sq in self.around(self.at):
            if sq in self.cells:
                continue
            on_edge = 0 in sq or self.size - 1 in sq
            if on_edge or sum(n in self.cells for n in self.around(sq)) >= 2:
                out.append(sq)
        return sorted(out)

    def after(self, seat):
        later = [s for s in self.alive if s > seat]
        return later[0] if later else self.alive[0]

    def play(self, sq):
        assert sq in self.options()
        j = self.number + 1
        bad = [self.cells[n] for n in self.around(sq) if n in self.cells and gcd(self.cells[n], j) != 1]
        self.cells[sq] = j
        self.at, self.number = sq, j
        writer = self.mover
        if bad:
            self.alive.remove(writer)
            if len(self.alive) == 1:
                self.over = True
                return
            self.mover = self.after(writer)
        elif referee_is_prime(j):
            self.mover = self.after(writer)
        if not self.options():
            self.grids_ended += 1
            if self.grids_ended == self.max_rounds:
                self.over = True
            else:
                self.new_grid()


def name(sq):
    return "abcdefghijklmnopqrstuvwxyz"[sq[1]] + str(sq[0] + 1)


JUNK = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["a1", "A1", "b01", "zz9", "a0", "a99", " b1", "b1\n", "é1", "a-1", "a+1"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 8),
    size=st.integers(4, 9),
    max_rounds=st.integers(1, 4),
    data=st.data(),
)
def test_random_games_follow_the_referee(players, size, max_rounds, data):
    state = new(players=players, size=size, max_rounds=max_rounds)
    ref = Referee(players, size, max_rounds)
    bound = max_rounds * (size * size - 1)
    for _ in range(bound + 1):
        if state.is_over:
            break
        assert state.to_move == (ref.mover,)
        legal = state.legal_moves()
        assert legal == [name(sq) for sq in ref.options()]
        assert legal, "a seat to move always has a square"
        assert len(legal) <= 3
        b = board(state)
        # Every listed move plays; the warnings match the neighbours' factors.
        for move in legal:
            state.play(move)
            j = b["next_number"]
            r, c = int(move[1:]) - 1, ord(move[0]) - 97
            clashes = sorted(ref.cells[n] for n in ref.around((r, c)) if n in ref.cells and gcd(ref.cells[n], j) > 1)
            target = b["targets"][move]
            assert (target["eliminates"], target["clashes"]) == (bool(clashes), clashes)
            assert (target["warning"] is None) == (not clashes)
        # Rejected moves change nothing.
        junk = data.draw(JUNK)
        if junk not in legal:
            before = snapshot(state)
            with pytest.raises(IllegalMove):
                state.play(junk)
            assert snapshot(state) == before
        # Mostly safe moves, so that games last and grids get stuck.
        safe = [m for m in legal if not b["targets"][m]["eliminates"]]
        pool = safe if safe and data.draw(st.integers(0, 9)) else legal
        move = data.draw(st.sampled_from(pool))
        state = state.play(move)
        ref.play((int(move[1:]) - 1, ord(move[0]) - 97))
        assert board(state)["round"] == ref.grids_ended + 1 or ref.over
    assert state.is_over and ref.over
    # Scores and winners recounted from the referee's survivors.
    assert state.scores == tuple(int(s in ref.alive) for s in range(players))
    assert state.winners == tuple(ref.alive)
    assert board(state)["eliminated"] == [s for s in range(players) if s not in ref.alive]
    assert len(ref.alive) == 1 or ref.grids_ended == max_rounds
    # The record rebuilds the same game.
    loaded = quetgames.load(state.record)
    assert loaded == state and loaded.view() == state.view()
