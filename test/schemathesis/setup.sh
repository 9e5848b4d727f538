#!/usr/bin/env bash
# Installs Schemathesis (pinned) into .venv-schemathesis/ at the repository root, where
# test/schemathesis/schemathesis.test.ts looks for it. Run it once after cloning; .ci/run
# runs it in CI. Running it again keeps a venv that already holds the pinned version.
# Needs Python 3.11 or later (PYTHON=/path/to/python3.x picks another interpreter) and
# access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/../.."

SCHEMATHESIS_VERSION="4.32.5"
VENV_DIR=".venv-schemathesis"
PYTHON="${PYTHON:-python3}"

installed_version() {
  "${VENV_DIR}/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null || true
}

if [[ -x "${VENV_DIR}/bin/st" && "$(installed_version)" == "${SCHEMATHESIS_VERSION}" ]]; then
  echo "schemathesis ${SCHEMATHESIS_VERSION} already installed in ${VENV_DIR}"
  exit 0
fi

if ! "${PYTHON}" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "error: schemathesis ${SCHEMATHESIS_VERSION} needs Python 3.11 or later; ${PYTHON} is $("${PYTHON}" --version 2>&1)." >&2
  echo "       Run again with PYTHON=/path/to/python3.11 (or later)." >&2
  exit 1
fi

"${PYTHON}" -m venv --clear "${VENV_DIR}"
"${VENV_DIR}/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==${SCHEMATHESIS_VERSION}"
echo "schemathesis $(installed_version) installed in ${VENV_DIR}"
