"""``bench --suite fair``: the fair analysis over many games. Its counts add up, a game's
verdict is the one ``fair_analysis`` gives the same line alone, lookahead's games are
judged at every turn but the Start, the journal resumes a killed run without losing or
double counting a game and refuses another run's settings, the JSON shape, Ctrl-C, and the
options the suite does not take.

The real games are on a small rule set at 2 players (a game takes about a second, the
perfect analysis with reproducible budgets, so that two runs agree); the command's own runs
(official rules) play stand-in games."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from tranquility.solver.analysis.analyze import analyze
from tranquility.solver.analysis.fair import Judgement, fair_analysis
from tranquility.solver.batch import fair_bench
from tranquility.solver.batch.fair_bench import (
    LOST,
    OWN,
    FairCase,
    FairGame,
    FairJournal,
    FairReport,
    FairSettings,
    journal_path,
    run_fair_suite,
    scan_lost,
)
from tranquility.solver.engine.actions import PlayStart
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL, Rules
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.lookahead import DEFAULT_SAMPLES, Lookahead
from tranquility.solver.search.policies import simulate
from tranquility.solver.stats import wilson

from ..helpers import run

SMALL = Rules(rows=2, cols=4, islands=12, hand=3, start_discards=2)
EXACT = Budget(reproducible=True, workers=1)
SETTINGS = FairSettings(players=(2,), deals=3, own_deals=2, samples=4, budget=EXACT, rules=SMALL)
TIMED = ("cpu_seconds", "cpu_s_median", "cpu_s_p90", "machine", "from_journal")


def untimed(data):
    """A report's JSON without what depends on the machine and on the journal."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k not in TIMED}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


@pytest.fixture(scope="module")
def straight() -> FairReport:
    return run_fair_suite(SETTINGS)


def check_share(share: dict, count: int, of: int) -> None:
    assert (share["count"], share["of"]) == (count, of)
    assert share["rate"] == pytest.approx(count / of, abs=1e-4)
    assert share["ci95"] == pytest.approx(list(wilson(count, of)), abs=1e-4)


@pytest.mark.slow
def test_the_counts_add_up_to_the_games(straight):
    data = straight.to_json(games=True)
    assert straight.complete and not data["interrupted"]
    # The lost games are thrifty's first three losses, each its own sim seed.
    lost_seeds = [s for s in range(10) if not simulate(deal(SMALL, 2, s), "thrifty", s).won][:3]
    cases = data["cases"]
    assert [c["seed"] for c in cases if c["section"] == LOST] == lost_seeds
    (lost,) = data[LOST]
    assert (lost["wanted"], lost["found"], lost["analysed"], lost["scanned"]) == (3, 3, 3, lost_seeds[-1] + 1)
    verdicts = lost["verdicts"]
    assert list(verdicts)[:4] == ["mistake", "bad luck", "undecided", "never winnable"]
    assert sum(v["of_lost"]["count"] for v in verdicts.values()) == 3
    never = verdicts["never winnable"]["of_lost"]["count"]
    assert lost["wins_lost"] == 3 - never and verdicts["never winnable"]["of_wins_lost"] is None
    for name, verdict in verdicts.items():
        count = sum(c["verdict"] == name for c in cases if c["section"] == LOST)
        check_share(verdict["of_lost"], count, 3)
        if name != "never winnable":
            check_share(verdict["of_wins_lost"], count, 3 - never)
    (own,) = data[OWN]
    mine = [c for c in cases if c["section"] == OWN]
    assert [c["seed"] for c in mine] == [0, 1] and own["games"] == 2
    assert own["won"] == sum(c["verdict"] == "won" for c in mine)
    assert own["examined"] == sum(c["examined"] for c in mine)
    check_share(own["mistakes"], sum(len(c["mistakes"]) for c in mine), own["examined"])
    assert data["games"] == {"analysed": 5, "from_journal": 0, "interrupted": 0, "lines_ok": True}
    assert all(c["checked"] and c["cpu_seconds"] > 0 for c in cases)


