source .gpu/enter.sh > $OUT/enter.log 2>&1; source benchmark/gpu_newer_glslc.sh enter
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
t0=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps -e . > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
timeout 60 python3 -m pytest -q -p no:cacheprovider -n 8 tests/aten/ops/matmul/test_matmul.py -k "rows or small_k" > $OUT/check.txt 2>&1; tail -3 $OUT/check.txt
timeout 100 python3 benchmark/gemm_tiles.py --dtype float16 --match "g2@W2,a@W2^T,linear" --tiles default,v128 > $OUT/tiles_f16.txt 2>&1
tail -9 $OUT/tiles_f16.txt
timeout 80 python3 benchmark/gemm_tiles.py --dtype float32 --match "g2@W2,a@W2^T,linear" --tiles default,t64 > $OUT/tiles_f32.txt 2>&1
tail -9 $OUT/tiles_f32.txt
left=$(( t0 + 575 - $(date +%s) ))
timeout $left python3 benchmark/mnist_benchmark.py --devices vulkan,cuda --reps 20 --json $OUT/mnist.json --plot $OUT/mnist.png > $OUT/mnist.txt 2>&1
tail -20 $OUT/mnist.txt
