"""A log may hold as many signed chat lines as their senders cared to sign, each a frame of
the replay: the story list beside the board holds STORY_WINDOW of them around the one on the
board, each cut to STORY_CHARS, so what the UI word-wraps (at mount, on each resize) does not
grow with the log. The real app, driven by Pilot."""

from __future__ import annotations

from pathlib import Path

from client.app import ReplayApp
from client.game.replay import load_replay
from client.widgets.replay_bar import STORY_CHARS, STORY_WINDOW, StoryList
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from protocol.logfile import encode_log
from protocol.messages import Chat, seal
from tests.client.conftest import FIXED_TIME_MS
from tests.client.test_replay import replay_screen, replayed

LINES = 3 * STORY_WINDOW


def chatty_log(tmp_path: Path) -> Path:
    match = LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=FIXED_TIME_MS,
                              random_source=seeded_source("chatty"))  # fmt: skip
    match.throw(match.awaiting.seat, FIXED_TIME_MS + 1_000)
    records = list(match.sessions[0].records)
    for k in range(LINES):  # Ann's own lines, signed with her own key
        line = Chat(0, k, FIXED_TIME_MS + 2_000, f"{k} " + "x " * 240, b"")
        records.append(seal(line, match.identities[0], match.setup.match_id).encode())
    path = tmp_path / "chatty.tablier"
    path.write_bytes(encode_log(match.setup, records))
    return path


async def test_the_story_list_holds_a_window_of_short_lines_that_follows_the_board(
    tmp_path: Path,
) -> None:
    replay = load_replay(chatty_log(tmp_path))
    assert len(replay.frames) > LINES
    app = ReplayApp(replay)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = replay_screen(app)
        game, story = replayed(screen), screen.query_one("#story", StoryList)

        def shows_the_board_s_frame() -> None:
            assert story.option_count <= STORY_WINDOW
            highlighted = story.highlighted
            assert highlighted is not None and story.first + highlighted == game.index
            assert highlighted == story.option_count - 1  # nothing told past the board
            told = str(story.get_option_at_index(highlighted).prompt)
            assert len(told) <= STORY_CHARS
            assert told.rstrip("…") == replay.frames[game.index].story[: len(told.rstrip("…"))]

        shows_the_board_s_frame()
        await pilot.press("end")
        shows_the_board_s_frame()
        assert story.first > 0
        for _ in range(STORY_WINDOW):  # back across the window's edge
            await pilot.press("left")
        shows_the_board_s_frame()
        await pilot.resize_terminal(80, 30)
        await pilot.pause()
        shows_the_board_s_frame()
        story.highlighted, chosen = 3, story.first + 3
        story.action_select()  # a click on a line: the board goes to that frame
        await pilot.pause()
        assert game.index == chosen
        shows_the_board_s_frame()
        await pilot.press("home")
        shows_the_board_s_frame()
        assert story.first == 0
