"""Match setup: the host's proposal, each player's signed join, and the agreed match id.

1. The host proposes the game, its options, the number of seats, the time limit and the start
   time (:class:`Proposal`, with a random nonce so no two matches share an id).
2. Each player answers with a :class:`Join`: name, Ed25519 public key and the tip of a fresh
   dice chain, signed with that key over the proposal's digest — the binding of a seat to
   its key and its dice commitment.
3. The host orders the joins into seats (:class:`MatchSetup`); every client checks every
   join's signature and derives the same ``match_id = SHA-256(domain ‖ msgpack(setup))``.

>>> from protocol.identity import Identity, seeded_source
>>> from protocol.chain import HashChain
>>> source = seeded_source("setup-doc")
>>> proposal = Proposal.create("jacquet", {"match_to": 3}, seats=2, start_time=0,
...                            random_source=source)
>>> players = [Identity.generate(source) for _ in range(2)]
>>> joins = [Join.create(proposal, key, name, HashChain.generate(source).tip)
...          for key, name in zip(players, ["Alice", "Bob"])]
>>> setup = MatchSetup.create(proposal, joins)
>>> MatchSetup.decode(setup.encode()).match_id == setup.match_id, setup.names
(True, ('Alice', 'Bob'))
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from engine.clause import N_, Clause
from engine.errors import EngineError
from protocol.bounds import MAX_NAME_CHARS, MAX_SEATS, MAX_TIME, MIN_SEATS
from protocol.clock import MAX_TIME_LIMIT_MS, MIN_TIME_LIMIT_MS, ahead_by, duration
from protocol.codec import pack, unpack_untrusted
from protocol.dice import DICE_DERIVATION
from protocol.errors import BadSignature, BadTime, LocalProtocolError, MalformedMessage
from protocol.games import EngineOptions, Game, OptionValue, game_named
from protocol.identity import Identity, RandomSource, _take, small_order, verify_signature
from protocol.messages import binary, check_version, integer, text
from protocol.names import first_clash, name_problem

SETUP_VERSION: Final = 1
"""The setup messages' own version: their form did not change when the game messages' did
(version 2), so a match set up the same way has the same id, and the same dice."""
PROPOSAL: Final = 10
JOIN: Final = 11
SETUP: Final = 12
DEFAULT_TIME_LIMIT_MS: Final = 5 * 60 * 1000
NONCE_BYTES: Final = 16
_PROPOSAL_DOMAIN: Final = b"tablier-proposal/1\0"
_JOIN_DOMAIN: Final = b"tablier-join/1\0"
_MATCH_DOMAIN: Final = b"tablier-match/1\0"


@dataclass(frozen=True)
class Proposal:
    """What the host offers: game, options (sorted name/value pairs), seats, clock rules."""

    game: str
    options: tuple[tuple[str, OptionValue], ...]
    seats: int
    time_limit_ms: int
    start_time: int
    nonce: bytes
    dice: str = DICE_DERIVATION

    @classmethod
    def create(
        cls,
        game: str,
        options: Mapping[str, OptionValue],
        *,
        seats: int,
        start_time: int,
        random_source: RandomSource,
        time_limit_ms: int = DEFAULT_TIME_LIMIT_MS,
    ) -> Proposal:
        """A proposal, checked: LocalProtocolError says what is wrong with the options."""
        try:
            game_named(game).options(seats, options)
        except EngineError as error:
            raise LocalProtocolError(error.reason) from None
        for name, value in ((N_("the start time"), start_time),
                            (N_("the time limit"), time_limit_ms)):  # fmt: skip
            if type(value) is not int or not 0 <= value <= MAX_TIME:
                raise LocalProtocolError(Clause.of(N_("{name} must be whole milliseconds, not "
                                                      "{value}"), name=Clause.of(name),
                                                   value=repr(value)))  # fmt: skip
        if not MIN_TIME_LIMIT_MS <= time_limit_ms <= MAX_TIME_LIMIT_MS:
            raise LocalProtocolError(Clause.of(
                N_("the time limit must be from {least} s to {most} h, not {limit} ms"),
                least=MIN_TIME_LIMIT_MS // 1000, most=MAX_TIME_LIMIT_MS // 3_600_000,
                limit=time_limit_ms,
            ))  # fmt: skip
        pairs = tuple(sorted(options.items()))
        return cls(game, pairs, seats, time_limit_ms, start_time, _take(random_source, NONCE_BYTES))

    @property
    def rules(self) -> Game:
        return game_named(self.game)

    def engine_options(self) -> EngineOptions:
        """The engine's options object (GooseOptions / JacquetOptions)."""
        return self.rules.options(self.seats, dict(self.options))

    def fields(self) -> list[Any]:
        return [
            SETUP_VERSION,
            PROPOSAL,
            self.game,
            dict(self.options),
            self.seats,
            self.time_limit_ms,
            self.start_time,
            self.nonce,
            self.dice,
        ]

    def encode(self) -> bytes:
        return pack(self.fields())

    @cached_property
    def digest(self) -> bytes:
        """What each join signs: SHA-256 of the proposal's canonical bytes."""
        return hashlib.sha256(_PROPOSAL_DOMAIN + self.encode()).digest()

    @classmethod
    def decode(cls, data: bytes) -> Proposal:
        return cls.from_fields(unpack_untrusted(data))

    @classmethod
    def from_fields(cls, fields: Any) -> Proposal:
        _expect(fields, PROPOSAL, 9, N_("a Tablier proposal"))
        game = fields[2]
        if not isinstance(game, str):
            raise MalformedMessage(Clause.of(N_("the proposal's game must be a name")))
        options = fields[3]
        if not isinstance(options, dict) or list(options) != sorted(options):
            raise MalformedMessage(Clause.of(N_("the proposal's options must be a map with "
                                                "sorted names")))  # fmt: skip
        for value in options.values():
            if type(value) not in (int, str):
                raise MalformedMessage(Clause.of(N_("option values are whole numbers or words")))
        proposal = cls(
            game,
            tuple(options.items()),
            integer(fields[4], N_("the seats"), MIN_SEATS, MAX_SEATS),
            integer(fields[5], N_("the time limit"), MIN_TIME_LIMIT_MS, MAX_TIME_LIMIT_MS),
            integer(fields[6], N_("the start time"), 0, MAX_TIME),
            binary(fields[7], N_("the nonce"), NONCE_BYTES),
            text(fields[8], N_("the dice derivation"), 64),
        )
        if proposal.dice != DICE_DERIVATION:
            raise MalformedMessage(Clause.of(N_("unknown dice derivation {dice}, expected "
                                                "{expected}"), dice=repr(proposal.dice),
                                             expected=repr(DICE_DERIVATION)))  # fmt: skip
        try:
            proposal.engine_options()
        except EngineError as error:
            raise MalformedMessage(Clause.of(N_("the proposal is not a valid match: {error}"),
                                             error=error.reason)) from None  # fmt: skip
        return proposal


