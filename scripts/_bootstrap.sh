# shellcheck shell=bash
# Sourced by scripts/run and scripts/test: prepares this checkout on a fresh Debian machine
# (Python 3.11 and npm present) and is cheap to run again.
#   - .venv with requirements.txt installed (re-installed only when requirements.txt changes)
#   - bun 1.4.4 for Reflex's frontend build, installed with npm into .tools/bun
#   - axe-core (the browser tests' accessibility checker), installed with npm into .tools/axe-core
#   - exports PATH (.venv/bin, bun) and REFLEX_USE_SYSTEM_BUN=1
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
cd "$ROOT"

BUN_VERSION="1.4.4"
VENV="$ROOT/.venv"
BUN_DIR="$ROOT/.tools/bun"
AXE_VERSION="4.14.1"
AXE_DIR="$ROOT/.tools/axe-core"

_say() { printf '==> %s\n' "$*" >&2; }
_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# --- Python virtual environment ----------------------------------------------------------
if ! "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    PYTHON=""
    for candidate in python3.11 python3; do
        if command -v "$candidate" >/dev/null 2>&1; then PYTHON="$candidate"; break; fi
    done
    [ -n "$PYTHON" ] || _die "Python 3.11 is needed (apt-get install python3 python3-venv)."
    "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
        || _die "$PYTHON is $("$PYTHON" -V 2>&1); Python 3.11 or newer is needed."
    if [ -e "$VENV" ]; then
        _say "Re-creating .venv (its Python no longer runs) with $("$PYTHON" -V 2>&1)"
    else
        _say "Creating .venv with $("$PYTHON" -V 2>&1)"
    fi
    "$PYTHON" -m venv --clear "$VENV" \
        || _die "could not create $VENV (is it writable? on Debian: apt-get install python3-venv)."
fi

REQ_HASH="$(sha256sum "$ROOT/requirements.txt" | cut -d' ' -f1)"
if [ "$(cat "$VENV/.requirements.sha256" 2>/dev/null || true)" != "$REQ_HASH" ]; then
    _say "Installing Python packages from requirements.txt (first run or requirements changed)"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$ROOT/requirements.txt" \
        || _die "pip install -r requirements.txt failed (see above)."
    printf '%s\n' "$REQ_HASH" > "$VENV/.requirements.sha256"
fi

# --- bun (Reflex builds the frontend with it) ----------------------------------------------
if [ "$("$BUN_DIR/node_modules/.bin/bun" --version 2>/dev/null || true)" != "$BUN_VERSION" ]; then
    command -v npm >/dev/null 2>&1 || _die "npm is needed to install bun (apt-get install npm)."
    _say "Installing bun $BUN_VERSION into .tools/bun"
    mkdir -p "$BUN_DIR"
    npm install --prefix "$BUN_DIR" --no-audit --no-fund --loglevel=error "bun@$BUN_VERSION" >/dev/null \
        || _die "npm install bun@$BUN_VERSION failed (see above)."
    "$BUN_DIR/node_modules/.bin/bun" --version >/dev/null 2>&1 \
        || _die "bun was installed but does not run ($BUN_DIR/node_modules/.bin/bun)."
fi

# --- axe-core (tests/e2e/test_accessibility_e2e.py loads its axe.min.js into the page) ----------
if [ "$(sed -n 's/^  "version": "\([0-9.]*\)",$/\1/p' "$AXE_DIR/node_modules/axe-core/package.json" 2>/dev/null | head -n 1)" != "$AXE_VERSION" ]; then
    command -v npm >/dev/null 2>&1 || _die "npm is needed to install axe-core (apt-get install npm)."
    _say "Installing axe-core $AXE_VERSION into .tools/axe-core"
    mkdir -p "$AXE_DIR"
    npm install --prefix "$AXE_DIR" --no-audit --no-fund --loglevel=error "axe-core@$AXE_VERSION" >/dev/null \
        || _die "npm install axe-core@$AXE_VERSION failed (see above)."
fi
export AXE_CORE_JS="$AXE_DIR/node_modules/axe-core/axe.min.js"

export REFLEX_USE_SYSTEM_BUN=1
export PATH="$BUN_DIR/node_modules/.bin:$VENV/bin:$PATH"
export VIRTUAL_ENV="$VENV"
