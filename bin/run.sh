#!/usr/bin/env bash
# Exercism's test-runner interface (https://exercism.org/docs/building/tooling/test-runners/interface):
#   bin/run.sh <exercise-slug> <solution-dir> <output-dir>
# grades the solution in <solution-dir> (the file .meta/config.json names, else the one .js/.py file)
# against the pack <exercise-slug> and writes <output-dir>/results.json (version 3), always: an unknown
# exercise or a grader fault is a results.json with status "error". Messages in English unless
# ATTNLAB_LANG=ru. Details: grader/batch/README.md ("Platforms").
set -euo pipefail
if [[ $# -ne 3 ]]; then echo "usage: bin/run.sh <exercise-slug> <solution-dir> <output-dir>" >&2; exit 2; fi
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$3"
exec node "$root/grader/batch/platform.mjs" exercism "$1" "$2" "$3/results.json" --lang "${ATTNLAB_LANG:-en}"
