source .gpu/enter.sh > /tmp/enter.log 2>&1; source benchmark/gpu_newer_glslc.sh enter
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
t0=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps -e . > /tmp/build.log 2>&1 || { tail -30 /tmp/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
timeout 60 python3 -m pytest -q -p no:cacheprovider -n 8 tests/aten/ops/matmul/test_matmul.py -k "rows or small_k or split_k" > /tmp/check.txt 2>&1; tail -3 /tmp/check.txt
timeout 100 python3 benchmark/gemm_tiles.py --dtype float16 --match "g2@W2,a@W2^T,linear" --tiles default,v128 > /tmp/tiles_f16.txt 2>&1
tail -9 /tmp/tiles_f16.txt
timeout 80 python3 benchmark/gemm_tiles.py --dtype float32 --match "g2@W2,a@W2^T,linear" --tiles default,t64 > /tmp/tiles_f32.txt 2>&1
tail -9 /tmp/tiles_f32.txt
left=$(( t0 + 470 - $(date +%s) ))
timeout $left python3 benchmark/mnist_benchmark.py --devices vulkan,cuda --reps 20 --json $OUT/mnist.json --plot $OUT/mnist.png > $OUT/mnist.txt 2>&1
tail -20 $OUT/mnist.txt
left=$(( t0 + 560 - $(date +%s) ))
timeout $left python3 benchmark/gemm_tiles.py --dtype float32 --match "4096^3,8192^3" --tiles t128,t128w > /tmp/t128w.txt 2>&1
tail -6 /tmp/t128w.txt
