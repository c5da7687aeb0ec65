"""The one interface every game screen plays through: a local game, a networked one, a replay.

A screen reads what the game shows now (``state``, ``awaiting``, who acts for each seat) and
*starts* actions — ``throw()``, ``play(play)`` — that return nothing: whatever happened
arrives, for every driver alike, from ``await next_turn()``, in the order it happened. A
local throw's turn is there at once; a networked one once every share came back through the
relay; a replay's when the person steps through the log.

What only some games have is an optional part in :attr:`GameDriver.extras` — the chat, the
relay link (connection, claims, resigning), the rematch, the replay's controls — and the
screen composes a widget for each part that is there. What changes in the background (a chat
line, a peer's offence, the link's status, a rematch) is told to :meth:`GameDriver.subscribe`
listeners as :data:`GameNews`; the screens post it to themselves as Textual messages.

>>> from client.game.local import LocalGame
>>> from client.setup import GooseSetup, SessionSettings
>>> import tempfile, pathlib
>>> from protocol.identity import seeded_source
>>> settings = SessionSettings(data_dir=pathlib.Path(tempfile.mkdtemp()), clock=lambda: 0,
...                            random_source=seeded_source("doc"))
>>> game = LocalGame(GooseSetup(("Ann", "Bob")), settings)
>>> isinstance(game, GameDriver), game.seat_role(0), game.extras.chat is None
(True, 'person', True)
>>> game.close()
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, runtime_checkable

from client.game.score import RunningScore
from client.game.turn import GameState, Turn
from client.i18n import _
from client.setup import GameSetup
from engine.awaiting import ChoosePlay, Finished, ThrowDice
from engine.jacquet import Play
from protocol.events import ChatReceived, MatchEnded

if TYPE_CHECKING:
    from client.game.link_status import LinkStatus

SeatRole = Literal["person", "computer", "elsewhere"]
"""Who acts for a seat from this terminal: a person here, the computer here, or nobody here
(another terminal's player, or a recorded one)."""

ScreenAwaiting: TypeAlias = ThrowDice | ChoosePlay | Finished
"""What a screen waits for: never ``MissTurn`` (missed turns come with the turn before)."""


@dataclass(frozen=True, slots=True)
class Offence:
    """Something a peer did wrong, in words naming them; ``fatal`` when it stopped the match.
    ``seat``: the match seat of whoever is named (None: not known, or not a player)."""

    who: str
    text: str
    fatal: bool
    seat: int | None = None

    @property
    def named(self) -> str:
        """Who, as the screens name him: with his seat beside his name (:func:`seated`)."""
        return seated(self.who, self.seat)


def seated(name: str, seat: int | None) -> str:
    """A player named for a person, his seat beside his name (counted from 1, as the
    screens count seats), so that two players of one name are told apart.

    >>> seated("Ada", 1), seated("the relay", None)
    ('Ada (seat 2)', 'the relay')
    """
    return name if seat is None else _("{name} (seat {seat})").format(name=name, seat=seat + 1)


@dataclass(frozen=True, slots=True)
class ChatLine:
    line: ChatReceived


@dataclass(frozen=True, slots=True)
class OffenceNews:
    offence: Offence


@dataclass(frozen=True, slots=True)
class Changed:
    """The link, the peers or the rematch changed: redraw what shows them."""


@dataclass(frozen=True, slots=True)
class Superseded:
    """A rematch began in the room: this match is over and done with; the next one is
    :meth:`RematchOffer.next_game`."""


GameNews: TypeAlias = ChatLine | OffenceNews | Changed | Superseded


class ChatChannel(Protocol):
    """Signed chat between the players (spectators read it)."""

    @property
    def can_speak(self) -> bool: ...

    @property
    def chat_history(self) -> Sequence[ChatReceived]:
        """Every line said so far (a panel opened now shows them first)."""
        ...

    def chat(self, text: str) -> None:
        """Say *text*; :class:`~client.game.turn.NotYourTurnError` says why not."""
        ...


class Resigning(Protocol):
    """Giving up the match (the screen asks first): a networked seat, or the person to move
    in a local game."""

    @property
    def resigner(self) -> int | None:
        """The seat that would resign now (None: nobody here may, now)."""
        ...

    def resign(self) -> None: ...


class MatchLink(Protocol):
    """The relay room behind a networked match: connection, peers, claims (resigning is
    :class:`Resigning`'s, which a local game has too)."""

    @property
    def status(self) -> LinkStatus: ...

    @property
    def watching(self) -> bool: ...

    @property
    def offences(self) -> Sequence[Offence]: ...

    def describe_peers(self) -> Sequence[PeerLine]: ...

    def claimable(self, now_ms: int) -> int | None:
        """The seat this terminal may claim abandoned now (past the time limit), if any."""
        ...

    def waiting_for(self, now_ms: int) -> tuple[tuple[str, ...], int] | None:
        """The absent players the match waits for and the ms until they can be claimed."""
        ...

    def claim_abandonment(self, seat: int) -> None: ...

    @property
    def catching_up(self) -> bool:
        """The board shown is not yet known to be where the match stands (see
        :attr:`client.net.view.MatchView.catching_up`): nothing here acts on it."""
        ...

    def catching_up_note(self, now_ms: int) -> str | None:
        """While catching up, whom this seat waits for and what it can do (None: nobody in
        particular — the relay's replay, a peer's records on their way)."""
        ...

    @property
    def resumable(self) -> bool:
        """Quitting keeps this terminal's seat (its seat file can take it back)."""
        ...

    def leaving(self) -> Callable[[], Coroutine[Any, Any, None]] | None:
        """What leaves the room once the game's screen is gone (None: a rematch's game took
        the room over). The app runs it and waits for it before it exits."""
        ...


def catching_up_refusal() -> str:
    """Why nothing may be done while the board catches up with the match."""
    return _("catching up with the match: your board is not yet where it stands")


@dataclass(frozen=True, slots=True)
class RoomInvites:
    """The invites of a networked match's room this terminal holds, encoded (None: not
    held here — a spectator has no player invite)."""

    player: str | None
    watch: str | None


@dataclass(frozen=True, slots=True)
class PeerLine:
    """One other player as the connection line shows him."""

    name: str
    state: Literal["here", "away", "gone", "unknown"]
    grace_left_ms: int = 0


class RematchOffer(Protocol):
    """Playing again in the same room once the match is over."""

    def ask_rematch(self) -> None:
        """This player would like another match; NotYourTurnError says why not."""
        ...

    def withdraw_rematch(self) -> None:
        """The host takes back the rematch he proposed; NotYourTurnError says why not."""
        ...

    @property
    def can_ask_rematch(self) -> bool:
        """Whether this reader may ask for one at all (a spectator may not, nor anyone after
        a match stopped or claimed from a player gone)."""
        ...

    @property
    def can_withdraw_rematch(self) -> bool:
        """Whether there is a rematch this reader may withdraw now (the host's, proposed)."""
        ...

    @property
    def rematch_note(self) -> str | None:
        """Where the rematch stands, for the end screen (None: nobody asked)."""
        ...

    def next_game(self) -> GameDriver:
        """The rematch's game, once it has begun (after :class:`Superseded`)."""
        ...


class ReplayControl(Protocol):
    """Stepping through a recorded match."""

    @property
    def index(self) -> int: ...

    @property
    def last_index(self) -> int: ...

    @property
    def throws_made(self) -> int:
        """Throws made up to the frame shown."""
        ...

    @property
    def throws(self) -> int:
        """Throws in the whole log (a replay steps by throw, not by turn: see
        :attr:`~client.game.replay.MatchReplay.throws`)."""
        ...

    @property
    def stories(self) -> Sequence[str]:
        """Each frame told in words (the story list beside the board)."""
        ...

    @property
    def warning(self) -> str | None: ...

    @property
    def frames(self) -> Sequence[Any]:
        """Each frame's ``state`` and ``events`` (the coach judges the plays in them)."""
        ...

    def step(self, delta: int) -> None: ...

    def jump(self, index: int) -> None: ...

    def frame_of_throw(self, throw: int) -> int:
        """The frame where throw number *throw* is made; ValueError when there is none."""
        ...


@dataclass(frozen=True, slots=True)
class Extras:
    """The optional parts a driver has (``None``: not in this game)."""

    chat: ChatChannel | None = None
    link: MatchLink | None = None
    resigning: Resigning | None = None
    invites: RoomInvites | None = None  # a networked match's room: its invites (key i)
    rematch: RematchOffer | None = None
    replay: ReplayControl | None = None
    score: RunningScore | None = None  # the session's before this game (None: its first)


Listener = Callable[[GameNews], None]


@runtime_checkable
class GameDriver(Protocol):
    """See the module docstring."""

    @property
    def setup(self) -> GameSetup:
        """The game and its options, the names, and which seats the computer plays here."""
        ...

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def state(self) -> GameState:
        """The engine state after the last turn :meth:`next_turn` handed out."""
        ...

    @property
    def awaiting(self) -> ScreenAwaiting: ...

    @property
    def ended(self) -> MatchEnded | None:
        """How the match ended, once a turn that ended it was handed out."""
        ...

    @property
    def finished(self) -> bool:
        """Nothing more will happen (a replay is never finished: it is closed)."""
        ...

    @property
    def log_path(self) -> Path | None: ...

    @property
    def home_seat(self) -> int | None:
        """The seat this terminal sits at when it sits at one alone (a networked player),
        else ``None`` (hot-seat, a spectator, a replay)."""
        ...

    @property
    def animated(self) -> bool:
        """Turns are played back as they happen (a replay's steps are shown at once)."""
        ...

    @property
    def pending_turns(self) -> int:
        """Turns already waiting behind the one being shown (a screen catching up)."""
        ...

    @property
    def extras(self) -> Extras: ...

    def seat_role(self, seat: int) -> SeatRole: ...

    def throw(self) -> None:
        """Start the awaited throw; NotYourTurnError if it is not this terminal's to make."""
        ...

    def play(self, play: Play) -> None:
        """Start the awaited Jacquet play (one of the engine's legal plays)."""
        ...

    async def next_turn(self) -> Turn: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call *listener* with each piece of news; returns what unsubscribes it."""
        ...

    def close(self) -> None:
        """Close the log; the game's screen does it when it is removed."""
        ...