@pytest.mark.slow
def test_a_lost_game_gets_the_verdict_fair_analysis_gives_it_alone(straight):
    for game in straight.games:
        if game.case.section != LOST:
            continue
        line = simulate(deal(SMALL, 2, game.case.seed), "thrifty", game.case.seed).line
        alone = fair_analysis(analyze(line, EXACT), samples=SETTINGS.samples, seed=0)
        first = alone.mistake_at()
        assert game.judgement == alone.judgement and game.judgement != Judgement.WON
        assert game.mistake_at == (None if first is None else first.turn)
        assert (game.loss_turns, game.examined, game.turns) == (alone.loss, len(alone.turns), len(line.actions))
        assert game.mistakes == tuple(t.turn for t in alone.turns if t.mistake)


@pytest.mark.slow
def test_lookaheads_games_are_judged_at_every_turn_but_the_start(straight):
    starts = 0
    for game in straight.games:
        if game.case.section != OWN:
            continue
        line = simulate(deal(SMALL, 2, game.case.seed), Lookahead(game.case.seed), game.case.seed).line
        start = sum(isinstance(a, PlayStart) for a in line.actions)
        starts += start
        assert game.turns == len(line.actions) and game.examined == len(line.actions) - start
        assert game.won == line.end_state().won
    assert starts  # the Start was played, and left out


class Clock:
    """A monotonic clock that stands still: every Ctrl-C comes within 2 s of the one before."""

    def monotonic(self) -> float:
        return 0.0


Play = Callable[[FairCase, FairSettings], FairGame]


def counted(play: Play, played: list[FairCase]) -> Play:
    """``play``, noting each case it is given in ``played``."""

    def counting(case: FairCase, settings: FairSettings) -> FairGame:
        played.append(case)
        return play(case, settings)

    return counting


class Killed(Exception):
    """The process killed mid-run (the journal is left as it was)."""


@pytest.mark.slow
def test_a_killed_run_resumes_from_its_journal_without_double_counting(straight, tmp_path, monkeypatch):
    journal = journal_path(tmp_path / "fair.json")
    assert journal.name == "fair.json.part"
    real, played = fair_bench.play_fair_case, list[FairCase]()

    def dies_after_two(case: FairCase, settings: FairSettings) -> FairGame:
        if len(played) == 2:
            raise Killed
        played.append(case)
        return real(case, settings)

    monkeypatch.setattr(fair_bench, "play_fair_case", dies_after_two)
    with pytest.raises(Killed):
        run_fair_suite(SETTINGS, journal=journal)
    lines = journal.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["settings"] == SETTINGS.journal_header()
    # The kill came while a line was written, and a game was written twice.
    with journal.open("a") as file:
        file.write(lines[1] + "\n" + '{"section": "own", "play')
    first = list(played)
    played.clear()
    monkeypatch.setattr(fair_bench, "play_fair_case", counted(real, played))
    resumed = run_fair_suite(SETTINGS, journal=journal)
    assert len(played) == 3 and not set(played) & set(first)
    assert resumed.from_journal == 2 and resumed.complete
    assert untimed(resumed.to_json(games=True)) == untimed(straight.to_json(games=True))
    kept = [json.loads(line) for line in journal.read_text().splitlines()]
    assert len(kept) == 1 + 3 + 3  # the header, 2 games and one twice, then the 3 played: the cut line dropped
    # A third run plays nothing.
    played.clear()
    again = run_fair_suite(SETTINGS, journal=journal)
    assert not played and again.from_journal == 5


@pytest.mark.slow
def test_ctrl_c_cuts_the_game_under_way_and_keeps_it_out_of_the_journal(tmp_path, monkeypatch):
    """Ctrl-C inside the fair analysis (which ends it early) cuts the game short; two within
    2 s stop the run. Neither game is journaled."""
    import tranquility.solver.analysis.fair as fair
    import tranquility.solver.batch.bench as bench

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(fair, "examine", interrupted)
    monkeypatch.setattr(bench, "time", Clock())
    journal = tmp_path / "fair.json.part"
    report = run_fair_suite(SETTINGS, journal=journal)
    assert report.interrupted and not report.complete
    assert [g.interrupted for g in report.games] == [True, True]
    assert report.to_json()["games"] == {"analysed": 0, "from_journal": 0, "interrupted": 2, "lines_ok": True}
    assert len(journal.read_text().splitlines()) == 1


