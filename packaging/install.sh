#!/usr/bin/env bash
# Installs VoxDesk into a virtual environment with the PyTorch build that fits this machine:
#   AMD GPU (amdgpu kernel driver: /dev/kfd, or a display device with PCI vendor 0x1002)
#       -> torch from PyTorch's ROCm wheel index, with --index-url so pip cannot prefer a CUDA wheel;
#   anything else -> torch from the default index (a CUDA build that also runs on the CPU).
# Idempotent: a second run with nothing changed only checks and returns.
#
# Usage: packaging/install.sh [--venv DIR] [--extras test]
# Environment: VOXDESK_TORCH=rocm|default forces the choice; VOXDESK_ROCM_INDEX overrides the ROCm index.
set -euo pipefail

venv=.venv
extras=""
while [ $# -gt 0 ]; do
  case "$1" in
    --venv) venv="$2"; shift 2 ;;
    --extras) extras="$2"; shift 2 ;;
    *) echo "install.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

here=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
torch_version=2.14.1

has_amd_gpu() {
  [ -e /dev/kfd ] && return 0
  for vendor in /sys/class/drm/card*/device/vendor; do
    [ -r "$vendor" ] && [ "$(cat "$vendor")" = "0x1002" ] && return 0
  done
  return 1
}

rocm_index() {
  if [ -n "${VOXDESK_ROCM_INDEX:-}" ]; then echo "$VOXDESK_ROCM_INDEX"; return; fi
  local release=""
  local info="${ROCM_PATH:-/opt/rocm}/.info/version"
  [ -r "$info" ] && release=$(cut -d. -f1,2 < "$info")
  # The wheels bundle their own HIP runtime; match an installed ROCm release when there is one.
  case "$release" in
    6.*) echo "https://download.pytorch.org/whl/rocm6.4" ;;
    *) echo "https://download.pytorch.org/whl/rocm7.1" ;;
  esac
}

flavour=${VOXDESK_TORCH:-}
if [ -z "$flavour" ]; then
  if has_amd_gpu; then flavour=rocm; else flavour=default; fi
fi

[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check)

installed_torch=$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("torch"))' 2>/dev/null || true)
case "$flavour" in
  rocm)
    if [[ "$installed_torch" != *rocm* ]]; then
      echo "VoxDesk: AMD GPU found, installing PyTorch for ROCm from $(rocm_index)"
      "${pip[@]}" install --index-url "$(rocm_index)" torch torchaudio
    fi
    ;;
  default)
    if [ -z "$installed_torch" ]; then
      echo "VoxDesk: installing PyTorch $torch_version"
      "${pip[@]}" install "torch==$torch_version"
    fi
    ;;
  *) echo "install.sh: VOXDESK_TORCH must be rocm or default" >&2; exit 2 ;;
esac

target="$here"
[ -n "$extras" ] && target="$here[$extras]"
"${pip[@]}" install --quiet -e "$target"
# The speaker check's encoder. Its metadata asks for webrtcvad, an sdist that no longer builds with
# current setuptools; pyproject.toml lists its real needs, with webrtcvad-wheels for that module.
"${pip[@]}" install --quiet --no-deps "Resemblyzer==0.1.4"
