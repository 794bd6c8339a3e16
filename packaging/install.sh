#!/usr/bin/env bash
# Installs VoxDesk into a virtual environment with the PyTorch build that fits this machine:
#   AMD GPU (amdgpu kernel driver: /dev/kfd, or a display device with PCI vendor 0x1002)
#       -> torch from PyTorch's ROCm wheel index, with --index-url so pip cannot prefer a CUDA wheel;
#   anything else -> torch from the default index (a CUDA build that also runs on the CPU).
# Idempotent: a second run with nothing changed only checks and returns.
#
# On an AMD machine the ROCm index is chosen by the card's gfx target and the installed ROCm release
# (desktop/core/gpu/wheels.py: RDNA4 and Strix Halo need the ROCm 7 builds), and CTranslate2's ROCm wheel
# is installed from CTranslate2's GitHub releases where it has a build for the card, checksum checked
# (desktop/core/gpu/ct2_rocm_wheel.py); when it cannot be fetched the CPU wheel stays and a sentence
# says which command to run.
#
# Usage: packaging/install.sh [--venv DIR] [--extras test]
# Environment: VOXDESK_TORCH=rocm|default forces the choice; VOXDESK_ROCM_INDEX overrides the ROCm index;
#   VOXDESK_CT2_ROCM_BASE replaces https://github.com/OpenNMT/CTranslate2/releases/download (a company
#   mirror with the same layout, and <archive>.sha256 beside each archive); VOXDESK_CT2_ROCM_SHA256 gives
#   the archive's checksum; VOXDESK_CT2_ROCM=no keeps the CPU build of CTranslate2.
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
  # The table in desktop/core/gpu/wheels.py, by the card's gfx target and the installed ROCm release.
  PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" "$python" -m desktop.core.gpu.wheels torch-index \
    || echo "https://download.pytorch.org/whl/rocm7.1"
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
      index=$(rocm_index)
      echo "VoxDesk: AMD GPU found, installing PyTorch for ROCm from $index"
      "${pip[@]}" install --index-url "$index" torch torchaudio
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

# faster-whisper on the GPU: CTranslate2's ROCm wheel replaces the CPU one where a build fits the card.
ct2_on_gpu() {
  "$venv/bin/python" -c 'import ctranslate2, sys; sys.exit(0 if ctranslate2.get_cuda_device_count() > 0 else 1)' \
    2>/dev/null
}
if [ "$flavour" = rocm ] && [ "${VOXDESK_CT2_ROCM:-yes}" != no ] && ! ct2_on_gpu; then
  wheels="$venv/voxdesk-wheels"
  if wheel=$("$venv/bin/python" -m desktop.core.gpu.ct2_rocm_wheel --dest "$wheels"); then
    echo "VoxDesk: installing $(basename "$wheel")"
    "${pip[@]}" install --quiet --no-deps --force-reinstall "$wheel"
  fi
fi
