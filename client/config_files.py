"""The files Tablier keeps in its config folder (:func:`client.i18n.config_dir`): the
language chosen in the lobby and the player's persistent identity.

Both are written as every file Tablier writes (:func:`client.private_file.write_whole`):
whole or not at all, through a temporary nobody can guess, opened ``O_EXCL`` (so never a
link planted there), renamed over the name. The protocol only makes and uses keys
(:mod:`protocol.identity`, sans I/O); keeping one in a file is this edge's job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from client.i18n import LANGUAGE_FILE, LANGUAGES, config_dir
from client.private_file import write_private, write_whole
from engine.clause import N_, Clause
from protocol.errors import LocalProtocolError
from protocol.identity import KEY_BYTES, Identity, RandomSource

IDENTITY_FILE: Final = "identity.ed25519"


def save_language(folder: Path, language: str) -> None:
    """Keep *language* in *folder* for the next start (raises OSError when it cannot be
    written, :class:`~client.private_file.RefusedDestination` if a link or a folder holds
    its name)."""
    assert language in LANGUAGES  # one the lobby offers, spoken already (i18n.use)
    write_whole(folder / LANGUAGE_FILE, (language + "\n").encode("ascii"), make_folder=True)


def load_or_create_identity(random_source: RandomSource, folder: Path | None = None) -> Identity:
    """The persistent identity in *folder* (default: the config folder), made if absent.

    The key is stored raw (32 bytes, mode 0600) in ``identity.ed25519``; a file of another size
    is refused with an error naming it rather than silently replaced.
    """
    path = (folder if folder is not None else config_dir()) / IDENTITY_FILE
    if path.exists():
        data = path.read_bytes()
        if len(data) != KEY_BYTES:
            raise LocalProtocolError(Clause.of(N_("{path} is not a Tablier identity (it should be "
                                                  "{expected} bytes long, not {size}); move it "
                                                  "away to create a new one"), path=str(path),
                                               size=len(data), expected=KEY_BYTES))  # fmt: skip
        return Identity(data)
    identity = Identity.generate(random_source)
    write_private(path, identity.private_bytes())
    return identity
