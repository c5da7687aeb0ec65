"""Where a match stands, and the rules a game record must meet to move it on.

:class:`Progress` is everything the game records change: the engine state, the links of the
throw being made, each seat's next expected chain link, the *history* (a digest of every game
record so far, in order) and the time floor (the latest time among them). A session holds
one; because it is one object, a session can copy it and go back to the copy (its own
messages take effect at once, before the relay has placed them: if a message placed before
them ends the match, they never happened).

The history. ``digests[0] = SHA-256(b"tablier-history/2\\0" ‖ match id)`` and, for the k-th
game record (shares, plays, ``seen``s, the resignation or claim that ends the match; never
chat), ``digests[k + 1] = SHA-256(digests[k] ‖ record)``. Every signed game record carries
the digest of the records before it (a non-thrower's share: of the records up to and
including the thrower's share), so its signature commits its seat to the whole match as it
saw it.

>>> from protocol.local import LocalMatch
>>> from protocol.identity import seeded_source
>>> match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0,
...                           random_source=seeded_source("progress-doc"))
>>> _ = match.throw(0, now=1_000)
>>> progress = match.sessions[1].progress
>>> progress.position, progress.floor, progress.deadline()
(2, 1000, 301000)
>>> progress.digest == next_digest(progress.digest_at(1), match.sessions[1].records[1])
True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Final

from engine.awaiting import ChoosePlay, Finished, MissTurn, ThrowDice
from engine.canonical import state_hash
from engine.clause import N_, Clause, plural
from engine.errors import EngineError
from protocol.chain import link_follows
from protocol.clock import behind_by, duration
from protocol.dice import derive_dice
from protocol.errors import (
    BadShare,
    BadTime,
    Desync,
    IllegalPlay,
    MalformedMessage,
    OutOfPlace,
    RemoteProtocolError,
)
from protocol.events import DiceRolled, Event, PlayMade, ShareRevealed
from protocol.games import EngineState, Transition
from protocol.messages import Claim, Play, Resign, Seen, Share
from protocol.setup import MatchSetup

HISTORY_DOMAIN: Final = b"tablier-history/2\0"
_say = Clause.of


def first_digest(match_id: bytes) -> bytes:
    """The history of a match before its first record."""
    return hashlib.sha256(HISTORY_DOMAIN + match_id).digest()


def next_digest(digest: bytes, record: bytes) -> bytes:
    """The history *digest* followed by the game record *record* (its wire bytes)."""
    return hashlib.sha256(digest + record).digest()


class Refusal(Exception):
    """A game record that cannot stand where it is, without proving its seat cheated: the
    session drops it (``error``, naming the seat, or nobody when the record is only out of
    place: :class:`~protocol.errors.OutOfPlace`) and the match goes on."""

    def __init__(self, error: RemoteProtocolError) -> None:
        super().__init__(str(error.reason))
        self.error = error


@dataclass(slots=True)
class Progress:
    """One match's progress: see the module's docstring. Methods named ``try_*`` accept a
    record (returning its events), return None when it may be acceptable later, raise a
    :class:`Refusal` when it is out of place (it may follow records not held here), and a
    :class:`~protocol.errors.RemoteProtocolError` when its signer broke the rules (which
    is which: :mod:`protocol.errors`)."""

    setup: MatchSetup
    state: EngineState
    throw_index: int = 0
    turns: int = 0
    links: dict[int, bytes] = field(default_factory=dict)  # the current throw's, by seat
    expected: list[bytes] = field(default_factory=list)  # each seat's next link hashes to it
    # digests[k]: the history after k game records; floors[k]: the latest of their times.
    # Copies share both lists (append-only): each sees its first ``length`` entries, and one
    # that writes cuts off what was written after its copy was made.
    digests: list[bytes] = field(default_factory=list)
    floors: list[int] = field(default_factory=list)
    length: int = 1
    mark: int = 0  # position just after the current throw's first share (0: none yet)
    seen_at: int = -1  # position just after the last ``seen`` (-1: none)
    # A live member's clock when it saw the match set up (0: a log's reader). The host dates
    # the proposal when he opens the room, and a match begins when its last seat is taken,
    # maybe long after: the first turn's limit cannot have run out before its player saw it.
    began: int = 0
    # A member who was not there when the match was set up (a seat back from its log, a
    # spectator who came later): his clock when he came. He judges the others' records by
    # the start time, as a log's reader does (he cannot know when they saw the setup), and
    # his own claims wait the whole limit from here (see :meth:`claim_deadline`).
    arrived: int = 0
    hashed: tuple[EngineState, bytes] | None = None  # the last state hashed, and its hash

    @classmethod
    def start(cls, setup: MatchSetup) -> Progress:
        """A match before its first record (missed turns cannot come before one)."""
        state = setup.proposal.rules.new_state(setup.proposal.engine_options())
        return cls(
            setup,
            state,
            expected=list(setup.tips),
            digests=[first_digest(setup.match_id)],
            floors=[setup.proposal.start_time],
        )

    def copy(self) -> Progress:
        """A copy that later records do not change (the engine state is immutable); made for
        each of a seat's own records on their way, so it costs no more than the seats."""
        return replace(self, links=dict(self.links), expected=list(self.expected))

    # ----------------------------------------------------------------- reading

    @property
    def position(self) -> int:
        """How many game records the match holds."""
        return self.length - 1

    @property
    def digest(self) -> bytes:
        """The history of the match so far."""
        return self.digests[self.length - 1]

    @property
    def floor(self) -> int:
        """The latest time among the game records (the start time before the first)."""
        return self.floors[self.length - 1]

    def digest_at(self, position: int) -> bytes:
        """The history after the first *position* game records."""
        assert 0 <= position <= self.position
        return self.digests[position]

    def deadline(self) -> int:
        """Time (ms) after which the seats awaited now can be claimed abandoned.

        Before the first record it runs from the start time or, for a live member, from when
        he saw the match set up, whichever is later (:attr:`began`): a host who dates his
        proposal long ago, or whose room waited longer than the limit for its last player,
        cannot claim the first thrower abandoned the moment the match begins. Members whose
        clocks agree within the tolerance and who saw the setup within it of each other judge
        a claim alike; a log's reader, who saw nothing live, judges it by the start time.
        """
        floor = max(self.floor, self.began) if self.position == 0 else self.floor
        return floor + self.setup.proposal.time_limit_ms

    def claim_deadline(self) -> int:
        """Time (ms) after which this member may himself claim the seats awaited now.

        The :meth:`deadline`, and, before the first record, for one who came after the setup
        (:attr:`arrived`), the whole limit after he came: the others may have seen the setup
        long after its start time, and must never be offered a claim they would refuse.
        """
        deadline = self.deadline()
        if self.position == 0:
            deadline = max(deadline, self.arrived + self.setup.proposal.time_limit_ms)
        return deadline

    def awaited_seats(self) -> tuple[int, ...]:
        """The seats whose record the game waits for, in the order they are accepted."""
        awaiting = self.state.awaiting
        if isinstance(awaiting, ChoosePlay):
            return (awaiting.seat,)
        if isinstance(awaiting, ThrowDice):
            if not self.links:  # nobody may reveal before the thrower
                return (awaiting.seat,)
            return self.share_order(awaiting.seat)[len(self.links) :]
        return ()

    def human_turn(self) -> int | None:
        """The seat whose person the game waits for (a throw to take or a play to make)."""
        awaiting = self.state.awaiting
        if isinstance(awaiting, ChoosePlay) or (isinstance(awaiting, ThrowDice) and not self.links):
            return int(awaiting.seat)
        return None

    def share_order(self, thrower: int) -> tuple[int, ...]:
        """Thrower first, then the other seats in seat order: the order shares are logged."""
        return _share_orders(self.setup.seats)[thrower]

    def share_history(self) -> bytes:
        """The history a share for the current throw carries: the thrower's, every record
        before it; the others', the records up to and including the thrower's share (they
        reveal at once, each unaware of the others')."""
        return self.digests[self.mark] if self.links else self.digest

    def state_digest(self, state: EngineState) -> bytes:
        """``state_hash(state)``, remembered for the last state hashed."""
        if self.hashed is None or self.hashed[0] is not state:
            self.hashed = (state, state_hash(state))
        return self.hashed[1]

    # ----------------------------------------------------------------- the game records

    def try_share(self, share: Share, raw: bytes) -> list[Event] | None:
        awaiting = self.state.awaiting
        if share.n < self.throw_index:
            raise BadShare(_say(N_("a share for throw {throw}, which is already over"),
                               throw=share.n), seat=share.seat)  # fmt: skip
        name = self.setup.names[share.seat]
        if share.n > self.throw_index + 1:
            raise _ahead(_say(N_("{name}'s dice share for throw {throw}"), name=name,
                              throw=share.n), self.throw_index)  # fmt: skip
        if share.n != self.throw_index or not isinstance(awaiting, ThrowDice):
            return None
        order = self.share_order(awaiting.seat)
        if order[len(self.links)] != share.seat:
            return None
        # Its throw is reached here: we hold every game record its link and the game state
        # depend on (its signer's earlier shares, every throw and play before), so these
        # two prove a fault wherever its history says it stands.
        if not link_follows(share.link, self.expected[share.seat]):
            raise BadShare(_say(N_("{name}'s dice share for throw {throw} does not follow from "
                                  "their committed chain (a forged or replayed share)"),
                               name=name, throw=share.n), seat=share.seat)  # fmt: skip
        first = not self.links
        if first and share.state != self.state_digest(self.state):
            raise Desync(_say(N_("{name} throws from a game state that differs from ours"),
                             name=name), seat=share.seat)  # fmt: skip
        if not first and share.state is not None:
            raise MalformedMessage(_say(N_("only the thrower's share states the game")),
                                   seat=share.seat)  # fmt: skip
        self._check_place(share.seat, share.history, self.share_history())
        self._check_time(share.seat, share.time, self.floors[self.mark] if not first else None)
        self.expected[share.seat] = share.renew if share.renew is not None else share.link
        self.links[share.seat] = share.link
        self._append(raw, share.time)
        if first:
            self.mark = self.position
        events: list[Event] = [ShareRevealed(share.n, share.seat)]
        if len(self.links) == self.setup.seats:
            events.extend(self._roll(awaiting))
        return events

    def try_play(
        self, play: Play, raw: bytes, prepared: Transition | None = None
    ) -> list[Event] | None:
        """*prepared*: this seat's own engine transition for this very play, if it has one."""
        game, awaiting = self.setup.proposal.rules, self.state.awaiting
        name = self.setup.names[play.seat]
        if not game.has_plays:
            raise IllegalPlay(_say(N_("{name} sent a play, but {game} has none"), name=name,
                                  game=_say(game.title)), seat=play.seat)  # fmt: skip
        if play.n == self.throw_index and isinstance(awaiting, ThrowDice):
            return None  # its dice are not all revealed here yet
        if play.n >= self.throw_index:  # after a throw not rolled here: we may lack records
            raise _ahead(_say(N_("{name}'s play for throw {throw}"), name=name, throw=play.n),
                         self.throw_index)  # fmt: skip
        # A throw rolled here: we hold all that says whose play it awaits (or awaited).
        if play.n != self.throw_index - 1 or not isinstance(awaiting, ChoosePlay):
            raise IllegalPlay(_say(N_("{name} sent a play for throw {throw}, which is not "
                                     "awaited"), name=name, throw=play.n),
                              seat=play.seat)  # fmt: skip
        # Its throw is rolled here: whose play it awaits, which plays are legal and the state
        # each reaches depend on game records we hold, whatever ``seen`` we may lack.
        if awaiting.seat != play.seat:
            raise IllegalPlay(_say(N_("{name} played out of turn"), name=name), seat=play.seat)
        try:
            transition = prepared if prepared is not None else game.play(self.state, play.notation)
        except EngineError as error:
            raise IllegalPlay(_say(N_("{name} played {play}: {error}"), name=name,
                                  play=repr(play.notation), error=error.reason),
                              seat=play.seat) from None  # fmt: skip
        if self.state_digest(transition.state) != play.state_hash:
            raise Desync(_say(N_("after {name}'s play {play} their game state differs from ours"),
                             name=name, play=repr(play.notation)), seat=play.seat)  # fmt: skip
        self._check_place(play.seat, play.history, self.digest)
        self._check_time(play.seat, play.time, None)
        self._append(raw, play.time)
        return [PlayMade(play.seat, play.notation), *self._apply(transition)]

    def check_seen(self, seen: Seen) -> bool:
        """Whether *seen* stands here (False: it came after the position it names); raises
        :class:`Refusal` when it cannot stand at all."""
        if not self._placed(seen):
            return False
        self._check_place(seen.seat, seen.history, self.digest)
        name = self.setup.names[seen.seat]
        if self.human_turn() != seen.seat:
            raise _refuse(_say(N_("{name} says it is their turn, and it is not"), name=name),
                          seen.seat)  # fmt: skip
        if self.seen_at == self.position:
            raise _refuse(_say(N_("{name} said it was their turn twice"), name=name), seen.seat)
        if seen.time > self.deadline():
            raise _refuse(_say(N_("{name} says they saw their turn after their time was up"),
                              name=name), seen.seat)  # fmt: skip
        if behind_by(seen.time, floor=self.floor) is not None:
            raise _refuse(_say(N_("{name} dates seeing their turn before it came"), name=name),
                          seen.seat)  # fmt: skip
        return True

    def take_seen(self, raw: bytes, time: int) -> None:
        self._append(raw, time)
        self.seen_at = self.position

    def check_resign(self, resign: Resign) -> None:
        """Raise :class:`Refusal` unless *resign* stands here (a resignation is never stale:
        it may come after records its seat had not seen, and counts there)."""
        name = self.setup.names[resign.seat]
        if resign.n > self.position:
            raise Refusal(OutOfPlace(_say(N_("{name} resigned after record {record}, not "
                                             "reached here"), name=name,
                                          record=resign.n)))  # fmt: skip
        self._check_place(resign.seat, resign.history, self.digests[resign.n])
        if self.position - resign.n > 2 * self.setup.seats:
            raise _refuse(_say(N_("{name} resigned from record {record}, long gone"), name=name,
                              record=resign.n), resign.seat)  # fmt: skip
        if behind_by(resign.time, floor=self.floors[resign.n]) is not None:
            raise _refuse(_say(N_("{name}'s resignation is dated before what it follows"),
                              name=name), resign.seat)  # fmt: skip

    def check_claim(self, claim: Claim) -> bool:
        """Whether *claim* stands here (False: the match moved on since it was made — the
        accused answered first); raises :class:`Refusal` when it cannot stand at all."""
        seats, names = self.setup.seats, self.setup.names
        claimant = names[claim.seat]
        if not self._placed(claim):
            return False
        self._check_place(claim.seat, claim.history, self.digest)
        if claim.accused >= seats or claim.accused == claim.seat:
            raise _refuse(_say(N_("{claimant} claimed seat {seat} abandoned"), claimant=claimant,
                              seat=claim.accused), claim.seat)  # fmt: skip
        if claim.accused not in self.awaited_seats():
            raise _refuse(_say(N_("{claimant} claimed {accused} abandoned, but the match is not "
                                 "waiting for them"), claimant=claimant,
                              accused=names[claim.accused]), claim.seat)  # fmt: skip
        if claim.time < self.deadline():
            raise _refuse(_say(N_("{claimant} claimed {accused} abandoned {left} before the "
                                 "limit"), claimant=claimant, accused=names[claim.accused],
                              left=duration(self.deadline() - claim.time)),
                          claim.seat)  # fmt: skip
        return True

    def take_ending(self, raw: bytes, time: int) -> None:
        """The resignation or claim that ends the match closes the history."""
        self._append(raw, time)

    # ----------------------------------------------------------------- internals

    def _placed(self, message: Claim | Seen) -> bool:
        """Whether *message* names this position (False: an earlier one); Refusal if later."""
        if message.n > self.position:
            name = self.setup.names[message.seat]
            raise Refusal(OutOfPlace(_say(N_("{name} wrote after record {record}, not reached "
                                             "here"), name=name,
                                          record=message.n)))  # fmt: skip
        return message.n == self.position

    def _append(self, raw: bytes, time: int) -> None:
        length = self.length
        digest = next_digest(self.digests[length - 1], raw)
        floor = max(self.floors[length - 1], time)
        if len(self.digests) > length:  # a copy went back: what the others wrote goes
            del self.digests[length:], self.floors[length:]
        self.digests.append(digest)
        self.floors.append(floor)
        self.length = length + 1

    def _check_time(self, seat: int, time: int, floor: int | None) -> None:
        """A record dated before what it follows (beyond the tolerance) is its signer's lie:
        an honest one is made after he received it, and his clock agrees with its sender's."""
        floor = self.floor if floor is None else floor
        behind = behind_by(time, floor=floor)
        if behind is not None:
            raise BadTime(_say(N_("{name} dated a record {behind} before the one it follows"),
                              name=self.setup.names[seat], behind=duration(behind)),
                          seat=seat)  # fmt: skip

    def _check_place(self, seat: int, history: bytes, expected: bytes) -> None:
        """A record signed over another history than ours where it would stand is not at
        its place here: we may lack records before it (or its signer, or the relay, made
        another match of it: nothing here proves which). Refused, blaming nobody: it is
        checked against the rules only where it stands (:mod:`protocol.errors`)."""
        if history != expected:
            held = plural("{name}'s record does not follow the {records} record held here",
                          "{name}'s record does not follow the {records} records held here")
            raise Refusal(OutOfPlace(_say(held, self.position, name=self.setup.names[seat],
                                          records=self.position)))  # fmt: skip

    def _roll(self, awaiting: ThrowDice) -> list[Event]:
        links = [self.links[seat] for seat in range(self.setup.seats)]
        dice = derive_dice(self.setup.match_id, self.throw_index, links, awaiting.count)
        rolled = DiceRolled(self.throw_index, awaiting.seat, dice)
        self.throw_index += 1
        self.links = {}
        self.turns += 1
        return [rolled, *self._apply(self.setup.proposal.rules.throw(self.state, dice))]

    def _apply(self, transition: Transition) -> list[Event]:
        self.state = transition.state
        events: list[Event] = list(transition.events)
        game = self.setup.proposal.rules
        while isinstance(self.state.awaiting, MissTurn):
            self.turns += 1
            missed = game.miss_turn(self.state)
            self.state = missed.state
            events.extend(missed.events)
        return events

    @property
    def finished(self) -> bool:
        return isinstance(self.state.awaiting, Finished)


@cache
def _share_orders(seats: int) -> tuple[tuple[int, ...], ...]:
    return tuple(
        (thrower, *(seat for seat in range(seats) if seat != thrower)) for thrower in range(seats)
    )


def _ahead(what: Clause, current: int) -> Refusal:
    """*what* is numbered after a throw not rolled here (*current*: the throws rolled): we
    may lack the records before it, so it proves nothing against its signer."""
    return Refusal(OutOfPlace(_say(N_("{what}, ahead of the {current} throws held here"),
                                   what=what, current=current)))  # fmt: skip


def _refuse(text: Clause, seat: int) -> Refusal:
    return Refusal(IllegalPlay(text, seat=seat, fatal=False))
