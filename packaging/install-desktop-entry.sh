#!/usr/bin/env bash
# Adds VoxDesk to the desktop's application menu for this user (after `make setup`).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
apps="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
mkdir -p "$apps" "$icons"
cp "$here/resources/icons/app.svg" "$icons/voxdesk.svg"
sed "s|^Exec=voxdesk|Exec=$here/.venv/bin/voxdesk|" "$here/packaging/voxdesk.desktop" > "$apps/voxdesk.desktop"
echo "VoxDesk is now in the application menu."
