"""Tablier in French and English (issue 18): the catalogues are complete and compiled, the
language is chosen as documented, the converted modules say nothing that bypasses the
catalogue, and the language never reaches what two machines share."""

from __future__ import annotations

import argparse
import ast
import doctest
import inspect
import io
import re
import string
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from client import i18n, typography
from client.commands import paths
from client.commands.argparse_words import WORDS
from client.i18n import _, ngettext
from engine.clause import N_, Clause
from tests.client.terminal import CTRL_Q, ROOT, TABLIER, environment, run_in_terminal

LOCALE = ROOT / "client" / "locale"
POT = LOCALE / "messages.pot"
PO = LOCALE / "fr" / "LC_MESSAGES" / "messages.po"
MO = PO.with_suffix(".mo")
NBSP = "\u00a0"  # French puts a no-break space before : ; ! ?


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """The language is one per process: every test here leaves it English, as it found it."""
    yield
    i18n.use("en")


def catalogue(path: Path) -> Catalog:
    with path.open("rb") as file:
        return read_po(file)


def placeholders(text: str) -> list[str]:
    """The fields a sentence is filled with: ``{name...}`` (nested ones included) and
    ``%(name)s`` / ``%s`` (argparse's)."""
    braces = [
        field
        for _literal, field, spec, _conversion in string.Formatter().parse(text)
        for field in (field, *re.findall(r"\{(\w*)\}", spec or ""))
        if field is not None
    ]
    percents = re.findall(r"%(?:\((\w+)\))?[-#0 +]*\d*[sdrfgi%]", text)
    return sorted(braces + [f"%{name}" for name in percents])


# -- the catalogues -------------------------------------------------------------------------


def test_every_sentence_is_translated_into_french_with_the_same_placeholders() -> None:
    template = {message.id for message in catalogue(POT) if message.id}
    french = [message for message in catalogue(PO) if message.id]
    assert {message.id for message in french} == template
    assert catalogue(PO).num_plurals == 2  # "1 tour", "3 tours" (and "0 tour")
    for message in french:
        assert not message.fuzzy, message.id
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), f"untranslated: {message.id!r}"
        for form in forms:
            assert placeholders(form) == placeholders(ids[-1]), (message.id, form)


def test_french_punctuation_takes_a_no_break_space_before_it() -> None:
    """``:``, ``;``, ``!`` and ``?`` stand after a no-break space in French, never an
    ordinary one, which a narrow terminal could break the line at (a ``?`` starting an
    invite's query, ``?player=``, is not punctuation)."""
    ordinary = [
        form
        for message in catalogue(PO)
        if message.id
        for form in (message.string if isinstance(message.string, tuple) else (message.string,))
        if re.search(r" [:;!?](\s|$)", form)
    ]
    assert ordinary == []


def test_the_template_holds_exactly_the_sentences_the_sources_mark() -> None:
    """``scripts/catalogue`` was run after the last change of a sentence."""
    read = [line.strip("[]\n").split(": ") for line in (ROOT / "babel.cfg").open()
            if line.startswith("[")]  # fmt: skip
    method_map = [(path, method) for method, path in read]
    keywords = {**DEFAULT_KEYWORDS, "plural": (1, 2)}
    marked = {
        message
        for _file, _line, message, _comments, _context in extract_from_dir(
            ROOT, method_map=method_map, keywords=keywords
        )
    }
    assert marked == {message.id for message in catalogue(POT) if message.id}


def test_the_compiled_catalogue_is_the_french_one_compiled() -> None:
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(PO))
    assert MO.read_bytes() == compiled.getvalue(), "run scripts/catalogue --compile"


def test_an_installed_tablier_carries_the_compiled_catalogue() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["client"]
    shipped = {path for pattern in patterns for path in (ROOT / "client").glob(pattern)}
    assert MO in shipped


def test_argparse_still_says_the_words_the_catalogue_translates() -> None:
    """argparse's words are listed by hand (pybabel does not read the standard library): a
    Python whose argparse words them differently must be noticed."""
    source = inspect.getsource(argparse)
    for word in WORDS:
        assert f"_({word!r})" in source, word


