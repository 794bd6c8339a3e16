#!/usr/bin/env bash
# Installs the system packages VoxDesk needs (the list: resources/system-packages.txt).
#   packaging/system-packages.sh app    what the window needs (PortAudio, Qt's X11 libraries, CJK fonts, espeak-ng)
#   packaging/system-packages.sh test   that, plus what the test suite uses (PulseAudio, sox)
# Quick when everything is there: one dpkg-query, no apt-get. As root it runs apt-get; as a user
# with sudo, sudo apt-get (sudo may ask for the password); otherwise it stops with one sentence
# that names the packages and the command, before anything else runs.
set -euo pipefail

role=${1:-app}
case "$role" in app|test) ;; *) echo "system-packages.sh: the role must be app or test" >&2; exit 2 ;; esac
list="$(cd "$(dirname "$0")/.." && pwd)/resources/system-packages.txt"

wanted=()
while read -r pkg_role package _; do
  case "$pkg_role" in ''|\#*) continue ;; esac
  if [ "$pkg_role" = app ] || [ "$role" = test ]; then wanted+=("$package"); fi
done < "$list"

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "VoxDesk: this system has no apt. Install the equivalents of these Debian/Ubuntu packages with" \
       "your distribution's package manager, then run this again: ${wanted[*]}" >&2
  exit 1
fi

missing=()
# dpkg-query exits 1 when it has never heard of a package: that is an answer here, not a failure.
installed=" $( (dpkg-query -W -f='${db:Status-Status} ${Package}\n' "${wanted[@]}" 2>/dev/null || true) |
  awk '$1 == "installed" {print $2}' | tr '\n' ' ') "
for package in "${wanted[@]}"; do
  [[ "$installed" == *" $package "* ]] || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
  apt=(apt-get)
elif command -v sudo >/dev/null; then
  echo "VoxDesk needs these system packages: ${missing[*]}. Installing them with sudo (it may ask for your password)."
  apt=(sudo apt-get)
else
  echo "VoxDesk needs these system packages, and installing them needs administrator rights." \
       "Ask your administrator to run: sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${apt[@]}" update -qq
"${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "VoxDesk: installed ${missing[*]}"
