"""The equity network's inference, in integers only: the same outputs on every machine.

The network (``scripts/train_net.py`` trains it by TD(lambda) self-play) maps the inputs
of :mod:`engine.bot.features` (each side's board, and their interactions) through one
sigmoid hidden layer to a softmax over
the eight :data:`OUTCOMES` of a game for the side to move: win or lose, x1 to x4 (RULES 2.7;
a blocked postillon, RULES 2.4, is a x4). Trained in floating point, it ships quantised
(``equity_net.json``), and runs here in integer arithmetic alone:

* inputs are small integers; the first layer's weights are integers in 1/1024ths, so each
  hidden unit's input is an exact integer sum;
* the sigmoid and the exponential of the softmax are integer tables committed in the same
  file (made once by ``scripts/export_net.py``), never computed from floats here;
* the outputs are integer probabilities in millionths (:data:`ONE`) that sum to exactly
  :data:`ONE`, and the equity is in micro-points, like :mod:`engine.bot.evaluate`.

CPython's integers are exact and ``struct`` is told the byte order, so there is nothing left
that BLAS, SIMD, a compiler or a libm could change: the same position gives the same bytes on
every machine. For speed the 64 hidden sums are *packed* in one big integer, 32 bits a lane:
a point holding ``n`` checkers adds one precomputed packed row (its four inputs' weights at
once), each interaction its value times its packed column, and a bound checked at load
guarantees no lane ever overflows into its neighbour.

>>> from engine.bot.board import initial_side
>>> probabilities = NETWORK.probabilities(initial_side(), initial_side())
>>> len(probabilities), sum(probabilities) == ONE, all(p >= 0 for p in probabilities)
(8, True, True)
"""

from __future__ import annotations

import json
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from operator import getitem, mul
from typing import Any, Final

from engine.bot.board import OFF, Side
from engine.bot.features import (
    CROSS_INPUTS,
    CROSS_MAX,
    HOME_INPUT,
    INPUTS,
    NET_INPUTS,
    OFF_INPUT,
    POINT_INPUTS,
    POINT_UNITS,
    POSTILLON_INPUT,
    SIDE_INPUTS,
    cross,
)

FORMAT: Final = "tablier-equity-net/2"
"""Version 2 reads the sides' interactions (:func:`engine.bot.features.cross`) too."""

OUTCOMES: Final = ("win1", "win2", "win3", "win4", "lose1", "lose2", "lose3", "lose4")
"""The outcomes of a game for the side to move, in the network's output order."""
POINTS: Final = (1, 2, 3, 4, -1, -2, -3, -4)
"""Points each outcome scores for the side to move."""
FLIP: Final = (4, 5, 6, 7, 0, 1, 2, 3)
"""``FLIP[k]``: the same outcome seen by the other side."""

ONE: Final = 1_000_000
"""A probability of 1, and a point of equity (micro-points, :data:`engine.bot.evaluate.WIN`)."""

WEIGHT_BITS: Final = 10
"""First-layer weights and biases are integers in units of ``2**-WEIGHT_BITS``."""
SIGMOID_STEP_BITS: Final = 6
"""The sigmoid table's step: ``2**-SIGMOID_STEP_BITS`` of a hidden unit's input."""
SIGMOID_RANGE: Final = 16
"""The table covers inputs in [-16, 16); beyond, a unit is fully off or on."""
HIDDEN_BITS: Final = 12
"""Hidden activations are integers 0..``2**HIDDEN_BITS``."""
OUTPUT_BITS: Final = 10
"""Second-layer weights are integers in ``2**-OUTPUT_BITS``; its biases in
``2**-(HIDDEN_BITS + OUTPUT_BITS)``."""
EXP_STEP_BITS: Final = 6
"""The softmax's exponential table: steps of ``2**-EXP_STEP_BITS`` below the largest output."""
EXP_BITS: Final = 20
"""Its values are integers in ``2**-EXP_BITS``."""

_LANE: Final = 32
_LANE_BIAS: Final = 1 << (_LANE - 1)
_SUM_LIMIT: Final = 1 << 19
"""A hidden unit's integer input stays within +-2**19 (checked at load): its lane, biased by
2**31, never leaves [0, 2**32), and the expanded sigmoid table needs 2**16 entries."""
_OUT_LANE: Final = 64
_OUT_BIAS: Final = 1 << (_OUT_LANE - 1)
_MAX_SIDE_INPUT: Final = (
    *(max(units[i] for units in POINT_UNITS) for _ in range(24) for i in range(POINT_INPUTS)),
    15,  # checkers borne off
    1,  # under the postillon rule
    1,  # all home
)
_MAX_INPUT: Final = _MAX_SIDE_INPUT * 2 + CROSS_MAX * 2
"""The largest value each input can take (the count beyond three: 12; checkers off: 15;
checkers facing a run: 15; closed points faced: 90)."""


