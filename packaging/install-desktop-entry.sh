#!/usr/bin/env bash
# Adds VoxDesk to the desktop's application menu for this user (after `make setup`);
# `voxdesk --uninstall-desktop-entry` removes it again.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
exec "$here/.venv/bin/voxdesk" --install-desktop-entry
