"""Networked play: invites, the relay link, the networked match, chat (docs/networked-play.md).

Nothing here imports Textual: a networked game is played on the game screens like any other
(:class:`client.net.game.NetworkGame` is its driver); the room is :mod:`client.screens.room`.
"""
