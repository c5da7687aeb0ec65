# Shared by scripts/run and scripts/test: make .venv exist and hold the locked versions
# (requirements/run.txt, or requirements/test.txt for the tests) and the project itself,
# reinstalling only when pyproject.toml or that lock changed.
# Usage (sourced): TABLIER_LOCK="test" . scripts/_bootstrap.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
python="${PYTHON:-python3}"
lock="${TABLIER_LOCK:-run}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else
        f"Tablier needs Python 3.11 or newer; this is {sys.version.split()[0]}.")'
    "$python" -m venv "$venv"
fi

# The stamp names the pyproject.toml and lock it was installed from. The test lock holds the
# run lock's versions and more, so a test install also serves a plain run.
stamp_for() { cat "$root/pyproject.toml" "$root/requirements/$1.txt" | sha256sum | cut -c1-16; }
stamp="$venv/.installed-$lock-$(stamp_for "$lock")"
served="$stamp"
if [ "$lock" = run ] && [ -e "$venv/.installed-test-$(stamp_for test)" ]; then
    served="$venv/.installed-test-$(stamp_for test)"
fi
if [ ! -e "$served" ]; then
    pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
    # Exactly the locked versions, each checked against its hash; then the project alone.
    "${pip[@]}" install --require-hashes -r "$root/requirements/$lock.txt"
    "${pip[@]}" install --no-deps --no-build-isolation -e "$root"
    rm -f "$venv"/.installed-*
    touch "$stamp"
fi
