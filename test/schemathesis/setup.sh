#!/usr/bin/env bash
# Installs Schemathesis (pinned) into .venv-schemathesis/ at the repository root, where the
# schemathesis test looks for it. Safe to run again: an existing venv with the pinned
# version is kept. Needs python3 (3.9 or later) and network access to PyPI.
set -euo pipefail
cd "$(dirname "$0")/../.."

SCHEMATHESIS_VERSION="4.32.5"
VENV_DIR=".venv-schemathesis"

if [[ -x "${VENV_DIR}/bin/st" ]] &&
  [[ "$("${VENV_DIR}/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null)" == "${SCHEMATHESIS_VERSION}" ]]; then
  echo "schemathesis ${SCHEMATHESIS_VERSION} already installed in ${VENV_DIR}"
  exit 0
fi

python3 -m venv --clear "${VENV_DIR}"
"${VENV_DIR}/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==${SCHEMATHESIS_VERSION}"
echo "schemathesis $("${VENV_DIR}/bin/st" --version 2>/dev/null | tail -1) installed in ${VENV_DIR}"
