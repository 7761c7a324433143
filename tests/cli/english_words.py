#!/usr/bin/env python3
"""Prints the English words left in Korean CLI output read on stdin (one per line, sorted), or nothing.

Not counted (issue 27's allow-list): the usage syntax (the lines after "사용법:" up to the first blank line),
quoted text, URLs, units in [brackets], enum values after 'one of:', identifiers (words touching - . _ / @ $ or a digit: field paths, option
and file names, schemas), and the product names, units and command names below.
"""
import re, sys

ALLOW = set("""gpucost GPU GPUs GEMM GEMMs HBM NVLink NCCL MFU JSON CSV USD KRW SLA ZeRO FILE PATH VALUE REPORT MESSAGE
ID LINK MIG CUDA TFLOP FLOPs NVSwitch cuBLASLt fsync stdin stderr prefill decode table json csv time cost true false
eval plan mc sensitivity compare sweep link catalog validate pricing fleet gui probe spares gpus offers presets fields models
URL dense Monte Carlo vocab heads hidden layers seq_len preset auto full paged training independent inference bf fp tf
evidence SCENARIO lora qlora flat profile commitments
gemm bandwidth min median max NVIDIA
log actual PLAN RUN MTBF Megatron NeMo torchtitan Hugging Face Trainer""".split())  # field values, fleet keys and probe-report keys typed as they are

def english_words(text):
    lines, skip = [], False
    for line in text.splitlines():
        if line.startswith("사용법:"):
            skip = True
            continue
        if skip and not line.strip():
            skip = False
        if not skip:
            lines.append(line)
    text = "\n".join(lines)
    text = re.sub(r'"[^"\n]*"|`[^`\n]*`|\[[^\]\n]*\]|https?://\S+', " ", text)
    text = re.sub(r"(다음 중 하나|one of): [^\[\n]*", " ", text)  # enum values are identifiers
    text = re.sub(r"^  [a-z_][a-z0-9_.]*(?= {2,})", " ", text, flags=re.M)  # a listing's field path column
    words = set()
    for m in re.finditer(r"[A-Za-z]{3,}", text):
        before = text[m.start() - 1] if m.start() > 0 else " "
        after = text[m.end()] if m.end() < len(text) else " "
        if re.match(r"[-./_@$0-9A-Za-z]", before) or re.match(r"[-./_@$0-9A-Za-z]", after):
            continue  # part of an identifier
        if m.group(0) not in ALLOW:
            words.add(m.group(0))
    return sorted(words)

if __name__ == "__main__":
    if len(sys.argv) > 1:  # files: one line per file, "<file>\t<words>" (one Python for a whole test's checks)
        for name in sys.argv[1:]:
            with open(name, encoding="utf-8") as f:
                print(name + "\t" + " ".join(english_words(f.read())))
    else:
        print(" ".join(english_words(sys.stdin.read())))
