#!/usr/bin/env bash
# The GPU figures of docs/scaling.md, in one run on a machine with a GPU,
# JAX and no TensorFlow (what we are lent). Before it, on a machine with
# the default data (TensorFlow, the Bible modules, apt's lists):
#
#   mkdir -p .gpu
#   python -m benchmarks.training_throughput --prepare .gpu/throughput.npz
#   KERAS_BACKEND=jax python -m benchmarks.training_throughput \
#       --inputs .gpu/throughput.npz --json .gpu/cpu.json
#
# then, on the GPU machine, from the repository's root (keras, and
# keras-hub for the samplers, installed or on PYTHONPATH):
#
#   OUT=folder bash benchmarks/gpu.sh
#
# Writes the tables to $OUT (default /tmp/gpu-figures); runs every part,
# then exits non-zero if one failed.
set -uo pipefail
status=0
out=${OUT:-/tmp/gpu-figures}
mkdir -p "$out"
export KERAS_BACKEND=jax PYTHONUNBUFFERED=1
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv | tee "$out/gpu.txt"
python3 -m benchmarks.training_throughput --inputs .gpu/throughput.npz \
    --against .gpu/cpu.json --steps 240 --matmul-size 8192 \
    --json "$out/training.json" 2>&1 | tee "$out/training.md" || status=1
python3 -m benchmarks.samplers --batch 64 --repeats 5 --rows 64 256 1024 \
    2>&1 | tee "$out/samplers.md" || status=1
python3 -m benchmarks.samplers --batch 512 --repeats 5 \
    2>&1 | tee "$out/samplers512.md" || status=1
exit $status