def test_textual_still_says_the_words_the_catalogue_translates() -> None:
    """Textual's palette, commands and screen keys are listed by hand too: an upgrade that
    words them differently must be noticed (they would show in English again)."""
    import textual

    from client.textual_words import KEYS, SCREENSHOT, WORDS

    source = "".join(path.read_text(encoding="utf-8")
                     for path in Path(textual.__file__).parent.rglob("*.py"))  # fmt: skip
    for word in (*WORDS, SCREENSHOT, KEYS):
        assert f'"{word}"' in source, word


async def test_the_palette_and_the_keys_speak_french(tmp_path: Path) -> None:
    """The command palette (its placeholder, Tablier's commands, Textual's own), ctrl+c's
    hint and the keys' names (the footer's, the help's), in French."""
    from textual.command import CommandInput, CommandPalette

    from client.app import TablierApp
    from tests.client.conftest import screen_text, seeded_settings, until

    i18n.use("fr")
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        app.action_help_quit()
        await pilot.pause()
        assert [n.title for n in app._notifications] == [f"Voulez-vous quitter{NBSP}?"]
        assert "Appuyez sur ^q pour quitter Tablier" in [n.message for n in app._notifications]
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(CommandInput).placeholder == "Chercher une commande…"
        titles = [command.title for command in app.get_system_commands(app.screen_stack[0])]
        assert {"Jouer", "Thème", "Quitter", "Capture d'écran"} <= set(titles)
        assert "Keys" not in titles  # Textual's key panel: English; F1's help has the keys
        await pilot.press(*"zzq")  # Textual's "No matches found", its own line, said in French
        await until(pilot, lambda: "Aucun résultat" in screen_text(app), "the line saying so")
        assert "No matches" not in screen_text(app)
    from client.textual_words import key_name

    assert [key_name(key) for key in ("esc", "space", "shift+tab", "^q")] == [
        "Échap", "espace", "maj+tab", "^q"]  # fmt: skip


