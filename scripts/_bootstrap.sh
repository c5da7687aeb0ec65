# Shared by scripts/run and scripts/test: make .venv exist and hold the project with the
# requested extras, reinstalling only when pyproject.toml or the extras changed.
# Usage (sourced): TABLIER_EXTRAS="test" . scripts/_bootstrap.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
python="${PYTHON:-python3}"
extras="${TABLIER_EXTRAS:-}"

if [ ! -x "$venv/bin/python" ]; then
    "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else
        f"Tablier needs Python 3.11 or newer; this is {sys.version.split()[0]}.")'
    "$python" -m venv "$venv"
fi

# The stamp names the pyproject.toml it was installed from; any stamp for the current file
# serves a plain run (a test install includes the runtime), only a test stamp serves tests.
project_hash="$(sha256sum "$root/pyproject.toml" | cut -c1-16)"
stamp="$venv/.installed-$project_hash-${extras:-base}"
if [ -n "$extras" ]; then
    wanted="$stamp"
else
    wanted="$(ls "$venv/.installed-$project_hash-"* 2>/dev/null | head -n 1 || true)"
fi
if [ -z "$wanted" ] || [ ! -e "$wanted" ]; then
    spec="$root"
    [ -n "$extras" ] && spec="$root[$extras]"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$spec"
    touch "$stamp"
fi
