"""The game interface: what a screen plays through, whether the game is local, networked or a
replay (see :mod:`client.game.driver`). No Textual here: the screens use it, it uses the
protocol and the engines."""
