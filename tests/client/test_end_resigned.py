"""After a resignation every part of the screen says one score: what the resignation
scored — the match, for the side that did not resign (issue 29). The end screen said
"Score when it ended: 0-0" while the running score gave the match to the winner."""

from __future__ import annotations

from pathlib import Path

from client.app import TablierApp
from client.screens.end import EndScreen
from client.screens.jacquet import JacquetScreen
from client.setup import JacquetSetup
from client.widgets.jacquet_status import JacquetStatus
from tests.client.conftest import screen_text, seeded_settings, until


async def test_a_resignation_scores_the_match_on_the_end_screen_the_panel_and_after(
    tmp_path: Path,
) -> None:
    settings = seeded_settings(tmp_path, computer_pause=30.0)  # Noir, the computer, waits
    app = TablierApp(JacquetSetup(computer_seats=frozenset({1}), match_to=3), settings)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, JacquetScreen)
        await pilot.press("ctrl+r", "y")  # Blanc resigns the match
        await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
        text = screen_text(app)
        assert "Blanc resigned: Noir wins the match." in text
        said = "The resignation gives Noir the match: final score Blanc 0, Noir 3."
        assert said in " ".join(text.split()), text
        assert "0-0" not in str(screen.query_one(JacquetStatus).render())
        assert "0-3" in str(screen.query_one(JacquetStatus).render())  # the panel agrees
        await pilot.press("a")  # play again: the session's score agrees too
        await until(pilot, lambda: isinstance(app.screen, JacquetScreen)
                    and app.screen is not screen, "the next match")  # fmt: skip
        assert "Blanc 0, Noir 1" in app.screen.sub_title
