"""What the end screen says of a rematch, in both languages (issue 18): a French sentence
agrees with how many players it names — "Bob a quitté", "Bob, Cy ont quitté"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from client import i18n
from client.net.rematch import RematchVote

NBSP = "\u00a0"
NAMES = ("Ada", "Bob", "Cy")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.use("en")


def vote(*askers: int) -> RematchVote:
    rematch = RematchVote(NAMES)
    for seat in askers:
        rematch.ask(seat)
    return rematch


def test_who_left_the_room_agrees_with_how_many_left() -> None:
    i18n.use("fr")
    need = f"la salle{NBSP}: une revanche demande tous les joueurs du match"
    assert vote().missing([1]) == f"Bob a quitté {need}"
    assert vote().missing([1, 2]) == f"Bob, Cy ont quitté {need}"
    assert vote().missing([0, 2]) == (
        f"Ada, l'hôte, a quitté la salle{NBSP}: pas de revanche sans l'hôte"
    )
    assert vote().note(my_seat=1, away=[2], joined=None) == f"Cy a quitté {need}."


def test_the_hosts_proposal_counts_who_joined_in_the_right_number() -> None:
    i18n.use("fr")
    proposed = f"Ada a proposé la revanche{NBSP}: "
    assert vote(0).note(my_seat=0, away=[], joined=1) == (
        f"{proposed}1 joueur sur 3 l'a rejointe… Touche w pour la retirer."
    )
    assert vote(0, 1).note(my_seat=1, away=[2], joined=2) == (
        f"{proposed}2 joueurs sur 3 l'ont rejointe… Cy a quitté la salle{NBSP}: une revanche "
        "demande tous les joueurs du match."
    )


def test_who_is_waited_for_agrees_with_how_many() -> None:
    i18n.use("fr")
    assert vote(0).note(my_seat=0, away=[], joined=None) == (
        f"En attente{NBSP}: Bob, Cy doivent aussi vouloir la revanche…"
    )
    assert vote(0, 1).note(my_seat=0, away=[], joined=None) == (
        f"En attente{NBSP}: Cy doit aussi vouloir la revanche…"
    )
    assert vote(0, 1, 2).note(my_seat=1, away=[], joined=None) == (
        f"En attente{NBSP}: c'est à Ada de lancer la revanche…"
    )
    assert vote(1).note(my_seat=0, away=[], joined=None) == (
        f"Bob voudrait une revanche{NBSP}: touche a pour rejouer."
    )
    assert vote(1, 2).note(my_seat=0, away=[], joined=None) == (
        f"Bob, Cy voudraient une revanche{NBSP}: touche a pour rejouer."
    )
    withdrawn = vote(1)
    withdrawn.withdraw()
    assert withdrawn.note(my_seat=1, away=[], joined=None) == (
        f"Ada a retiré la revanche{NBSP}: touche a pour en redemander une."
    )


def test_the_same_notes_in_english() -> None:
    assert vote().missing([1, 2]) == (
        "Bob, Cy left the room: a rematch needs every player of the match"
    )
    assert vote(0).note(my_seat=2, away=[], joined=1) == (
        "Ada proposed the rematch: 1 of 3 players joined…"
    )
    assert vote(0, 1).note(my_seat=0, away=[], joined=None) == (
        "Waiting for Cy to want a rematch too…"
    )
