#!/usr/bin/env bash
# The GPU check: engine checks on the GPU (with the known-answer test and faster-whisper on the GPU where
# this machine's CTranslate2 has a GPU build, else it says skipped), then VoxDesk's batched windows against
# openai-whisper's own decoding (whisper.transcribe) and against the same windows one at a time.
#
#   benchmarks/gpu_check.sh BUNDLE [--cpu] [--out FILE]
#
# BUNDLE is the folder `make gpu-bundle` writes (build/gpu-bundle). The machine needs Python with
# PyTorch (CUDA or ROCm) and transformers; nothing is downloaded and nothing is installed outside a
# temporary folder, removed at the end. --cpu: a dry run on the processor. The Markdown table goes to
# stdout and to FILE (default: gpu-check.md in the current folder). Stops after 8 minutes.
set -euo pipefail

if [[ $# -lt 1 || ! -d "$1" ]]; then
    echo "usage: $0 BUNDLE [--cpu] [--out FILE]   (BUNDLE: the folder make gpu-bundle writes)" >&2
    exit 2
fi
bundle=$(cd "$1" && pwd)
shift
python=${PYTHON:-python3}
if ! "$python" -c "import torch" 2>/dev/null; then
    echo "$python cannot import torch; set PYTHON to the Python that has PyTorch." >&2
    exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/voxdesk-gpu-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=$(pwd)/gpu-check.md
args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --out) out=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done

cd "$work"
HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$bundle/code" \
    timeout --signal=TERM --kill-after=10 480 \
    "$python" -m benchmarks.gpu_checks --bundle "$bundle" --work "$work" --out "$out" "${args[@]}"
