# ruff: noqa: RUF001 -- the en dashes and multiplication signs are meant
"""Rules summaries shown by the help screen (Markdown); the full rules are docs/rules.md.

Marked for the catalogue, translated where they are shown (the help screen)."""

from __future__ import annotations

from client.i18n import N_

LOBBY = N_("""\
# Tablier

Two historical French dice games, played on this terminal (hot-seat or against the computer)
or with friends over the network.

- **Jeu de l'oie**: 2 to 15 players race round 63 squares; pure luck, a pot to win.
- **Jacquet**: the French cousin of backgammon for two, with no hitting and the *postillon*.

Choose a game's tab, set the players and options, then press **Play** (F5), or **Host over
the network** (F8) to play them with friends on other machines: Tablier starts a relay here
and shows the invites to send. **Join** (F6) takes an invite a friend sent you; a networked
match you left before its end waits in the *Network* tab (F7), where enter takes you back in.
Every game writes a signed match log that `tablier verify` checks and *Recorded match* (F4)
plays back; a local game left before its end waits there, where enter takes it up again.
""")

GOOSE = N_("""\
# Jeu de l'oie

**Goal**: land *exactly* on 63, le jardin de l'oie, and take the whole pot. Everyone starts
off the board and puts the ante in the pot. Press **space** to throw two dice when it is
your turn; the token moves by their sum.

- **Too far**: pips beyond 63 are counted back from 63 (57 + 9 → 60).
- **Geese** (5, 9, 14, 18, 23, 27, 32, 36, 41, 45, 50, 54, 59): count the same throw again,
  in the same direction, as long as you keep landing on geese.
- **Opening nine**: from the start, 6+3 goes straight to the dice on 26 and 5+4 to 53.
- **Hazards** cost the fee, paid into the pot:
  - 6 *le pont* (the bridge): cross to 12.
  - 19 *l'hôtellerie* (the inn): miss your next turn.
  - 31 *le puits* (the well) and 52 *la prison*: stay until someone else lands there and
    takes your place; you go to the square that player started from.
  - 42 *le labyrinthe*: go back to 30.
  - 58 *la mort* (death): back to the start.
- **Meeting** (Daumont rules): land on another player and he pays the fee and goes to the
  square you came from. Under the 1792 rules squares may be shared.
- In a two-player game, one held in the well and the other in the prison block it for
  good: the pot is shared.

**The ledger** lists each player's square (`sq`) and balance (`bal`: what he took from the
pot minus what he put in), and why he is not throwing: `inn: skips` (misses his next turn),
`well: held` or `prison: held` (until someone else lands there), shortened to the hazard's name
or its symbol on the board when the panel is narrow. `▶` marks whose turn it is.
""")

JACQUET = N_("""\
# Jacquet

Two players, fifteen checkers each, all starting on their own point 1 (the *talon*), moving
the same way round the board to their last quarter (19–24), then off.

- Each die moves one checker; a double plays four times. A point holding even **one**
  opposing checker is closed: nothing stops there, and there is no hitting.
- **The postillon**: until you have a checker in 19–24 (or borne off), only one checker
  may leave the talon. If it can no longer reach the last quarter, you lose ×4.
- Use as many dice as you can; if only one can be played, play the higher.
- Bear off once all fifteen are in 19–24. The winner scores by the loser's rearmost
  checker: 19–24 ×1, 13–18 ×2, 7–12 ×3, 1–6 ×4.
""")

JACQUET_ENTRY = N_("""
**Your turn**: press **r** to throw. Move the cursor over the points with the arrows (or
h j k l); **enter** (or space) picks the checker under it, and again on one of the
highlighted points moves it there; **esc** (or backspace) puts a picked checker back. You
may also click the checker, then where it goes. **u** takes a move back; once the play is
complete, **enter** confirms it. Or press **m** (or a digit) and type the play as the logs
write it: `1/7 7/12`, `1/12` for one checker over both dice, `21/off` to bear off; enter
plays it, escape returns to the board.
""")

NETWORK = N_("""
**Over the network**: **t** writes in the chat (enter sends, escape returns to the board).
**ctrl+r** resigns the match, after asking: it ends for everyone and its log is kept. When a
player is past the time limit, **c** claims the match from him. At the end, **Play again**
(a) asks for a rematch in the same room; it begins once every player has asked.
""")
