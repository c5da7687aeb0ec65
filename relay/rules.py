"""The rules of a room, on its state alone: who may enter and where he sits, who leaves, whose
seat expires.

Both ways of holding rooms go through these functions: :class:`relay.core.RelayCore` on a
room in its own memory, and a backplane on a room's state loaded from Redis (stored back only
if nobody changed it in between, else loaded and decided again). So the rules are the same
whichever holds the room, and they live here once. Each function changes the state it is
given and says what happened; numbering the events that follow is the holder's business.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass

from relay.envelope import ErrorCode, Member, PresenceEvent
from relay.names import name_key, name_problem
from relay.rooms import Holder, RoomState, Seat, new_token, token_hash


@dataclass(frozen=True, slots=True)
class Admitted:
    """Someone was let in. ``seat`` is None for a spectator; ``event`` is the presence event
    his arrival makes (none for a spectator); ``replaced`` is the seat's previous connection,
    still open, that must now be closed; ``roster`` is the room just before the arrival."""

    seat: Seat | None
    seat_token: str | None
    event: PresenceEvent | None
    replaced: Holder | None
    roster: tuple[Member, ...]


def display_name(name: str) -> str | None:
    """The name a member is shown by (its spaces around dropped), or None if it cannot be
    a player's (:func:`relay.names.name_problem`: empty, too long, invisible, unprintable,
    stacked marks, too wide)."""
    name = name.strip()
    return name if name_problem(name) is None else None


def name_taken(state: RoomState, name: str) -> bool:
    """Whether a member seated in the room (here or away) goes by a name that reads as
    *name* (:func:`relay.names.name_key`): a newcomer may not sit as him."""
    key = name_key(name)
    return any(name_key(seat.name) == key for seat in state.seats.values())


def knows(state: RoomState, token: str) -> bool:
    """Whether ``token`` is one of the room's: its player or spectator token, a seat's, or an
    expired seat's (remembered to say so). Asked before anything about the room's state is
    answered (a resume's number, a full room): who holds none of its tokens learns only that
    his token is wrong, never whether or how far the match moved on."""
    digest = token_hash(token)
    return (
        hmac.compare_digest(digest, state.player_hash)
        or hmac.compare_digest(digest, state.spectator_hash)
        or digest in state.seat_by_token
        or digest in state.expired_tokens
    )


def admit(
    state: RoomState, token: str, name: str, holder: Holder, *, max_spectators: int
) -> Admitted | ErrorCode:
    """Let ``holder`` in with ``token``: the player token takes the lowest free seat (and a
    new seat token), the spectator token watches, a seat token takes its seat back."""
    roster = state.roster()
    digest = token_hash(token)
    if hmac.compare_digest(digest, state.player_hash):
        if state.free_seat() is None:
            return ErrorCode.ROOM_FULL
        if name_taken(state, name):
            return ErrorCode.NAME_TAKEN
        seat_token = new_token()
        seat = state.take_seat(name, token_hash(seat_token), holder)
        return Admitted(seat, seat_token, PresenceEvent.JOINED, None, roster)
    if hmac.compare_digest(digest, state.spectator_hash):
        if len(state.spectators) >= max_spectators:
            return ErrorCode.SPECTATORS_FULL
        state.spectators.add(holder)
        return Admitted(None, None, None, None, roster)
    reclaimed = state.seat_by_token.get(digest)
    if reclaimed is not None:
        replaced, reclaimed.holder = reclaimed.holder, holder
        return Admitted(reclaimed, token, PresenceEvent.RECONNECTED, replaced, roster)
    if digest in state.expired_tokens:
        return ErrorCode.SEAT_EXPIRED
    return ErrorCode.BAD_TOKEN


def leave(state: RoomState, holder: Holder, now: float) -> Seat | None:
    """``holder``'s connection is gone: a spectator simply leaves; a player's seat is held
    for his token from ``now`` (the seat is returned: its departure is an event). A holder
    that no longer holds anything (replaced meanwhile) changes nothing."""
    state.spectators.discard(holder)
    for seat in state.seats.values():
        if seat.holder == holder:
            seat.holder, seat.left_at = None, now
            return seat
    return None


def withdraw(
    state: RoomState, holder: Holder, now: float, *, new_seat: bool
) -> list[tuple[Seat, PresenceEvent]]:
    """Undo a join that was stored but never answered (its relay lost Redis meanwhile):
    ``holder`` leaves, and a seat he took anew is freed at once, as nobody was ever told its
    token; a seat he took back waits for its token, as after any departure."""
    seat = leave(state, holder, now)
    if seat is None:
        return []
    if not new_seat:
        return [(seat, PresenceEvent.LEFT)]
    state.expire_seat(seat, now)
    return [(seat, PresenceEvent.LEFT), (seat, PresenceEvent.SEAT_EXPIRED)]


def expire_seats(state: RoomState, now: float, grace: float) -> list[Seat]:
    """Free the seats left for longer than ``grace``; their tokens are refused from now on."""
    expired = [s for s in state.disconnected_seats() if s.left_at + grace <= now]
    for seat in expired:
        state.expire_seat(seat, now)
    state.forget_expired(now)
    return sorted(expired, key=lambda s: s.index)


def reap(state: RoomState, alive: Callable[[Holder], bool], now: float) -> list[Seat]:
    """Let go of whoever ``alive`` says is gone without a word (his relay process died):
    spectators leave, seats are held from ``now`` as if their players had left."""
    state.spectators = {h for h in state.spectators if alive(h)}
    gone = [s for s in state.seats.values() if s.holder is not None and not alive(s.holder)]
    for seat in gone:
        seat.holder, seat.left_at = None, now
    return sorted(gone, key=lambda s: s.index)


def can_replay(
    resume_from: int, epoch: int | None, room_epoch: int, base: int, next_seq: int
) -> bool | ErrorCode:
    """Whether a resume from ``resume_from``, numbered in ``epoch`` (None: the room's own),
    can be replayed (if the backlog still reaches back) or must resync (False).

    A room numbered anew from ``base`` (its stream may have lost events after it) still has
    every event before ``base``: a resume from there or earlier in the old epoch is served.
    A number the room has not reached is refused; in an old epoch it only means that the
    events the client saw were lost.

    >>> can_replay(5, None, 7, 0, 9), can_replay(12, 7, 7, 0, 9)
    (True, <ErrorCode.BAD_RESUME: 'bad_resume'>)
    >>> can_replay(5, 3, 7, 6, 9), can_replay(8, 3, 7, 6, 9)
    (True, False)
    """
    if epoch is None or epoch == room_epoch:
        return ErrorCode.BAD_RESUME if resume_from > next_seq else True
    return resume_from <= base
