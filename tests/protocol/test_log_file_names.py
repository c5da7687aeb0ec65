"""Default log file names: the players' names, readable, accents and all."""

from __future__ import annotations

from protocol.logfile import _slug


def test_a_log_file_name_keeps_accented_names_readable() -> None:
    assert [_slug(name) for name in ("Élise", "Inès", "Léa", "Chloé")] == [
        "elise",
        "ines",
        "lea",
        "chloe",
    ]
    assert _slug("李") == "player"  # nothing left of it: a placeholder, never empty
