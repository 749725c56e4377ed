source .gpu/enter.sh > $OUT/enter.log 2>&1; source benchmark/gpu_newer_glslc.sh enter
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
t0=$(date +%s)
python3 -m pip install -q --no-build-isolation --no-deps -e . > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt
timeout 150 python3 benchmark/gemm_tiles.py --dtype float16 --match "g2@W2,a@W2^T,linear" --tiles default,v128,rows_k,small_k > $OUT/tiles_f16.txt 2>&1
cat $OUT/tiles_f16.txt | tail -12
timeout 110 python3 benchmark/gemm_tiles.py --dtype float32 --match "g2@W2,a@W2^T,linear" --tiles default,t64,rows_k,small_k > $OUT/tiles_f32.txt 2>&1
cat $OUT/tiles_f32.txt | tail -12
end=$(( t0 + 560 ))
bash benchmark/gpu_suite.sh $end 100 tests/aten/ops/matmul/test_matmul.py tests/aten/ops/matmul/test_coopmat.py tests/aten/ops/matmul/test_int_mm.py tests/aten/ops/matmul/test_matmul_precision.py > /dev/null 2>&1
cp /tmp/suite/summary.txt $OUT/summary.txt 2>/dev/null; cat $OUT/summary.txt
