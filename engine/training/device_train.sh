#!/usr/bin/env bash
# Teacher training, then distillation into a smaller student, on a CUDA machine with no
# network, then ONNX int8 export of both (see models/clearnote-ner-minilm/README.md).
# Expects, relative to the repository root: .carry/minilm (the base encoder, fp16 safetensors
# are enough), .carry/data/mts_dialog_sections.jsonl, .whl/faker-*.whl.
# Usage: N_TRAIN=40000 EPOCHS=3 S_EPOCHS=2 LAYERS=3 bash engine/training/device_train.sh OUTDIR
set -euo pipefail
OUTDIR=${1:?output dir}
N_TRAIN=${N_TRAIN:-40000}; N_DEV=${N_DEV:-1000}
EPOCHS=${EPOCHS:-3}; T_MIN=${T_MIN:-5}
S_EPOCHS=${S_EPOCHS:-2}; S_MIN=${S_MIN:-3}; LAYERS=${LAYERS:-3}
BATCH=${BATCH:-32}; WORKERS=${WORKERS:-14}; SEED=${SEED:-13}
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
export PYTHONPATH=/tmp/site:$PWD CLEARNOTE_SHARED_DATA=$PWD/.carry/data
python3 -c "import torch, transformers, onnxruntime; print('torch', torch.__version__, 'transformers', transformers.__version__, 'ort', onnxruntime.__version__, torch.cuda.get_device_name(0))"
common=(--encoder .carry/minilm --seed "$SEED" --n-train "$N_TRAIN" --n-dev "$N_DEV" --device cuda
        --workers "$WORKERS" --batch "$BATCH" --half-checkpoint --log-every 200)
python3 -m engine.training.train --out /tmp/teacher "${common[@]}" --epochs "$EPOCHS" --minutes "$T_MIN"
python3 -m engine.training.export --ckpt /tmp/teacher --out "$OUTDIR/teacher" --encoder .carry/minilm
if [ "$LAYERS" -gt 0 ]; then
  python3 -m engine.training.train --out /tmp/student "${common[@]}" --epochs "$S_EPOCHS" \
    --minutes "$S_MIN" --layers "$LAYERS" --teacher /tmp/teacher
  python3 -m engine.training.export --ckpt /tmp/student --out "$OUTDIR/student" --encoder .carry/minilm
fi
