#!/usr/bin/env bash
# Fine-tune the shipped model on a CUDA machine with no network: several variants in one call,
# each carried back as one packed checkpoint of under 16 MiB (engine.training.transport).
# The warm start is recovered there from models/clearnote-ner-minilm (it travels with the
# repository), so only small files are carried, relative to the repository root:
#   .carry/enc/{config.json,tokenizer.json}  the base encoder's config (no weights needed)
#   .carry/gen/{train.jsonl.gz,dev.jsonl}     a generated corpus (engine.training.corpus)
# and, named by TEACHER_ONLY or EXTRA, text learned from the teacher's soft labels only, or
# from its gold and the soft labels (engine.training.mix_corpus).
# Usage: GOLD="notes.jsonl ..." EXTRA=... VARIANTS="a b" bash engine/training/device_finetune.sh OUT
# A variant is NAME:COPIES:ALPHA:LR:EPOCHS; COPIES lists the casings of the hand-written dev
# notes (gold only), joined by '+'. Locally, DEVICE=cpu and a tiny STEPS make a dry run.
set -euo pipefail
OUTDIR=${1:?output dir}
DEVICE=${DEVICE:-cuda}; BATCH=${BATCH:-32}; WORKERS=${WORKERS:-12}; STEPS=${STEPS:-0}
MINUTES=${MINUTES:-2}; PY=${PY:-python3}; WORK=${WORK:-/tmp/ft}
GEN=${GEN:-.carry/gen}; TEACHER_ONLY=${TEACHER_ONLY:-}; EXTRA=${EXTRA:-}
GOLD=${GOLD:-benchmarks/data/icu_notes_dev.jsonl}  # hand-written notes learned gold-only
VARIANTS=${VARIANTS:-"a:as_is+as_is+lower+upper:0.7:3e-5:2"}
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONPATH=$PWD
mkdir -p "$OUTDIR" "$WORK"
"$PY" -c "import torch, transformers; print('torch', torch.__version__, 'transformers', \
transformers.__version__, torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'cpu')"
"$PY" -m engine.training.warm_start --model models/clearnote-ner-minilm --out "$WORK/warm" \
  --encoder .carry/enc
"$PY" -c "import torch; from engine.training.transport import fingerprint, WORD_EMBEDDINGS as W; \
print('warm word embeddings', fingerprint(torch.load('$WORK/warm/ckpt.pt')[W]))"
mix=()
for f in $GOLD; do mix+=(--gold-only "$f"); done
for f in $TEACHER_ONLY; do mix+=(--teacher-only "$f"); done
for f in $EXTRA; do mix+=(--extra "$f"); done
for v in $VARIANTS; do
  IFS=: read -r name copies alpha lr epochs <<<"$v"
  t0=$(date +%s)
  "$PY" -m engine.training.mix_corpus --out "$WORK/corpus_$name" --generated "$GEN" \
    "${mix[@]}" --casings "${copies//+/,}" --seed 71
  "$PY" -m engine.training.train --out "$WORK/$name" --corpus "$WORK/corpus_$name" \
    --encoder .carry/enc --layers 4 --init "$WORK/warm" --teacher "$WORK/warm" --alpha "$alpha" \
    --gold-only-style icu_handwritten_dev --freeze-word-embeddings --lr "$lr" \
    --epochs "$epochs" --max-steps "$STEPS" --minutes "$MINUTES" --batch "$BATCH" \
    --device "$DEVICE" --workers "$WORKERS" --seed 71 --n-train 0 --n-dev 0 --log-every 200
  "$PY" -m engine.training.transport pack --ckpt "$WORK/$name" --base "$WORK/warm" \
    --out "$OUTDIR/$name.packed.pt"
  echo "variant $name done in $(( $(date +%s) - t0 )) s"
done
ls -la "$OUTDIR"
