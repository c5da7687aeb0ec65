"""Networked play: invites, the relay link, the networked match, chat (docs/networked-play.md).

Nothing here imports Textual; the screens that show a networked game live in
:mod:`client.net.screens` and :mod:`client.screens.room`.
"""