async def test_a_select_open_in_french_says_its_escape_in_french(tmp_path: Path) -> None:
    """The lobby's language list, opened: its escape key (Textual's "Dismiss menu") in the
    footer is said in French."""
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    from client.app import TablierApp
    from tests.client.conftest import seeded_settings, until

    i18n.use("fr")
    app = TablierApp(settings=seeded_settings(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#language").focus()
        await pilot.press("enter")

        def keys() -> dict[str, str]:
            footer = app.screen.query_one(Footer)
            return {key.key: str(key.description) for key in footer.query(FooterKey)}

        await until(pilot, lambda: "escape" in keys(), "the list's escape in the footer")
        assert keys()["escape"] == "Fermer la liste"


# -- choosing the language ------------------------------------------------------------------


@pytest.mark.parametrize("module", [i18n, paths, typography], ids=lambda module: module.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize(
    ("explicit", "environ", "chosen"),
    [
        (None, {}, "en"),
        ("fr", {"TABLIER_LANG": "en", "LANG": "en_GB.UTF-8"}, "fr"),
        ("en", {"TABLIER_LANG": "fr"}, "en"),
        (None, {"TABLIER_LANG": "fr", "LANGUAGE": "en"}, "fr"),
        (None, {"LANGUAGE": "de:fr", "LC_ALL": "en_US.UTF-8"}, "fr"),
        (None, {"LC_ALL": "fr_BE.UTF-8", "LANG": "en_US.UTF-8"}, "fr"),
        (None, {"LC_MESSAGES": "fr_CH", "LANG": "en_US"}, "fr"),
        (None, {"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "fr"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {"TABLIER_LANG": "klingon", "LANG": "fr_CA"}, "fr"),
    ],
)
def test_the_language_is_the_first_that_names_one_of_ours(
    explicit: str | None, environ: dict[str, str], chosen: str
) -> None:
    assert i18n.choose(explicit, environ) == chosen


def test_counts_take_their_plural_in_each_language() -> None:
    def turns(count: int) -> str:
        return ngettext("{count} turn", "{count} turns", count).format(count=count)

    assert [turns(n) for n in (0, 1, 2)] == ["0 turns", "1 turn", "2 turns"]
    i18n.use("fr")
    assert [turns(n) for n in (0, 1, 2)] == ["0 tour", "1 tour", "2 tours"]
    assert i18n.format_number(1234567) == "1\u202f234\u202f567"
    assert i18n.decimal_symbol() == ","


def test_help_after_any_command_is_in_the_language_asked_there(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from client.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["play", "jacquet", "--lang", "fr", "--help"])
    assert exit_.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"utilisation{NBSP}: tablier play jacquet")
    assert "l'ordinateur joue les noirs" in shown
    assert "afficher cette aide et quitter" in shown


def test_the_json_interfaces_say_the_same_in_both_languages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """JSON is for programs: the same request gets the same bytes, whatever the language;
    a refused one too (its error stays English for the programs that read it)."""
    from client.cli import main
    from protocol.selfplay import selfplay

    log = tmp_path / "jacquet.tablier"
    selfplay("jacquet", {}, players=2, seed="json", start_time=0, log_path=log)
    commands = [
        ["engine", "goose", "play", "--players", "2", "--dice", "6-3,5-4,1-1"],
        ["engine", "jacquet", "moves", "--dice", "6-5", "--position",
         '{"turn": "white", "white": {"1": 15}, "black": {"1": 15}}'],
        ["log", "export", "--format", "json", str(log)],
        ["engine", "goose", "play", "--batch"],
    ]  # fmt: skip
    requests = '{"players": 2, "dice": ["6-3"]}\n{"players": 2}\nnot json\n'
    for command in commands:
        said = []
        for lang in ("en", "fr"):
            monkeypatch.setattr(sys, "stdin", io.StringIO(requests))
            assert main(["--lang", lang, *command]) == 0
            said.append(capsys.readouterr().out)
        assert said[0] == said[1] and said[0], command
    assert said[0].count('"error"') == 2


def test_the_text_report_of_an_analysis_speaks_french() -> None:
    from client.commands.analyze_text import points, signed, text

    i18n.use("fr")
    assert (points(40_000), signed(-1_250_000)) == ("0,040", "-1,250")
    assert text("total_loss") == "équité perdue en tout"


def test_the_goose_luck_table_keeps_its_columns_whatever_its_labels_say() -> None:
    """A French label longer than the English column ("tours perdus (hôtellerie, puits,
    prison)") widens the column instead of pushing its row's numbers off their column."""
    from client.commands.analyze_log import GooseLuck
    from client.commands.analyze_text import _goose_text

    i18n.use("fr")
    luck = (GooseLuck(0, 6, 0, 0, 5, 0), GooseLuck(1, 6, 2, 1, 6, 11))
    table = _goose_text(("Anne", "Bastien"), luck)[2:]
    assert "tours perdus (hôtellerie, puits, prison)" in table[2]
    assert len({len(row) for row in table}) == 1, table


# -- real processes -------------------------------------------------------------------------


def _tablier(*args: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = environment(home, **env)
    for variable in i18n.ENVIRONMENT:
        if variable not in env:
            environ.pop(variable, None)
    return subprocess.run([*TABLIER, *args], capture_output=True, text=True, env=environ,
                          stdin=subprocess.DEVNULL, cwd=ROOT, timeout=60)  # fmt: skip


def test_tablier_lang_fr_help_is_french(tmp_path: Path) -> None:
    shown = _tablier("--lang", "fr", "--help", home=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"utilisation{NBSP}: tablier [-h] [--lang {{en,fr}}] COMMANDE")
    assert "jouer une partie sur place" in shown.stdout
    assert "vérifier un journal de match" in shown.stdout


@pytest.mark.parametrize("command", [(), ("play",), ("host",), ("log",), ("engine",)])
def test_no_help_in_french_shows_a_none_under_its_group_headings(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """argparse asks for the translation of a missing group description (None): it used to
    come out as a line "None" under every heading of the French help (issue 29, item 10)."""
    shown = _tablier("--lang", "fr", *command, "--help", home=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "None" not in shown.stdout.split(), shown.stdout


def test_a_bad_flag_is_refused_in_the_locales_french(tmp_path: Path) -> None:
    refused = _tablier("play", "goose", "--bogus", home=tmp_path, LANG="fr_FR.UTF-8")
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (f"tablier{NBSP}: erreur{NBSP}: arguments non reconnus{NBSP}: "
                              "--bogus (voir --help)\n")  # fmt: skip


def test_a_bad_value_is_refused_in_french_and_lang_en_wins_over_the_locale(
    tmp_path: Path,
) -> None:
    french = _tablier("play", "goose", "--players", "40", home=tmp_path, TABLIER_LANG="fr")
    assert french.returncode == 2
    assert french.stderr == (f"tablier play{NBSP}: le jeu de l'oie se joue de 2 à 15 joueurs, "
                             "pas 40\n")  # fmt: skip
    english = _tablier("--lang", "en", "play", "goose", "--players", "40", home=tmp_path,
                       TABLIER_LANG="fr")  # fmt: skip
    assert english.stderr == "tablier play: the Goose is played by 2 to 15 players, not 40\n"


def test_numbers_are_read_and_refused_as_french_writes_them(tmp_path: Path) -> None:
    """A mistyped number is refused in French words (not argparse's "valeur int invalide"),
    and a decimal comma is read: 0,08 as 0.08."""
    from client.commands.play import _tutor_points

    refused = _tablier("--lang", "fr", "play", "jacquet", "--match-to", "deux", home=tmp_path)
    assert refused.stderr == (f"tablier play jacquet{NBSP}: erreur{NBSP}: argument --match-to"
                              f"{NBSP}: un nombre entier, pas 'deux' (voir --help)\n")  # fmt: skip
    assert _tutor_points("0,08") == _tutor_points("0.08") == 80_000


def test_a_french_and_an_english_tablier_write_the_same_log(tmp_path: Path) -> None:
    """The language is the reader's, never the match's: the same match, the same bytes."""
    logs = []
    for lang in ("fr", "en"):
        log = tmp_path / f"{lang}.tablier"
        played = _tablier("--lang", lang, "selfplay", "goose", "--players", "2",
                          "--seed", "i18n", "--start-time", "0", "--out", str(log),
                          home=tmp_path)  # fmt: skip
        assert played.returncode == 0, played.stderr
        logs.append(log.read_bytes())
        said = "gagne la poule de" if lang == "fr" else "wins the pot of"  # its result
        assert said in played.stdout, played.stdout
    assert logs[0] == logs[1]


def test_the_lobby_and_its_help_speak_french_in_a_real_terminal(tmp_path: Path) -> None:
    env = environment(tmp_path, TABLIER_LANG="fr")
    f1 = b"\x1bOP"
    keys = [("Quitter", f1), ("Fermer l'aide", CTRL_Q)]
    done = run_in_terminal([], env=env, keys=keys)
    assert done.code == 0, done.output
    for words in ("Jouer au jeu de l'oie", "Recevoir en réseau", "Match enregistré",
                  "Mise", "Amende", "Quitter", "Deux jeux de dés historiques français",
                  "Échap ou F1 pour revenir", "Fermer l'aide"):  # fmt: skip
        assert words in done.words, words


def test_a_replay_says_where_it_stands_in_french(tmp_path: Path) -> None:
    from protocol.selfplay import selfplay

    log = tmp_path / "goose.tablier"
    selfplay("goose", {}, players=2, seed="replay", start_time=0, log_path=log)
    done = run_in_terminal(["--lang", "fr", "replay", str(log)], env=environment(tmp_path),
                           keys=[("en pause", CTRL_Q)])  # fmt: skip
    assert done.code == 0, done.output
    assert "Pas 0/" in done.words
    assert "Fermer" in done.words


def test_the_end_screen_says_a_resignation_in_french() -> None:
    from client.screens.end import ending_summary
    from protocol.events import MatchEnded
    from protocol.games import GAMES

    i18n.use("fr")
    summary = ending_summary(GAMES["goose"], MatchEnded("resigned", winner=0, seat=1),
                             ("Ada", "Bob"), object(), None)  # type: ignore[arg-type]  # fmt: skip
    assert summary.title == f"Bob a abandonné{NBSP}: Ada gagne le match."


# -- sentences that bypass the catalogue ----------------------------------------------------

NOT_YET_CONVERTED: frozenset[str] = frozenset()
"""Modules whose sentences do not go through the catalogue yet: none (issue 18). A module put
here must still have a sentence to convert (the test below), and leaves once converted."""

ALLOWED: dict[tuple[str, str], str] = {
    ("client/screens/match_logs.py", "option-label list-title"): "CSS classes",
    ("client/commands/analyze.py", "{}.analysis.{}"): "a file name",
    ("client/commands/analyze.py", ".{}.part"): "a file name",
    ("client/commands/log.py", "log export"): "a command's name",
    ("client/commands/terminal.py", "tablier {}"): "a command's name",
    ("client/commands/scripting.py", "the request is not valid JSON: {}"):
        "a JSON answer's error: the JSON interfaces stay language-neutral",
    ("client/i18n.py", "Tablier speaks {}, not {}"): "a programming error, never shown",
    ("client/widgets/tokens.py", "bold {} on {}"): "a Rich style",
    ("client/screens/lobby.py", "#{}-error"): "a widget's id",
    ("client/screens/lobby.py", "seat-{}"): "a widget's id",
    ("client/screens/lobby.py", "option-label list-title"): "CSS classes",
    ("client/widgets/replay_bar.py", "type_digit('{}')"): "a key's action",
    ("client/screens/jacquet.py", "type_play('{}')"): "a key's action",
    ("client/widgets/jacquet_board.py", "{}off"): "the tray, as typed plays write it (21/off)",
    ("client/widgets/unfinished_games.py", "option-label list-title"): "CSS classes",
    ("client/widgets/saved_seats.py", "option-label list-title"): "CSS classes",
    ("client/widgets/ledger.py", "italic yellow"): "a Rich style",
    ("client/net/room.py", "ws://127.0.0.1:{}/"): "a relay's address",
    ("client/screens/room.py", "#invite-{}"): "a widget's id",
    ("client/screens/room.py", "invite-{}"): "a widget's id",
    ("client/screens/room.py", "invite-line-{}"): "a widget's id",
    ("client/screens/room.py", "#invite-line-{}"): "a widget's id",
    ("client/screens/room.py", "invite-label-{}"): "a widget's id",
    ("client/screens/room.py", "#invite-label-{}"): "a widget's id",
    ("client/screens/room.py", "bold red"): "a Rich style",
    ("client/net/wire.py", "not a payload: {}"): "a programming error, never shown",
    ("client/net/wire.py", "{}: a payload is a dataclass"): "a programming error, never shown",
    ("client/net/wire.py", "{}.{}: a payload field is an int, bytes or str"):
        "a programming error, never shown",
    ("client/net/wire.py", "two payload kinds share a number: {}"):
        "a programming error, never shown",
    ("client/net/game.py", "the match has begun"): "an assertion, never shown",
    ("client/net/room.py", "ws://{}:{}/"): "a relay's address",
    ("client/widgets/connection.py", "bold green"): "a Rich style",
    ("client/widgets/connection.py", "bold yellow"): "a Rich style",
    ("client/widgets/connection.py", "bold red"): "a Rich style",
    ("client/widgets/connection.py", "bold magenta"): "a Rich style",
    ("client/elision.py", r"\b([Dd]|[Qq]u)e (?={})"): "a regular expression",
}  # fmt: skip
"""The sentence-like literals of converted modules that are rightly not translated."""

TRANSLATORS = {"_", "N_", "ngettext", "pgettext"}
SHOWN = {"Button", "update", "notify"}
"""Calls whose first argument a person reads, even a single word."""
SHOWN_KEYWORDS = {"placeholder", "title", "tooltip", "label"}
"""Keyword arguments a person reads, even a single word (an input's placeholder)."""
ENGINE_ERRORS = {"InvalidOptionsError", "NotationError", "InvalidPositionError"}
"""Raised for ``tablier engine``'s JSON ``{"error": ...}`` answers, which stay English."""


def sentences(source: str) -> Iterator[str]:
    """Every literal of *source* that reads like words for a person (two words, or an
    f-string with a word in it, or a key binding's label) outside a docstring, a
    translator's call, a dict key or an index; an f-string comes as its text with ``{}`` for
    each value."""
    tree = ast.parse(source)
    for node in ast.walk(tree):  # the footer's labels: Binding(keys, action, "label", ...)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Binding":
            label = node.args[2] if len(node.args) > 2 else None
            if isinstance(label, ast.Constant) and isinstance(label.value, str):
                yield label.value
        # What a widget shows, however short: Button("Open"), .update("Thinking…").
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            shown = node.args[0].value
            if name in SHOWN and isinstance(shown, str) and re.search(r"[A-Za-z]{2}", shown):
                yield shown
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                value = keyword.value
                if (keyword.arg in SHOWN_KEYWORDS and isinstance(value, ast.Constant)
                        and isinstance(value.value, str)
                        and re.search(r"[A-Za-z]{2}", value.value)):  # fmt: skip
                    yield value.value
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            exempt.add(id(node.value))  # docstrings
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in TRANSLATORS | ENGINE_ERRORS:
                exempt.update(id(inner) for inner in ast.walk(node))
        elif isinstance(node, ast.Dict):
            exempt.update(id(key) for key in node.keys if key is not None)
        elif isinstance(node, ast.Subscript):
            exempt.add(id(node.slice))
        elif isinstance(node, ast.JoinedStr):
            exempt.update(id(part) for part in node.values)
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if re.search(r"[A-Za-z]{2,} [A-Za-z]", node.value):
                yield node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else "{}"
                           for part in node.values)  # fmt: skip
            if re.search(r"[A-Za-z]{2,}", text):
                yield text


def client_modules() -> list[str]:
    return sorted(str(path.relative_to(ROOT)) for path in (ROOT / "client").rglob("*.py"))


def test_converted_modules_say_nothing_that_bypasses_the_catalogue() -> None:
    bypassing = [
        (module, text)
        for module in client_modules()
        if module not in NOT_YET_CONVERTED
        for text in sentences((ROOT / module).read_text(encoding="utf-8"))
        if (module, text) not in ALLOWED
    ]
    assert bypassing == []


def test_the_list_of_modules_not_yet_converted_is_honest() -> None:
    """Every module named there exists and still has a sentence to convert: a module once
    converted leaves the list (and is then held to it by the test above)."""
    for module in sorted(NOT_YET_CONVERTED):
        assert module in client_modules(), module
        assert any(sentences((ROOT / module).read_text(encoding="utf-8"))), module


def test_the_scan_finds_a_sentence_left_in_english() -> None:
    found = sorted(sentences('print(f"cannot read {path}")\nhelp = "the log file"\n'
                             'ok = _("wrapped words")\n"""a docstring here"""\n'
                             'keys = [Binding("q", "quit", "Quit")]\n'
                             'yield Button("Open")\nlabel.update("Thinking…")\n'
                             'Input(placeholder="tablier://host")\n'))  # fmt: skip
    assert found == ["Open", "Quit", "Thinking…", "cannot read {}", "tablier://host",
                     "the log file"]  # fmt: skip


def test_french_elides_de_and_que_before_a_name_that_starts_with_a_vowel() -> None:
    """ "la part de dés d'Anne", in the protocol's clauses as in the client's own sentences;
    "de Bruno" and "de Hugo" (an h may be aspirated) stay whole, and English is untouched."""
    share = Clause.of(
        N_(
            "{name}'s dice share for throw {throw} does not follow from their committed chain"
            " (a forged or replayed share)"
        ),
        name="Anne",
        throw=3,
    )
    rematch = "joined the rematch as {name}, who did not play the match before"
    i18n.use("fr")
    try:
        assert i18n.say(share).startswith("la part de dés d'Anne pour le jet 3 ")
        assert "de Bruno pour" in i18n.say(replace(share, fields=(("name", "Bruno"), ("throw", 3))))
        assert "de Hugo pour" in i18n.say(replace(share, fields=(("name", "Hugo"), ("throw", 3))))
        assert "en tant qu'Émile," in _(rematch).format(name="Émile")
    finally:
        i18n.use("en")
    assert i18n.say(share).startswith("Anne's dice share for throw 3 ")
    assert (
        _(rematch).format(name="Ada")
        == "joined the rematch as Ada, who did not play the match before"
    )
