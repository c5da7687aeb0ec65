"""Every error the protocol raises gives its reason as a clause (issue 18): a French player
reads a peer's fault, a damaged log or a refused action in French, while ``str()`` — what
logs, bug reports and the JSON interfaces carry — stays the protocol's English."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from engine import errors as engine_errors
from engine.clause import Clause
from protocol import errors
from protocol.errors import CorruptLog, ProtocolError, os_reason
from protocol.identity import seeded_source
from protocol.local import LocalMatch
from protocol.logfile import parse_log

ROOT = Path(__file__).resolve().parents[2]
ERRORS = {
    name
    for module in (errors, engine_errors)
    for name, value in vars(module).items()
    if inspect.isclass(value) and issubclass(value, ProtocolError | engine_errors.EngineError)
} | {"_refuse"}  # protocol.progress: an IllegalPlay that does not stop the match
"""What raises a protocol error (or an engine error, from the protocol's games)."""


def words_given(call: ast.Call) -> ast.expr | None:
    """The reason *call* gives its error, if it gives one as words (a literal, an f-string,
    ``str(...)``: an error's English)."""
    if not call.args:
        return None
    reason = call.args[0]
    if isinstance(reason, ast.Constant) and isinstance(reason.value, str):
        return reason
    if isinstance(reason, ast.JoinedStr | ast.BinOp):
        return reason
    if isinstance(reason, ast.Call) and getattr(reason.func, "id", None) == "str":
        return reason
    return None


def raised_in_words(source: str) -> list[str]:
    """The errors *source* builds with a reason in words instead of a clause."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = getattr(func, "id", None)
        if isinstance(func, ast.Call) and getattr(func.func, "id", None) == "type":
            name = "type(error)"  # raise type(error)(...): the same error, said again
        if (name in ERRORS or name == "type(error)") and words_given(node) is not None:
            found.append(ast.unparse(node))
    return found


def test_every_error_the_protocol_raises_gives_a_clause() -> None:
    modules = sorted((ROOT / "protocol").rglob("*.py"))
    in_words = {
        str(path.relative_to(ROOT)): found
        for path in modules
        if (found := raised_in_words(path.read_text(encoding="utf-8")))
    }
    assert in_words == {}


def test_the_scan_finds_an_error_given_in_words() -> None:
    source = ('raise BadShare(f"a share for throw {n}", seat=1)\n'
              'raise MalformedMessage("not a message")\n'
              'raise type(error)(str(error), seat=sender)\n'
              'raise NotALog(str(error))\n'
              'raise IllegalPlay(Clause.of(N_("{name} played"), name=name), seat=1)\n'
              'raise type(error)(error.reason, seat=sender)\n')  # fmt: skip
    assert len(raised_in_words(source)) == 4


class Bracketed:
    """A reader whose language brackets every pattern: what is said in it shows which parts
    went through the reader's catalogue."""

    def gettext(self, message: str, /) -> str:
        return f"[{message}]"

    def ngettext(self, singular: str, plural: str, count: int, /) -> str:
        return f"[{singular if count == 1 else plural}]"


def new_match(seed: str) -> LocalMatch:
    return LocalMatch.create("goose", {}, names=("Ann", "Bob"), now=0,
                             random_source=seeded_source(seed))  # fmt: skip


def test_a_peer_s_bad_message_is_said_in_the_reader_s_language_and_str_stays_english() -> None:
    thrown = new_match("clauses")
    thrown.throw(0, now=1_000)
    forged = bytearray(thrown.sessions[0].records[0])  # Ann's share, as she signed it
    forged[-40] ^= 1  # a byte of its signature changed
    with pytest.raises(ProtocolError) as raised:  # the same match, before the throw
        new_match("clauses").sessions[1].receive_bytes(bytes(forged), 1_000, sender=0)
    error = raised.value
    assert isinstance(error.message, Clause)
    assert str(error) == error.message.say() == (
        "seat 0: a message from Ann claiming to be Ann's is not signed by their key"
    )
    assert error.message.say(Bracketed()) == (
        "[seat 0: [a message from {sender} claiming to be {seat}'s is not signed by their "
        "key]]".format(sender="Ann", seat="Ann")
    )


def test_a_damaged_log_says_where_in_the_reader_s_language() -> None:
    match = new_match("damaged")
    match.throw(0, now=1_000)
    problem = parse_log(match.log_bytes() + b"\xc1").problem
    assert isinstance(problem, CorruptLog) and isinstance(problem.message, Clause)
    where = f"record {problem.record} (byte {problem.offset})"
    assert str(problem) == f"{where}: garbled bytes, not a record"
    assert problem.message.say(Bracketed()) == f"[{where}: [garbled bytes, not a record]]"


def test_a_system_error_is_worded_not_quoted() -> None:
    assert str(os_reason(PermissionError(13, "Permission denied"))) == "permission denied"
    assert os_reason(OSError(9999, "Something rare")) == "Something rare"  # kept as it is