@dataclass(frozen=True, slots=True)
class Join:
    """A player's answer to a proposal, signed with the key it binds to the seat."""

    proposal_digest: bytes
    name: str
    public_key: bytes
    tip: bytes
    signature: bytes

    @classmethod
    def create(cls, proposal: Proposal, identity: Identity, name: str, tip: bytes) -> Join:
        """Sign a join to *proposal* as *name*, committing to the chain whose tip is *tip*."""
        name = name.strip()
        problem = name_problem(name)
        if problem is not None:
            raise LocalProtocolError(Clause.of(N_("{name} cannot be a player's name: "
                                                  "{problem}"), name=repr(name),
                                               problem=problem))  # fmt: skip
        unsigned = cls(proposal.digest, name, identity.public_key, tip, b"")
        return cls(
            proposal.digest, name, identity.public_key, tip, identity.sign(unsigned.signed_data())
        )

    def fields(self) -> list[Any]:
        return [
            SETUP_VERSION,
            JOIN,
            self.proposal_digest,
            self.name,
            self.public_key,
            self.tip,
            self.signature,
        ]

    def signed_data(self) -> bytes:
        return _JOIN_DOMAIN + pack(self.fields()[:-1])

    def encode(self) -> bytes:
        return pack(self.fields())

    def check(self, proposal: Proposal, seat: int | None = None) -> None:
        """Raise unless this join answers *proposal* and is signed by its own key."""
        if self.proposal_digest != proposal.digest:
            raise MalformedMessage(Clause.of(N_("{name} joined a different proposal"),
                                             name=self.name), seat=seat)  # fmt: skip
        if not verify_signature(self.public_key, self.signature, self.signed_data()):
            raise BadSignature(Clause.of(N_("the join of {name} is not signed by its key"),
                                         name=self.name), seat=seat)  # fmt: skip

    @classmethod
    def decode(cls, data: bytes) -> Join:
        return cls.from_fields(unpack_untrusted(data))

    @classmethod
    def from_fields(cls, fields: Any, seat: int | None = None) -> Join:
        _expect(fields, JOIN, 7, N_("a Tablier join"))
        name = text(fields[3], N_("the name"), MAX_NAME_CHARS, seat=seat)
        problem = name_problem(name)
        if problem is not None:
            raise MalformedMessage(Clause.of(N_("{name} cannot be a player's name: {problem}"),
                                             name=repr(name), problem=problem),
                                   seat=seat)  # fmt: skip
        public_key = binary(fields[4], N_("the public key"), 32, seat=seat)
        if small_order(public_key):
            raise MalformedMessage(Clause.of(N_("the public key of {name} is a point of small "
                                                "order, which would take one signature for "
                                                "any message"), name=name),
                                   seat=seat)  # fmt: skip
        return cls(
            binary(fields[2], N_("the proposal digest"), 32, seat=seat),
            name,
            public_key,
            binary(fields[5], N_("the chain tip"), 32, seat=seat),
            binary(fields[6], N_("the signature"), 64, seat=seat),
        )