# -- the command: official rules, stand-in games ------------------------------------------------


def stand_in(case: FairCase, settings: FairSettings) -> FairGame:
    """A game without playing it: odd seeds a mistake at turn 5, even ones bad luck."""
    if case.section == OWN:
        return FairGame(case, Judgement.WON, 40, None, None, 39, (7,) if case.seed else (), True, 2.0)
    if case.seed % 2:
        return FairGame(case, Judgement.MISTAKE, 30, (9, 9), 5, 7, (5, 9), True, 1.0)
    return FairGame(case, Judgement.BAD_LUCK, 30, (9, 9), None, 7, (), True, 1.0)


FEW = ["bench", "--suite", "fair", "--deals", 2, "--own-deals", 2, "--samples", 2]


def test_the_command_writes_the_report_and_removes_its_journal(tmp_path, monkeypatch):
    monkeypatch.setattr(fair_bench, "play_fair_case", stand_in)
    out = tmp_path / "fair.json"
    done = run(*FEW, "--time-limit", 3, "--json", "--out", out)
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert set(data) == {"suite", "interrupted", "machine", "settings", LOST, OWN, "games"}
    assert data["settings"] == {
        "rules": "official",
        "players": [4],
        "deals": 2,
        "seed_cap": 100,
        "own_deals": 2,
        "lookahead_samples": DEFAULT_SAMPLES,
        "samples": 2,
        "turns": 6,
        "time_limit": 3.0,
        "reproducible": False,
        "workers": 1,
    }
    (lost,) = data[LOST]
    found = scan_lost(OFFICIAL, 4, 2, 100)
    assert set(lost) == {
        "players",
        "wanted",
        "scanned",
        "found",
        "analysed",
        "wins_lost",
        "verdicts",
        "cpu_s_median",
        "cpu_s_p90",
    }
    assert (lost["scanned"], lost["found"], lost["analysed"]) == (found.scanned, 2, 2)
    assert set(lost["verdicts"]["mistake"]) == {"of_lost", "of_wins_lost"}
    assert set(lost["verdicts"]["mistake"]["of_lost"]) == {"count", "of", "rate", "ci95"}
    odd = sum(s % 2 for s in found.seeds)
    assert lost["verdicts"]["mistake"]["of_lost"]["count"] == odd and lost["verdicts"]["bad luck"]["of_lost"]["count"] == 2 - odd
    assert data[OWN] == [
        {
            "players": 4,
            "games": 2,
            "won": 2,
            "examined": 78,
            "mistakes": {"count": 1, "of": 78, "rate": 0.0128, "ci95": [round(x, 4) for x in wilson(1, 78)]},
            "cpu_s_median": 2.0,
            "cpu_s_p90": 2.0,
        }
    ]
    assert data["games"] == {"analysed": 4, "from_journal": 0, "interrupted": 0, "lines_ok": True}
    written = json.loads(out.read_text())
    assert [(c["section"], c["seed"]) for c in written["cases"]] == [(LOST, s) for s in found.seeds] + [(OWN, 0), (OWN, 1)]
    assert {k: v for k, v in written.items() if k != "cases"} == data
    assert not journal_path(out).exists()
    markdown = run(*FEW, "--markdown").stdout
    assert "| 4 | mistake |" in markdown and "| 4 | 2 | 2 | 78 | 1 | 1.3% [0.2, 7.0] | 2.0 | 2.0 |" in markdown
    text = run(*FEW).stdout
    assert "Thrifty's lost games" in text and "target: at most 5%" in text and "verifier: ok" in text


