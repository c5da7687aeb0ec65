"""What the relay says when it refuses: each code's websocket close and its sentence."""

from __future__ import annotations

from relay.envelope import MAX_NAME_CHARS, ErrorCode

CLOSE_UNSUPPORTED_DATA = 1003
CLOSE_POLICY_VIOLATION = 1008
CLOSE_SERVICE_RESTART = 1012  # the client reconnects with backoff and resumes
CLOSE_TRY_AGAIN_LATER = 1013

# Refusals: the websocket close that follows each (None: the connection stays open) and the
# sentence sent when the caller has nothing more specific to say.
REFUSALS: dict[ErrorCode, tuple[int | None, str]] = {
    ErrorCode.BAD_ENVELOPE: (CLOSE_POLICY_VIOLATION, "That frame is not a relay envelope."),
    ErrorCode.TEXT_FRAME: (
        CLOSE_UNSUPPORTED_DATA,
        "The relay reads binary msgpack envelopes, not text frames.",
    ),
    ErrorCode.UNSUPPORTED_VERSION: (CLOSE_POLICY_VIOLATION, "Unsupported envelope version."),
    ErrorCode.FRAME_TOO_LARGE: (1009, "That frame is larger than this relay accepts."),
    ErrorCode.RATE_LIMITED: (
        CLOSE_POLICY_VIOLATION,
        "You sent messages faster than this relay allows, so it closed the connection.",
    ),
    ErrorCode.TOO_SLOW: (None, "You stopped reading; the relay dropped the connection."),
    ErrorCode.HANDSHAKE_TIMEOUT: (
        CLOSE_POLICY_VIOLATION,
        "The connection neither created nor joined a room in time.",
    ),
    ErrorCode.TOO_MANY_CONNECTIONS: (
        CLOSE_TRY_AGAIN_LATER,
        "Too many connections from your address; close some and try again.",
    ),
    ErrorCode.TOO_MANY_ROOMS: (
        CLOSE_TRY_AGAIN_LATER,
        "This relay holds as many rooms as it may; try again later or use another relay.",
    ),
    ErrorCode.TOO_MANY_FAILURES: (
        CLOSE_POLICY_VIOLATION,
        "Too many failed joins from your address; wait a minute and check your invite.",
    ),
    ErrorCode.BAD_SEATS: (CLOSE_POLICY_VIOLATION, "A room needs between 1 and {max} seats."),
    ErrorCode.BAD_NAME: (
        CLOSE_POLICY_VIOLATION,
        f"A display name is 1 to {MAX_NAME_CHARS} visible characters.",
    ),
    ErrorCode.NAME_TAKEN: (
        CLOSE_POLICY_VIOLATION,
        "A member of this room already goes by that name; choose another.",
    ),
    ErrorCode.BAD_RESUME: (
        CLOSE_POLICY_VIOLATION,
        "You asked to resume from a sequence number this room has not reached.",
    ),
    ErrorCode.UNKNOWN_ROOM: (
        CLOSE_POLICY_VIOLATION,
        "There is no such room on this relay: it may have expired, or the invite is mistyped.",
    ),
    ErrorCode.BAD_TOKEN: (
        CLOSE_POLICY_VIOLATION,
        "That token does not open this room; check the invite.",
    ),
    ErrorCode.SEAT_EXPIRED: (
        CLOSE_POLICY_VIOLATION,
        "Your seat was given up after you were away too long; join again with the invite.",
    ),
    ErrorCode.ROOM_FULL: (CLOSE_POLICY_VIOLATION, "Every seat in this room is taken."),
    ErrorCode.SPECTATORS_FULL: (
        CLOSE_POLICY_VIOLATION,
        "This room has as many spectators as it allows.",
    ),
    ErrorCode.NOT_JOINED: (
        CLOSE_POLICY_VIOLATION,
        "Join a room before sending messages.",
    ),
    ErrorCode.ALREADY_JOINED: (
        CLOSE_POLICY_VIOLATION,
        "This connection is already in a room; open another connection for another room.",
    ),
    ErrorCode.SPECTATOR_CANNOT_SEND: (
        None,
        "Spectators can watch but not send; your message was not forwarded.",
    ),
    ErrorCode.REPLACED: (
        CLOSE_POLICY_VIOLATION,
        "Your seat was reclaimed by a newer connection with your token.",
    ),
    ErrorCode.UNAVAILABLE: (
        CLOSE_TRY_AGAIN_LATER,
        "The relay cannot reach the store that holds its rooms right now; try again in a moment.",
    ),
}
