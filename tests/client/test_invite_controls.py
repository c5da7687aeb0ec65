"""An invite is text someone else handed over: a control character in it (an escape sequence
that would set the terminal's title, clear it or write its clipboard when the relay's address
is shown) makes it no invite, said in a sentence; nothing of it reaches the terminal."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from client.net.invite import InviteError, parse_invite
from tests.client.test_cli_failures import ROOM, TOKEN, tablier

ESCAPES = "\x1b]0;PWNED-TITLE\x1b\\" + "\x1b[2J" + "\x1b]52;c;ZWNobyBwd25lZAo=\x07"


def test_join_refuses_an_invite_with_escape_sequences(tmp_path: Path) -> None:
    invite = f"tablier://127.0.0.1:9/{ESCAPES}/{ROOM}?player={TOKEN}"
    run = tablier("join", "--name", "Ada", invite, home=tmp_path)
    assert run.returncode == 2
    assert "the invite holds characters no invite has" in run.stderr
    assert "\x1b" not in run.stdout + run.stderr and "\x07" not in run.stdout + run.stderr


@given(st.text(max_size=12), st.text(max_size=12), st.sampled_from(["tablier", "tabliers"]))
def test_no_invite_parsed_holds_a_character_that_cannot_be_shown(
    host: str, path: str, scheme: str
) -> None:
    text = f"{scheme}://{host or 'h'}/{path}/{ROOM}?player={TOKEN}"
    try:
        invite = parse_invite(text)
    except InviteError:
        return
    assert all(field.isprintable() for field in (invite.relay_url, invite.room_id,
                                                 invite.token))  # fmt: skip
