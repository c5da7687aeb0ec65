"""The running score of a session of games between the same players: a networked room's
matches one after another (its rematches), or a local session's "Play again".

>>> score = RunningScore.start(("Ada", "Bob")).after(MatchEnded("finished", winner=1))
>>> score.line()
'Running score after 1 game: Ada 0, Bob 1'
>>> score.after(MatchEnded("resigned", winner=1, seat=0)).line()
'Running score after 2 games: Ada 0, Bob 2'
>>> score.after(MatchEnded("stopped")).wins  # a stopped match has no winner
(0, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from client.i18n import _, ngettext
from protocol.events import MatchEnded


@dataclass(frozen=True, slots=True)
class RunningScore:
    """Games won by each seat so far (``played``: how many games they were)."""

    names: tuple[str, ...]
    wins: tuple[int, ...]
    played: int = 0

    @classmethod
    def start(cls, names: tuple[str, ...]) -> RunningScore:
        return cls(names, (0,) * len(names))

    def after(self, ended: MatchEnded | None) -> RunningScore:
        """The score once one more game ended so (None: left unfinished, no winner)."""
        winner = None if ended is None else ended.winner
        wins = tuple(count + (seat == winner) for seat, count in enumerate(self.wins))
        return RunningScore(self.names, wins, self.played + 1)

    def line(self) -> str:
        """The score in words."""
        pairs = zip(self.names, self.wins, strict=True)
        games = ngettext("{count} game", "{count} games", self.played).format(count=self.played)
        scores = ", ".join(f"{name} {won}" for name, won in pairs)
        return _("Running score after {games}: {scores}").format(games=games, scores=scores)