def test_stopped_by_ctrl_c_the_journal_keeps_the_games_done_and_a_rerun_finishes(tmp_path, monkeypatch):
    import tranquility.solver.batch.bench as bench

    monkeypatch.setattr(bench, "time", Clock())
    played: list[FairCase] = []

    def stopped_after_one(case: FairCase, settings: FairSettings) -> FairGame:
        played.append(case)
        if len(played) > 1:
            raise KeyboardInterrupt
        return stand_in(case, settings)

    monkeypatch.setattr(fair_bench, "play_fair_case", stopped_after_one)
    out = tmp_path / "fair.json"
    done = run(*FEW, "--json", "--out", out)
    assert done.exit_code == 130, done.output
    assert json.loads(done.stdout)["games"] == {"analysed": 1, "from_journal": 0, "interrupted": 2, "lines_ok": True}
    assert f"{out} not written yet: {out}.part keeps the 1 game(s) done" in done.stderr
    assert not out.exists() and len(journal_path(out).read_text().splitlines()) == 2
    played.clear()
    monkeypatch.setattr(fair_bench, "play_fair_case", counted(stand_in, played))
    done = run(*FEW, "--json", "--out", out)
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["games"]["from_journal"] == 1 and len(played) == 3
    assert len(json.loads(out.read_text())["cases"]) == 4 and not journal_path(out).exists()


def test_a_journal_of_other_settings_is_refused_naming_it(tmp_path, monkeypatch):
    monkeypatch.setattr(fair_bench, "play_fair_case", stand_in)
    out = tmp_path / "fair.json"
    journal = journal_path(out)
    FairJournal(journal, FairSettings(deals=2, own_deals=2, samples=8)).close()
    before = journal.read_text()
    done = run(*FEW, "--out", out)
    assert done.exit_code == 2, done.output
    assert done.stderr == (
        f"Error: {journal}: a journal of a run with other settings (samples 8 there, 2 now): "
        "rerun with its settings to finish it, or remove it to start afresh\n"
    )
    assert journal.read_text() == before and not out.exists()
    journal.write_text("not a journal\n")
    done = run(*FEW, "--out", out)
    assert done.exit_code == 2 and done.stderr.startswith(f"Error: {journal}: not a journal of the fair suite")
    journal.unlink()
    FairJournal(journal, FairSettings(deals=2, own_deals=2, samples=2)).close()
    with journal.open("a") as file:
        file.write('{"section": "lost"}\n')
    done = run(*FEW, "--out", out)
    assert done.exit_code == 2 and done.stderr == f"Error: {journal}, line 2: not a game of the fair suite\n"


@pytest.mark.parametrize(
    "args, said",
    [
        (
            ["--suite", "fair", "--reproducible"],
            "--reproducible is not taken by --suite fair: its perfect analysis has --time-limit seconds a position, "
            "and --workers is its processes",
        ),
        (["--suite", "fair", "--budgets", "1,2"], "--budgets is only taken by --suite table"),
        (["--suite", "fair", "--budget-deals", "2"], "--budget-deals is only taken by --suite table"),
        (["--suite", "fair", "--own-deals", "0"], "Invalid value for '--own-deals': 0 is not in the range x>=1."),
        (["--suite", "fair", "--json", "--markdown"], "--json and --markdown do not mix; choose one"),
        (["--suite", "table", "--own-deals", "2"], "--own-deals is only taken by --suite fair"),
        (["--suite", "official", "--samples", "2"], "--samples is only taken by --suite table and --suite fair"),
    ],
)
def test_what_the_fair_suite_does_not_take_and_its_own_options_elsewhere_exit_2(args, said):
    done = run("bench", *args)
    assert (done.exit_code, done.stdout) == (2, "")
    assert done.stderr.startswith(f"Error: {said} (see '") and done.stderr.endswith(" bench --help')\n")
    assert done.stderr.count("\n") == 1


@pytest.mark.slow
def test_a_pool_gives_the_same_report(straight):
    pooled = run_fair_suite(FairSettings(players=(2,), deals=3, own_deals=2, samples=4, budget=EXACT, rules=SMALL, workers=2))
    expected = untimed(straight.to_json(games=True))
    expected["settings"]["workers"] = 2
    assert untimed(pooled.to_json(games=True)) == expected
