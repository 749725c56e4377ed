#!/usr/bin/env bash
# The test suite on the GPU machine, one pytest run (xdist, 12 workers) per
# target under its own time limit, so that a slow target cannot cut the
# others' failure reports; everything stops by an absolute deadline. Each
# target's output goes to /tmp/suite/, packed into $OUT/suite.tgz (the
# device tool returns about eight files at most). Usage, after the build:
#   bash benchmark/gpu_suite.sh $(( $(date +%s) + 400 )) 120 tests/aten/ops/reduce \
#       "tests/aten/ops/matmul --deselect tests/aten/ops/matmul/test_coopmat.py"
# (a target may carry pytest options). On an H100 (2026-12-05) every
# directory of tests/aten/ops took 15-70 s, test_coopmat.py 68 s.
end=$1
per=$2
shift 2
mkdir -p /tmp/suite
for target in "$@"; do
  left=$((end - $(date +%s)))
  if [ "$left" -lt 20 ]; then
    echo "skipped $target" >> /tmp/suite/summary.txt
    continue
  fi
  limit=$((per < left ? per : left))
  name=$(echo "$target" | tr ' /:' '___' | cut -c1-60)
  start=$(date +%s)
  # shellcheck disable=SC2086  # a target is a path and its pytest options
  # -v: each test's outcome is written as it ends, so that a target cut by
  # its time limit still names its failures (the summary comes only at the
  # end; 2026-12-06 lost two runs' failures so).
  timeout "$limit" python3 -m pytest -v -rfE --tb=short -p no:cacheprovider -n 12 $target \
    > "/tmp/suite/$name.txt" 2>&1
  echo "$target rc=$? limit ${limit}s took $(($(date +%s) - start))s: $(tail -n 1 "/tmp/suite/$name.txt")" \
    >> /tmp/suite/summary.txt
  grep -E "(FAILED|ERROR) tests/" "/tmp/suite/$name.txt" | sort -u | head -40 >> /tmp/suite/summary.txt
done
tar czf "$OUT/suite.tgz" -C /tmp suite
cat /tmp/suite/summary.txt
