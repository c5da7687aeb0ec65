"""Textual's own words in Tablier's language: its command palette and the commands it adds
there, the keys every screen binds, and the names of keys as the footer and help write them.

Textual writes these in English, out of any catalogue; they are listed here as Textual
writes them (``tests/client/test_i18n.py`` checks them against the installed Textual) so
that ``pybabel extract`` puts them in Tablier's, and :class:`client.app.TablierApp` says them
in the language in use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from textual.app import SystemCommand

from client.i18n import N_, _, pgettext

WORDS: tuple[str, ...] = (
    N_("Search for commands…"),
    N_("Search for themes…"),
    N_("Theme"),
    N_("Change the current theme"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Focus Next"),
    N_("Focus Previous"),
    N_("Copy selected text"),
    N_("No matches found"),  # said by client.widgets.palette, as Textual's palette does
    N_("Dismiss menu"),
)
"""What Textual says in the palette (its commands' titles and help, its placeholders) and
names its own keys (a screen's tab, shift+tab and ctrl+c, a select's open list's escape)."""

SCREENSHOT = "Screenshot"
"""Textual's screenshot command, whose notices (English, from deep in Textual) Tablier
replaces by its own."""
QUIT = "Quit"
"""Textual's quit, left out of the palette: Tablier offers its own (the same words as its
key's, asking first mid-game), once."""
KEYS = "Keys"
"""Textual's key panel, left out of the palette: it lists the keys with their English
descriptions (Tablier translates them where it draws them), and F1's help lists them all
in the reader's language."""


def key_name(display: str) -> str:
    """A key as Textual displays it ("esc", "space", "^q", "shift+tab"), named as a keyboard
    of the language in use labels it ("Échap", "espace")."""
    names = {
        "esc": pgettext("key", "esc"),
        "space": pgettext("key", "space"),
        "tab": pgettext("key", "tab"),
        "shift": pgettext("key", "shift"),
        "home": pgettext("key", "home"),
        "end": pgettext("key", "end"),
        "pgup": pgettext("key", "pgup"),
        "pgdn": pgettext("key", "pgdn"),
        "del": pgettext("key", "del"),
    }
    return "+".join(names.get(part, part) for part in display.split("+"))


def system_commands(
    commands: Iterable[SystemCommand], screenshot: Callable[[], object]
) -> Iterator[SystemCommand]:
    """Textual's own palette commands in the language in use; its screenshot's done by
    *screenshot*, which says where it went in the same language."""
    for command in commands:
        if command.title in (KEYS, QUIT):
            continue
        if command.title == SCREENSHOT:
            yield SystemCommand(_("Screenshot"), _("Save a picture of the screen (SVG)"),
                                screenshot, command.discover)  # fmt: skip
        else:
            yield command._replace(title=_(command.title), help=_(command.help))