class NetworkFormatError(ValueError):
    """A network file that is not one this module can run (its message says what is wrong)."""


def _pack(values: Sequence[int], lane: int) -> int:
    """``values`` as lanes of ``lane`` bits of one signed integer: sum v_j 2**(lane j)."""
    packed = 0
    for value in reversed(values):
        packed = (packed << lane) + value
    return packed


def _ints(data: Mapping[str, Any], name: str, length: int) -> list[int]:
    values = data.get(name)
    if (
        not isinstance(values, list)
        or len(values) != length
        or not all(type(v) is int for v in values)
    ):
        raise NetworkFormatError(f"{name!r} must be a list of {length} integers")
    return values


@dataclass(frozen=True, slots=True, eq=False)
class Network:
    """A loaded equity network. Build it with :meth:`from_json`; ask it :meth:`probabilities`
    or :meth:`equity` of a position (compact sides of :mod:`engine.bot.board`)."""

    hidden: int
    made: Mapping[str, Any]
    _rows: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    _flags: tuple[tuple[int, int], tuple[int, int]]
    _cross: tuple[int, ...]
    _start: int
    _sigmoid: tuple[int, ...]
    _sigmoid_base: int
    _out_rows: tuple[int, ...]
    _out_start: int
    _exp: tuple[int, ...]
    _unpack_hidden: struct.Struct
    _unpack_out: struct.Struct

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Network:
        """The network described by a parsed ``equity_net.json``; checks every field."""
        if data.get("format") != FORMAT:
            raise NetworkFormatError(f"not a {FORMAT} file")
        hidden = data.get("hidden")
        if type(hidden) is not int or not 1 <= hidden <= 256:
            raise NetworkFormatError("'hidden' must be a whole number of units, 1-256")
        w1 = _ints(data, "w1", hidden * NET_INPUTS)
        b1 = _ints(data, "b1", hidden)
        w2 = _ints(data, "w2", len(OUTCOMES) * hidden)
        b2 = _ints(data, "b2", len(OUTCOMES))
        core = _ints(data, "sigmoid", 2 * SIGMOID_RANGE << SIGMOID_STEP_BITS)
        exp = _ints(data, "exp", 32 << EXP_STEP_BITS)
        column = [w1[j * NET_INPUTS : (j + 1) * NET_INPUTS] for j in range(hidden)]
        for j in range(hidden):
            bound = abs(b1[j]) + sum(abs(w) * m for w, m in zip(column[j], _MAX_INPUT, strict=True))
            if bound >= _SUM_LIMIT:
                raise NetworkFormatError(f"hidden unit {j}'s input can reach {bound}")
        if not all(0 <= v <= 1 << HIDDEN_BITS for v in core) or not all(
            0 <= v <= 1 << EXP_BITS for v in exp
        ):
            raise NetworkFormatError("the sigmoid or exponential table is out of range")

        # One packed column per input; a row of several inputs is their integer combination.
        packed = [_pack([column[j][i] for j in range(hidden)], _LANE) for i in range(NET_INPUTS)]
        rows = []
        flags = []
        for base in (0, SIDE_INPUTS):
            side_rows: list[tuple[int, ...]] = [(0,) * 16]  # index 0 of a side is unused
            for point in range(24):
                first = base + point * POINT_INPUTS
                side_rows.append(
                    tuple(
                        sum(units[i] * packed[first + i] for i in range(POINT_INPUTS))
                        for units in POINT_UNITS
                    )
                )
            side_rows.append(tuple(n * packed[base + OFF_INPUT] for n in range(16)))
            rows.append(tuple(side_rows))
            flags.append((packed[base + POSTILLON_INPUT], packed[base + HOME_INPUT]))
        # Expand the sigmoid to every input a lane can hold (saturating beyond the core).
        step = WEIGHT_BITS - SIGMOID_STEP_BITS
        half = _SUM_LIMIT >> step
        margin = half - (SIGMOID_RANGE << SIGMOID_STEP_BITS)
        sigmoid = (core[0],) * margin + tuple(core) + (core[-1],) * margin
        out_rows = tuple(
            _pack([w2[k * hidden + j] for k in range(len(OUTCOMES))], _OUT_LANE)
            for j in range(hidden)
        )
        return cls(
            hidden=hidden,
            made=dict(data.get("made") or {}),
            _rows=(rows[0], rows[1]),
            _flags=(flags[0], flags[1]),
            _cross=tuple(packed[INPUTS : INPUTS + CROSS_INPUTS]),
            _start=_pack([b + _LANE_BIAS for b in b1], _LANE),
            _sigmoid=sigmoid,
            _sigmoid_base=(_LANE_BIAS >> step) - half,
            _out_rows=out_rows,
            _out_start=_pack([b + _OUT_BIAS for b in b2], _OUT_LANE),
            _exp=tuple(exp),
            _unpack_hidden=struct.Struct(f"<{hidden}I"),
            _unpack_out=struct.Struct(f"<{len(OUTCOMES)}Q"),
        )

    def probabilities(self, mover: Side, other: Side) -> tuple[int, ...]:
        """The eight outcome probabilities (:data:`OUTCOMES`, in :data:`ONE`), summing to
        exactly :data:`ONE`, for ``mover`` to play next against ``other``."""
        return self.from_sums(
            self.side_sum(mover, 0), self.side_sum(other, 1), self.cross_sum(mover, other)
        )

    def side_sum(self, side: Side, slot: int) -> int:
        """One side's packed contribution to the hidden units (``slot`` 0: the mover's).

        A search that judges many replies against one side computes that side's once.
        """
        acc = sum(map(getitem, self._rows[slot], side))
        if not any(side[1:19]):
            return acc + self._flags[slot][1]
        if not side[OFF] and not any(side[19:25]):
            return acc + self._flags[slot][0]
        return acc

    def cross_sum(self, mover: Side, other: Side) -> int:
        """The sides' interactions' packed contribution (:func:`engine.bot.features.cross`)."""
        return sum(map(mul, cross(mover, other), self._cross))

    def from_sums(self, mover_sum: int, other_sum: int, cross_sum: int) -> tuple[int, ...]:
        """:meth:`probabilities` from both sides' :meth:`side_sum` and their
        :meth:`cross_sum`."""
        acc = self._start + mover_sum + other_sum + cross_sum
        step = WEIGHT_BITS - SIGMOID_STEP_BITS
        base = self._sigmoid_base
        sigmoid = self._sigmoid
        lanes = self._unpack_hidden.unpack(acc.to_bytes(4 * self.hidden, "little"))
        hidden = [sigmoid[(lane >> step) - base] for lane in lanes]
        out = self._out_start + sum(map(mul, self._out_rows, hidden))
        logits = self._unpack_out.unpack(out.to_bytes(8 * len(OUTCOMES), "little"))
        top = max(logits)
        shift = HIDDEN_BITS + OUTPUT_BITS - EXP_STEP_BITS
        exp = self._exp
        last = len(exp) - 1
        weights = [exp[min(last, (top - z) >> shift)] for z in logits]
        total = sum(weights)
        probabilities = [w * ONE // total for w in weights]
        probabilities[logits.index(top)] += ONE - sum(probabilities)
        return tuple(probabilities)

    def equity(self, mover: Side, other: Side) -> int:
        """Expected points for ``mover``, to play next, in micro-points (:data:`ONE`)."""
        return sum(map(mul, self.probabilities(mover, other), POINTS))


def load_network(text: str) -> Network:
    """A network from the text of an ``equity_net.json`` file."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise NetworkFormatError(f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise NetworkFormatError("a network file is one JSON object")
    return Network.from_json(data)


NETWORK: Final = load_network(files("engine.bot").joinpath("equity_net.json").read_text("ascii"))
"""The committed network (``engine/bot/equity_net.json``; docs/bot.md says how it was made)."""


def outcome_equity(probabilities: Sequence[int]) -> int:
    """Micro-points of a distribution over :data:`OUTCOMES` (in :data:`ONE`).

    >>> outcome_equity((0, 0, 0, ONE, 0, 0, 0, 0)) == 4 * ONE
    True
    """
    return sum(map(mul, probabilities, POINTS))


def flipped(probabilities: Sequence[int]) -> tuple[int, ...]:
    """The same distribution seen by the other side.

    >>> flipped((1, 2, 3, 4, 5, 6, 7, 8))
    (5, 6, 7, 8, 1, 2, 3, 4)
    """
    return tuple(probabilities[k] for k in FLIP)