@dataclass(frozen=True)
class MatchSetup:
    """The agreed match: the proposal and one signed join per seat, in seat order."""

    proposal: Proposal
    joins: tuple[Join, ...]

    @classmethod
    def create(cls, proposal: Proposal, joins: Sequence[Join]) -> MatchSetup:
        """Check and seat *joins* in the order given (RemoteProtocolError names a bad one)."""
        setup = cls(proposal, tuple(joins))
        setup.check()
        return setup

    def check(self) -> None:
        if len(self.joins) != self.proposal.seats:
            raise LocalProtocolError(Clause.of(N_("the match has {seats} seats but not as many "
                                                  "joins ({joins})"),
                                               seats=self.proposal.seats,
                                               joins=len(self.joins)))  # fmt: skip
        for seat, join in enumerate(self.joins):
            join.check(self.proposal, seat)
        if len(set(self.public_keys)) != len(self.joins):
            raise MalformedMessage(Clause.of(N_("two seats share one key: every player needs "
                                                "their own")))  # fmt: skip
        clash = first_clash(self.names)
        if clash is not None:
            first, second = clash
            raise MalformedMessage(Clause.of(N_("two seats go by one name ({first} and "
                                                "{second}): every player needs their own"),
                                             first=repr(self.names[first]),
                                             second=repr(self.names[second])))  # fmt: skip

    @property
    def game(self) -> str:
        return self.proposal.game

    @property
    def seats(self) -> int:
        return self.proposal.seats

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(join.name for join in self.joins)

    @cached_property
    def public_keys(self) -> tuple[bytes, ...]:
        return tuple(join.public_key for join in self.joins)

    @cached_property
    def tips(self) -> tuple[bytes, ...]:
        return tuple(join.tip for join in self.joins)

    def fields(self) -> list[Any]:
        return [
            SETUP_VERSION,
            SETUP,
            self.proposal.fields(),
            [join.fields() for join in self.joins],
        ]

    def encode(self) -> bytes:
        return pack(self.fields())

    @cached_property
    def match_id(self) -> bytes:
        """SHA-256 of the whole setup: the same on every client, bound into every signature."""
        return hashlib.sha256(_MATCH_DOMAIN + self.encode()).digest()

    @classmethod
    def decode(cls, data: bytes) -> MatchSetup:
        """Decode and check a setup from untrusted bytes (every join's signature included)."""
        return cls.from_fields(unpack_untrusted(data))

    @classmethod
    def from_fields(cls, fields: Any) -> MatchSetup:
        _expect(fields, SETUP, 4, N_("a Tablier match setup"))
        proposal = Proposal.from_fields(fields[2])
        if not isinstance(fields[3], list):
            raise MalformedMessage(Clause.of(N_("the match setup's seats must be a list")))
        joins = tuple(Join.from_fields(item, seat) for seat, item in enumerate(fields[3]))
        setup = cls(proposal, joins)
        try:
            setup.check()
        except LocalProtocolError as error:
            raise MalformedMessage(error.reason) from None
        return setup


