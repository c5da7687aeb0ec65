"""The players' name rule (protocol.names) and the relay's copy of it (relay.names): what a
name may be, when two are one, and the two copies giving the same verdicts."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from protocol.chain import HashChain
from protocol.errors import LocalProtocolError, MalformedMessage
from protocol.identity import Identity, seeded_source
from protocol.names import BLANKS, first_clash, name_key, name_problem
from protocol.setup import Join, MatchSetup, Proposal
from relay import names as relay_names

VISIBLE_BASE = ("L", "N", "P", "S")

# Names of every script and shape: letters, marks, wide characters, fillers, formats.
any_text = st.text(max_size=40)
unicode_text = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=40
)


@pytest.mark.parametrize(
    "name",
    [
        "\u3164",  # HANGUL FILLER
        "\u115f\u1160",  # Hangul choseong and jungseong fillers
        "\uffa0",  # HALFWIDTH HANGUL FILLER
        "\u2800\u2800",  # BRAILLE PATTERN BLANK
        "\u200b",  # ZERO WIDTH SPACE (a format character)
        "A\u200bda",  # one hidden inside
        "Ada\u3164",  # a filler after a visible name: "Ada" to the eye
        "\u00a0",  # NO-BREAK SPACE
        "\u0301\u0301",  # marks with no base
        "\u0301Ada",
        "Z\u0301\u0302\u0303\u0304",  # four marks stacked on one letter
        "\ufdfd" * 32,  # 32 bismillah ligatures: 704 columns
        "\u5c71" * 17,  # 17 wide characters: 34 columns
        " Ada",
        "Ada ",
        "",
        "A" * 33,
        "Ada\x1b[2J",
        "\ue000",  # private use
    ],
)
def test_invisible_stacked_wide_and_empty_names_are_refused(name: str) -> None:
    assert name_problem(name) is not None
    assert relay_names.name_problem(name) is not None


@pytest.mark.parametrize(
    "name",
    ["Ada", "Élise", "山田", "Nguyễn", "ທີ່", "བསྒྲུབས", "Jean-Luc", "O'Brien", "A b", "\ufdfa"],
)
def test_names_of_every_script_are_taken(name: str) -> None:
    assert name_problem(name) is None
    assert relay_names.name_problem(name) is None


@given(unicode_text)
@example("\u3164")
@example("\u2800a")
def test_an_accepted_name_has_a_visible_base_and_fits(name: str) -> None:
    if name_problem(name) is not None:
        return
    assert any(
        unicodedata.category(char)[0] in VISIBLE_BASE and char not in BLANKS for char in name
    )
    assert not unicodedata.category(unicodedata.normalize("NFD", name)[0]).startswith("M")
    assert 1 <= len(name) <= 32 and name == name.strip()


@given(st.one_of(any_text, unicode_text))
@example("\ufdfd")
@example("\u0e17\u0e35\u0e48")
def test_the_relay_gives_the_protocol_s_verdict(name: str) -> None:
    """relay.names is a copy (the relay may import nothing of the protocol): held to it."""
    assert (relay_names.name_problem(name) is None) == (name_problem(name) is None)
    assert relay_names.name_key(name) == name_key(name)


def _fullwidth(char: str) -> str:
    return chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char


ascii_name = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1,
                     max_size=16)  # fmt: skip
dressings = st.lists(st.sampled_from(["upper", "lower", "swapcase", "fullwidth", "NFD", "NFKD"]))


def _dress(name: str, changes: list[str]) -> str:
    for change in changes:
        if change == "fullwidth":
            name = "".join(_fullwidth(char) for char in name)
        elif change.startswith("NF"):
            name = unicodedata.normalize(change, name)  # type: ignore[arg-type]
        else:
            name = getattr(name, change)()
    return name


@given(ascii_name, dressings)
def test_any_name_that_reads_as_a_seated_one_is_refused(name: str, changes: list[str]) -> None:
    """Whatever case and compatibility forms a second player dresses a name in, it is the
    same name."""
    other = _dress(name, changes)
    assert first_clash([name, other]) == (0, 1)
    assert relay_names.name_key(other) == relay_names.name_key(name)


@given(unicode_text, st.sampled_from(["NFC", "NFD", "NFKC", "NFKD"]), st.booleans())
def test_a_name_in_another_normal_form_or_case_is_the_same(
    name: str, form: str, fold: bool
) -> None:
    other = unicodedata.normalize(form, name)  # type: ignore[arg-type]
    if fold:
        other = other.casefold()
    assert first_clash(["Bob", name, other]) in ((1, 2), (0, 1))


def test_a_join_is_held_to_the_rule_both_ways() -> None:
    source = seeded_source("names")
    proposal = Proposal.create("goose", {}, seats=2, start_time=0, random_source=source)
    key, tip = Identity.generate(source), HashChain.generate(source).tip
    with pytest.raises(LocalProtocolError, match="cannot hold the invisible character U"):
        Join.create(proposal, key, "\u3164\u3164", tip)
    ada = Join.create(proposal, key, "Ada", tip)
    forged = ada.fields()
    forged[3] = "\u2800"  # as a hostile program would send it (its signature is no matter)
    with pytest.raises(MalformedMessage, match="'\u2800' cannot be a player's name") as caught:
        Join.from_fields(forged, seat=1)
    assert caught.value.seat == 1


def test_a_setup_seating_two_names_that_read_the_same_is_refused() -> None:
    source = seeded_source("twins")
    proposal = Proposal.create("goose", {}, seats=2, start_time=0, random_source=source)
    joins = [
        Join.create(proposal, Identity.generate(source), name, HashChain.generate(source).tip)
        for name in ("Ada", "\uff21\uff24\uff21")
    ]
    with pytest.raises(MalformedMessage, match="two seats go by one name"):
        MatchSetup.create(proposal, joins)
    setup = MatchSetup(proposal, tuple(joins))  # as a hostile host would send it
    with pytest.raises(MalformedMessage, match="two seats go by one name"):
        MatchSetup.decode(setup.encode())


def test_the_relay_s_copy_states_the_protocol_s_bounds() -> None:
    from protocol import bounds, names

    assert (relay_names.MAX_NAME_CHARS, relay_names.MAX_NAME_CELLS) == (
        bounds.MAX_NAME_CHARS,
        bounds.MAX_NAME_CELLS,
    )
    assert relay_names.MAX_MARKS_PER_BASE == bounds.MAX_MARKS_PER_BASE
    assert (relay_names.BLANKS, relay_names.DRAWN_WIDE) == (names.BLANKS, names.DRAWN_WIDE)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("A" + "\u0301" * 499, "a chat line stacks at most 3 marks on one letter"),
        ("\ufdfd" * 500, "a chat line is at most 1000 columns wide, not 11000"),
        ("\u0301 hello", "a chat line cannot begin with a combining mark"),
    ],
)
def test_a_chat_line_that_would_spill_is_refused_as_a_name_would_be(line: str, why: str) -> None:
    """The name rule's marks and width hold a chat line too (peer attack 11): a peer's line
    is refused at the gate, naming its sender, and nobody's screen gets it; our own is
    refused before it is signed. A line of wide letters, or one accented as a language
    needs, is taken."""
    from protocol.messages import Chat, seal
    from tests.protocol.helpers import seats

    setup, (ann, bob), keys = seats("goose", 2)
    forged = seal(Chat(1, 0, 1_000, line, b""), keys[1], setup.match_id).encode()
    with pytest.raises(MalformedMessage, match=why) as caught:
        ann.receive_bytes(forged, 1_000, sender=1)
    assert caught.value.seat == 1 and not caught.value.fatal and ann.records == []
    with pytest.raises(LocalProtocolError, match=why):
        bob.chat(line, 1_000)
    for fine in ("山" * 500, "Tiê\u0323ng Vie\u0323\u0302t " * 30):
        bob.chat(fine, 1_000)
        [sent] = bob.data_to_send()
        [event] = ann.receive_bytes(sent, 1_000, sender=1)
        assert event.text == fine  # type: ignore[attr-defined]
