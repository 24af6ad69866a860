#!/usr/bin/env bash
# The exports the readers are tested on that the corpus lacks, made by the real ncu on the GPU
# machine from the reports in this repository (no GPU work: ncu --import only):
#   <name>.raw.txt       ncu --import R --page raw                 (the raw page as text)
#   <name>.session.txt   ncu --import R --page session             (the capture's session)
#   <name>.source.csv    ncu --import R --page source --csv --print-source sass
#   <name>.details.txt   ncu --import R --page details             (for comparison)
# Usage: benchmarks/device_exports.sh OUT  -> OUT/exports.tar.gz, OUT/ncu-version.txt
set -u
out=${1:?usage: device_exports.sh OUT}
work=$(mktemp -d)
ncu --version >"$out/ncu-version.txt" 2>&1
for rep in profiles/*.ncu-rep tests/data/corpus/h200/*.ncu-rep; do
    name=$(basename "$rep" .ncu-rep)
    ncu --import "$rep" --page raw >"$work/$name.raw.txt" 2>&1
    ncu --import "$rep" --page session >"$work/$name.session.txt" 2>&1
    ncu --import "$rep" --page source --csv --print-source sass >"$work/$name.source.csv" 2>&1
    ncu --import "$rep" --page details >"$work/$name.details.txt" 2>&1
    echo "$name: $(wc -l <"$work/$name.raw.txt") raw lines, $(wc -l <"$work/$name.session.txt") session lines, $(wc -l <"$work/$name.source.csv") source lines"
done
tar -C "$work" -czf "$out/exports.tar.gz" .
