# ruff: noqa: RUF001, E501 -- en dashes and multiplication signs are meant, and the rules'
# tables keep docs/rules.md's long rows
"""What the help screen shows (Markdown): each screen's rules summary and how to play there,
then a game's rules in full, docs/rules.md's sections 1 and 2 and their worked examples
(copied here word for word for the catalogue: tests/client/test_help_rules.py holds the
copies to that page).

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

# The rules in full: docs/rules.md, section by section (its headings, numbering and
# cross-references kept), for the help screen of each game.
GOOSE_FULL = N_("""\
## The rules in full

### 1.1 Board and material
- Squares 1–63; every player starts **off the board on square 0**. Any number of players
  from **2 to 15** (1792: "depuis deux jusqu'à douze ou quinze").
- **Geese**: 5, 9, 14, 18, 23, 27, 32, 36, 41, 45, 50, 54, 59. (1792 says "de neuf en neuf",
  but its own worked examples need 14, 18 and 59 to be geese: the two interleaved series
  5+9k and 9+9k are the traditional board.)
- **Hazards**: 6 bridge (*le pont*), 19 inn (*l'hôtellerie*), 31 well (*le puits*),
  42 labyrinth (*le labyrinthe*), 52 prison (*la prison*), 58 death (*la mort*).
  **26 and 53** carry the two dice pictures used by the opening-nine rule. **63** is the
  garden of the goose (*le jardin / château de l'oie*): the goal.
- Two six-sided dice; a throw's **point** is their sum.

### 1.2 The pot (*la poule*)
- Before play each player puts the **ante** into the pot (default 4 tokens; option `ante`).
- Each hazard landed on costs its player the **fee** (default 1; option `fee`): bridge,
  inn, well, labyrinth, prison, death. Under the Daumont rule set, a player who is *met*
  (1.6) also pays the fee. Geese cost nothing.
- Balances may go negative (the engine keeps a ledger; it never refuses a move for lack of
  tokens). The winner takes the whole pot.

### 1.3 Order of play
- Lots: every player throws both dice; the highest point plays first; players tied for
  highest throw again among themselves until one is highest. Play then goes round the
  seats in order (seat after seat, wrapping). Lot throws move nobody.

### 1.4 A throw
1. Move forward by the point, one square per pip.
2. **Exact finish**: if the count would pass 63, the remaining pips are counted **backwards**
   from 63 (57 + 9 → 60).
3. **Goose**: a move that ends on a goose is counted again, by the *same point*, in the
   *direction it was going* — forward, or backward after a bounce — and this repeats while
   it keeps ending on geese (10 + 4 → 14 → 18 → 22; 60 + 7 → 63, back to 59, goose,
   7 more backward → 52). A repeated forward count that passes 63 bounces as in step 2.
4. **Opening nine**: a throw made from square 0 whose dice are 6+3 goes straight to **26**,
   and 5+4 straight to **53**, instead of steps 1–3. (Decision: this holds for *every* throw
   from square 0, not only a player's very first — otherwise a nine from the start after a
   death chains 9, 18, … 54, 63 and wins outright, which is what the rule exists to prevent.)
5. Then the square where the move ends takes effect (1.5). At most one hazard applies per
   throw: a square reached by a hazard's transfer (12 from the bridge, 30 from the
   labyrinth, 0 from death) does not chain into another hazard.
6. Finally the meeting rule (1.6) is checked on the square where the player rests — after a
   bridge or labyrinth transfer too — unless that square is 0.

### 1.5 Hazards
| square | effect |
|---|---|
| 6 bridge | pay the fee, go to 12 |
| 19 inn | pay the fee and miss your **next turn**: you stay "jusqu'à ce que ses adversaires aient joué chacun deux fois" (1792), "tandis que chacun jouera deux fois" (Daumont) — the others each play twice between your throw onto 19 and your next throw |
| 31 well | pay the fee and stay, held, until another player's throw ends on 31: that player frees you and is held in your place; you are moved to the square **that player started the throw from** |
| 42 labyrinth | pay the fee, go to 30 |
| 52 prison | exactly as the well |
| 58 death | pay the fee, go back to square 0 |
| 63 | you win: take the pot; the game ends |

A player who is freed, or sent away by a meeting (1.6), is *placed*: his new square has no
effect (no goose, hazard or meeting), and it costs him nothing beyond what 1.6 says.

### 1.6 Meeting another player (*la rencontre*) — the two rule sets
- **`1792`** (Dictionnaire des jeux): the text is silent, so squares may be shared and
  nothing happens when a throw ends on an occupied square (well and prison aside).
- **`daumont`** (Daumont print): "qui sera rencontré par un des joueurs, paiera le prix
  convenu, et ira à sa place". When a throw ends on a square 1–62 occupied by another
  player, the occupant pays the fee and is placed on the square the arriving player started
  the throw from. Well and prison keep their own rule (1.5) instead. A player met at the inn
  no longer misses his turn.
- The rule set is a match option (`rules`, default `daumont`: it is the fuller of the two).

### 1.7 The blocked game (decision)
With exactly two players, one held in the well and the other in the prison, nobody can ever
throw again (this happens in roughly one two-player game in five). The engine detects it and
ends the game as **blocked**: no winner, the pot is shared equally among the players, and
an indivisible remainder is left unclaimed. With three or more players it cannot happen
(there are only two traps, and an arrival frees the occupant).

### 1.8 Missed turns
A player at the inn, or held in the well or prison, does not throw: his turn passes and
**consumes no dice**. (Decision: the inn costs exactly one missed turn whatever the number of
players — the literal reading of both seed texts; many modern boards say two.)

### Worked examples

| game | situation | throw | result |
|---|---|---|---|
| oie | on 10 | 2+2 | 14 goose → 18 goose → 22 |
| oie | on 57 | 5+4 | 63, back to 60 |
| oie | on 60 | 4+3 | 63, back to 59 goose, 7 back → 52 prison, pay |
| oie | on 0 | 6+3 | 26 |
| oie | on 0 | 5+4 | 53 |
| oie | on 0 | 3+3 | 6 bridge, pay → 12 |
| oie | on 12 (2 players) | 4+3 | 19 inn, pay; the other throws twice before this player throws again |
| oie | on 57 | 3+3 | 63: wins the pot |
""")

JACQUET_FULL = N_("""\
## The rules in full

### 2.1 Board and numbering
- 24 points (*flèches*), two players (white and black), 15 checkers each, two dice.
- Each player numbers **his own track 1–24**: 1 is his starting point (*talon*), 19–24 is his
  **last quarter** (home), and beyond 24 is *off*. Both players move the same way round the
  board, starting in diagonally opposite corners, so the opponent's point *q* is my point
  ((q − 1 + 12) mod 24) + 1: the opponent's talon is **my 13**.
- Start: all 15 checkers on point 1. Quarters: 1–6 first, 7–12 second, 13–18 third,
  19–24 last.

### 2.2 Opening
Each player throws one die; the higher starts (ties throw again) and then throws **both**
dice for his first turn. After that players alternate.

### 2.3 Moving
- Each die moves one checker that many points forward; a double is **four** moves of its
  value. The two dice may move one checker or two; a sum may not be split otherwise (5+3 is
  never 4+4).
- A point holding **at least one** opposing checker is **closed**: no checker may stop on
  it. There is no hitting, ever. A single die jumps over closed points; a checker that uses
  several dice must stop on an open point after each one.
- Any number of one's own checkers may share a point.
- Six or more consecutive closed points (*bouchage*) are legal.

### 2.4 The postillon
- While a player has **no checker in 19–24 and none borne off**, he may move only **one**
  checker: the single checker that has left the talon, or — while all 15 are still on the
  talon — any one of them, which thereby becomes the postillon. Dice that the postillon
  cannot use are lost (opening 3-3: 1/4 4/7 7/10, the fourth three is lost because 13 is the
  opponent's talon; opening 6-6: 1/7 only).
- Decision: the condition is checked **before each die**, so a postillon that arrives in
  19–24 with the first die frees the talon checkers for the second (postillon on 17, roll
  5-2: 17/19 then 1/6 is legal).
- **Blocked postillon** (seed: "la partie ne peut continuer et est gagnée quadruple par celui
  qui l'a bloqué"). Decision: when a turn is about to begin and the player to move is still
  under the postillon rule, and *no sequence of single-die steps over open points* can take
  his postillon (or, before it has left, a checker from his talon) into 19–24 on the current
  board, the game ends at once and the opponent wins **quadruple**. An unlucky roll that
  merely cannot be played is not a block.

### 2.5 Forced play
- A player must use as many dice as the position allows (both dice; up to four with a
  double). If only one die of a non-double can be played, he must play the higher one when
  that is possible. If nothing can be played, the turn passes and the dice are lost.
- Two plays that lead to the same position are the same play.

### 2.6 Bearing off
- A player may bear off only when all his remaining checkers are in 19–24.
- A die *d* bears off a checker from point 25 − *d*. A die larger than needed may bear off a
  checker only from the lowest occupied point (the one farthest from off), and only when no
  checker stands on a point lower than 25 − *d*. A player may always choose to use a die to
  move inside 19–24 instead, subject to 2.5. (Option `bearoff`: `backgammon`, this rule, by
  default; `trictrac`, the stricter French-tables reading: among the plays that 2.5 allows,
  only those that use the **fewest dice as excess bear-offs** — a die larger than the
  checker's distance to off — are legal.)

### 2.7 Winning and scoring
The first player to bear off all 15 wins. He scores by where the loser's **rearmost**
remaining checker stands on the loser's own track:

| loser's rearmost checker | win | points |
|---|---|---|
| 19–24, or borne off | simple | 1 |
| 13–18 | double | 2 |
| 7–12 | triple | 3 |
| 1–6 | quadruple | 4 |

A blocked postillon (2.4) scores 4. A match is played to a number of points (option
`match_to`, default 1: a single game); games alternate the opening throw as in 2.2.

### 2.8 Notation
A move is `from/to` on the mover's own track, `from/off` for a bear-off; a turn lists its
moves in the order played (`1/7 7/12`). A pass is `-`.

### Worked examples

| game | situation | throw | result |
|---|---|---|---|
| jacquet | start | 3-3 | 1/4 4/7 7/10 |
| jacquet | start | 4-4 | 1/5 5/9 |
| jacquet | start | 5-5 | 1/6 6/11 11/16 16/21 (postillon home; next turn is free) |
| jacquet | start | 6-6 | 1/7 |
| jacquet | start | 6-5 | 1/7 7/12 or 1/6 6/12 — the same play |
| jacquet | postillon on 12, rest on talon | 6-1 | 12/18 18/19 |
| jacquet | postillon on 17 | 5-2 | any of 17/19 1/6 · 17/22 1/3 · 17/19 19/24 |
| jacquet | opponent on my 2–6, all mine on talon | 6-1 | 1/7 7/8 |
| jacquet | opponent on my 2–7 (and his talon) | any | postillon blocked: opponent wins ×4 |
| jacquet | postillon on 10, my 21 closed | 6-5 | 10/16 only (higher die) |
| jacquet | mine on 21 and 24 only, all home | 6-3 | `backgammon`: 21/off 24/off or 21/24 24/off; `trictrac`: 21/24 24/off |
""")
