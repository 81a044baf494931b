"""The rules of a backup of the player's progress merged with what is here, or replacing it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from nestor import VARIANTS, Game

from .events import ProgressSummary
from .puzzle_record import PuzzleRecord
from .saved import Help, SavedGame, join
from .settings import Settings
from .statistics.data import DailyRecord, Key, StatsData
from .statistics.record import Stats


@dataclass(frozen=True)
class Parts:
    """The player's progress as values (a backup's, or what is held here): the game in play, if
    any, and the games left in progress, oldest first, one per deal other than ``game``'s."""

    stats: Stats
    game: SavedGame | None
    archive: tuple[SavedGame, ...]
    settings: Settings
    puzzles: PuzzleRecord = field(default_factory=PuzzleRecord)

    def summary(self) -> ProgressSummary:
        """What the progress holds, over all variants."""
        data = self.stats.snapshot()
        counts = data.counts.values()
        playing = [g for g in (self.game, *self.archive) if g is not None and in_progress(g)]
        return ProgressSummary(
            games=sum(c.played for c in counts),
            won=sum(c.won + c.won_with_help for c in counts),
            daily_won=len(data.daily.won),
            in_progress=len({g.key for g in playing}),
        )


def in_progress(saved: SavedGame) -> bool:
    """``saved`` has a move in effect and has not ended (what the archive keeps)."""
    return saved.game.cursor >= 1 and saved.game.position.outcome() is None


def holds(line: SavedGame, other: SavedGame) -> bool:
    """``line`` holds ``other``'s whole record (same deal; its moves, Redo's too, come first)."""
    ahead, behind = line.game.all_moves, other.game.all_moves
    return line.key == other.key and ahead[: len(behind)] == behind


def unite(mine: SavedGame, theirs: SavedGame) -> tuple[SavedGame, tuple[SavedGame, ...]]:
    """One game from two saves of a deal (the one that holds the other, else the two joined; the
    most help, the longer time) and the lines it does not hold. ValueError: not one deal."""
    if mine.key != theirs.key:
        raise ValueError(f"{mine.key} and {theirs.key} are different deals")
    if holds(mine, theirs):
        base = mine.game
    elif holds(theirs, mine):
        base = theirs.game
    else:
        joined = SavedGame(join(mine, theirs)[0].game)
        # A line that holds the joined game (with more moves for Redo) is kept instead.
        base = next((s.game for s in (mine, theirs) if holds(s, joined)), joined.game)
    united = SavedGame(base, mine.help.most(theirs.help), max(mine.elapsed_ms, theirs.elapsed_ms))
    left_over = tuple(line for line in (mine, theirs) if not holds(united, line))
    return united, left_over


def with_resets(stats: Stats, resets: Mapping[str, int], daily_reset_ms: int | None) -> Stats:
    """A copy of ``stats`` with these reset times (by variant, and the daily record's)."""
    data = stats.snapshot()
    if dict(data.resets) == dict(resets) and data.daily.reset_ms == daily_reset_ms:
        return stats.copy()
    daily = DailyRecord(data.daily.won, data.daily.best_streak, daily_reset_ms)
    return Stats.restore(StatsData(data.counts, data.deals, data.history, dict(resets), daily))


def merge_parts(
    mine: Parts, theirs: Parts, limit: int
) -> tuple[Parts, tuple[SavedGame, ...]]:
    """``theirs`` (a backup) merged into ``mine`` (what is here): every game and result of both,
    the archive cut to ``limit``; and the lines it could not join, kept apart, oldest first."""
    diverged: list[SavedGame] = []
    game = mine.game
    here = {g.key: g for g in mine.archive}
    brought = {g.key: g for g in theirs.archive}
    if theirs.game is not None:
        brought.pop(theirs.game.key, None)
        brought[theirs.game.key] = theirs.game  # their newest: last among theirs
    if theirs.game is not None and (
        game is None or not game.game.all_moves and in_progress(theirs.game)
        and not _ended(mine, theirs.game.key)
    ):
        game = theirs.game  # nothing played here yet: the backup's game comes into play
        brought.pop(game.key)
    for lines in (brought, here):  # (here: an archive with the deal in play, not from this module)
        if game is not None and game.key in lines:
            game, left = unite(game, lines.pop(game.key))
            diverged.extend(left)
    archive: dict[Key, SavedGame] = {}
    for key, saved in brought.items():
        # A deal that ended here is not brought back in progress by an older backup: its line
        # is kept apart, so no move is lost (and merging twice changes nothing).
        if key not in here and in_progress(saved):
            if _ended(mine, key):
                diverged.append(saved)
            else:
                archive[key] = saved
    for key, saved in here.items():
        if key in brought:
            saved, left = unite(saved, brought[key])
            diverged.extend(left)
        archive[key] = saved
    kept = tuple(archive.values())[-limit:] if limit > 0 else ()
    stats = mine.stats.copy()  # (equal ones are not merged: records of one ms may order anew)
    if mine.stats != theirs.stats:
        mine_data = mine.stats.snapshot()
        stats.merge(with_resets(theirs.stats, mine_data.resets, mine_data.daily.reset_ms))
    puzzles = mine.puzzles.copy()
    puzzles.unite(theirs.puzzles)
    return Parts(stats, game, kept, replace(mine.settings), puzzles), tuple(_once(diverged))


def _ended(parts: Parts, key: Key) -> bool:
    return parts.stats.deal_result(*key) not in (None, "playing")


def replace_parts(mine: Parts, theirs: Parts, now_ms: int) -> Parts:
    """``theirs`` (a backup) in place of ``mine``: its statistics marked reset at ``now_ms`` or
    after every reset either holds, so older copies merged later (another tab's) give way."""
    times = [-1]
    for data in (mine.stats.snapshot(), theirs.stats.snapshot()):
        times.extend(t for t in (*data.resets.values(), data.daily.reset_ms) if t is not None)
    marker = max(now_ms, max(times) + 1)
    stats = with_resets(theirs.stats, dict.fromkeys(VARIANTS, marker), marker)
    settings = replace(theirs.settings)
    if settings.language is None:
        settings.language = mine.settings.language
    game = theirs.game if theirs.game is not None else mine.game
    archive = tuple(g for g in theirs.archive if game is None or g.key != game.key)
    return Parts(stats, game, archive, settings, theirs.puzzles.copy())


def copy_game(saved: SavedGame) -> SavedGame:
    """A copy of ``saved`` whose game changes apart from it."""
    return SavedGame(Game.from_json(saved.game.to_json()), saved.help, saved.elapsed_ms)


def _once(lines: Iterable[SavedGame]) -> list[SavedGame]:
    out: dict[tuple[Key, tuple[str, ...], int, Help], SavedGame] = {}
    for line in lines:
        out.setdefault((line.key, tuple(map(str, line.game.all_moves)), line.game.cursor,
                        line.help), line)
    return list(out.values())