def check_start(proposal: Proposal, now: int) -> None:
    """Refuse *proposal* (:class:`~protocol.errors.BadTime`, not fatal: nothing was played)
    if it starts further ahead of *now*, the receiver's clock, than clocks may disagree.

    The first turn's deadline runs from the start time: a start time ten years ahead would
    let the first player hold the match for ten years, and nobody could claim. With it at
    most :data:`~protocol.clock.CLOCK_TOLERANCE_MS` ahead, every deadline is within the
    time limit plus that tolerance of the receiver's own clock (each later record's time is
    held to the same by :meth:`protocol.gate.Gate.on_time`). An older start time is no
    harm: a match may begin long after its host opened the room, and be resumed later still.

    >>> from protocol.identity import seeded_source
    >>> proposal = Proposal.create("goose", {}, seats=2, start_time=1_000_000,
    ...                            random_source=seeded_source("start-doc"))
    >>> check_start(proposal, now=996_000)
    >>> check_start(proposal, now=0)
    Traceback (most recent call last):
    ...
    protocol.errors.BadTime: the proposed match starts 16 min 40 s ahead of this computer's clock: \
one of the two clocks is wrong
    """
    ahead = ahead_by(proposal.start_time, now=now)
    if ahead is not None:
        raise BadTime(Clause.of(N_("the proposed match starts {ahead} ahead of this computer's "
                                   "clock: one of the two clocks is wrong"),
                                ahead=duration(ahead)), fatal=False)  # fmt: skip


def _expect(fields: Any, kind: int, length: int, what: str) -> None:
    """*what* names the thing expected, a pattern marked ``N_``."""
    if not isinstance(fields, list) or not fields:
        raise MalformedMessage(Clause.of(N_("not {what} (expected an array)"),
                                         what=Clause.of(what)))  # fmt: skip
    check_version(fields[0], what, SETUP_VERSION)
    if len(fields) != length or fields[1] != kind:
        raise MalformedMessage(Clause.of(N_("not {what}"), what=Clause.of(what)))


SetupMessage = Proposal | Join | MatchSetup
_SETUP_MESSAGE: Final = N_("a Tablier setup message")


def decode_setup_message(data: bytes) -> SetupMessage:
    """Decode whichever setup message *data* is (a proposal, a join, or the final setup).

    >>> from protocol.identity import seeded_source
    >>> proposal = Proposal.create("goose", {}, seats=3, start_time=0,
    ...                            random_source=seeded_source(0))
    >>> decode_setup_message(proposal.encode()) == proposal
    True
    """
    fields = unpack_untrusted(data)
    if not isinstance(fields, list) or len(fields) < 2:
        raise MalformedMessage(Clause.of(N_("not {what}"), what=Clause.of(_SETUP_MESSAGE)))
    if fields[1] not in (PROPOSAL, JOIN, SETUP) or type(fields[1]) is not int:
        raise MalformedMessage(Clause.of(N_("not a Tablier setup message (unknown kind)")))
    check_version(fields[0], _SETUP_MESSAGE, SETUP_VERSION)
    if fields[1] == PROPOSAL:
        return Proposal.from_fields(fields)
    if fields[1] == JOIN:
        return Join.from_fields(fields)
    return MatchSetup.from_fields(fields)
