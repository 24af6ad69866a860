// The lesson's naive and tiled float32 matmuls in CUDA C++, the twins of viewer/kernels/matmul.py.
//
// Same access pattern as the numba kernels: 16x16 blocks with threadIdx.x fastest (a warp is two
// rows of sixteen consecutive columns), a 16-wide tile, `acc += a[row * k + p] * b[p * n + col]`,
// bounds guards for ragged sizes. Same launch order as viewer/kernels/runner.py: per kernel one
// correctness launch, three warm-ups, ten timed launches. Each timed launch is queued behind a
// short spin kernel, so the two CUDA events around it time the kernel and not the host's launch
// call; a batch of launches between two events is timed as well, as a cross-check.
//
// Build: nvcc -O3 -arch=sm_90 -o matmul_twin benchmarks/matmul_twin.cu
// Run:   ./matmul_twin DIM A.f32 B.f32 OUT_PREFIX
//        A and B: DIM*DIM raw float32, row-major. Writes OUT_PREFIX.naive.f32 and
//        OUT_PREFIX.tiled.f32 (the correctness launches' outputs, for benchmarks/bench_kernels.py
//        to check against its float64 reference) and prints one JSON object of timings.

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

constexpr int kTileDim = 16;
constexpr int kCorrectnessLaunches = 1;
constexpr int kWarmupLaunches = 3;
constexpr int kTimedLaunches = 10;
constexpr int kBatchLaunches = 20;

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t err_ = (call);                                                    \
        if (err_ != cudaSuccess) {                                                    \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
                         cudaGetErrorString(err_));                                   \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

__global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float acc = 0.0f;
        for (int p = 0; p < k; ++p) {
            acc += a[row * k + p] * b[p * n + col];
        }
        c[row * n + col] = acc;
    }
}

__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
    __shared__ float sa[kTileDim][kTileDim];
    __shared__ float sb[kTileDim][kTileDim];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * kTileDim + tx;
    int row = blockIdx.y * kTileDim + ty;
    float acc = 0.0f;
    for (int t = 0; t < (k + kTileDim - 1) / kTileDim; ++t) {
        int ka = t * kTileDim + tx;
        int kb = t * kTileDim + ty;
        sa[ty][tx] = (row < m && ka < k) ? a[row * k + ka] : 0.0f;
        sb[ty][tx] = (kb < k && col < n) ? b[kb * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < kTileDim; ++q) {
            acc += sa[ty][q] * sb[q][tx];
        }
        __syncthreads();
    }
    if (row < m && col < n) {
        c[row * n + col] = acc;
    }
}

// Holds the stream for about `cycles` SM cycles, so that the launches queued behind it run
// back to back, with no host launch call in between.
__global__ void spin(long long cycles) {
    long long start = clock64();
    while (clock64() - start < cycles) {
    }
}

using Kernel = void (*)(const float*, const float*, float*, int, int, int);

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

static std::vector<float> read_floats(const char* path, size_t count) {
    std::vector<float> v(count);
    FILE* f = std::fopen(path, "rb");
    if (f == nullptr || std::fread(v.data(), sizeof(float), count, f) != count) {
        std::fprintf(stderr, "matmul_twin: cannot read %zu floats from %s\n", count, path);
        std::exit(2);
    }
    std::fclose(f);
    return v;
}

static void write_floats(const std::string& path, const std::vector<float>& v) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(v.data(), sizeof(float), v.size(), f) != v.size()) {
        std::fprintf(stderr, "matmul_twin: cannot write %s\n", path.c_str());
        std::exit(2);
    }
    std::fclose(f);
}

struct Timing {
    double median_ms;
    double batch_ms;
    bool timed_output_matches;
    bool all_queued;
    std::vector<double> launches_ms;
};

// The launch order of viewer/kernels/runner.py. The correctness launch's output (into a buffer
// poisoned with NaN) is written to `out_path` for the caller to check against its reference.
static Timing run_kernel(Kernel kernel, const float* a, const float* b, float* c, int dim,
                         long long spin_cycles, const std::string& out_path) {
    dim3 block(kTileDim, kTileDim);
    dim3 grid((dim + kTileDim - 1) / kTileDim, (dim + kTileDim - 1) / kTileDim);
    size_t count = static_cast<size_t>(dim) * dim;
    Timing t{};
    t.all_queued = true;

    std::vector<float> host(count, std::nanf(""));
    CHECK(cudaMemcpy(c, host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    for (int i = 0; i < kCorrectnessLaunches; ++i) kernel<<<grid, block>>>(a, b, c, dim, dim, dim);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host.data(), c, count * sizeof(float), cudaMemcpyDeviceToHost));
    write_floats(out_path, host);

    for (int i = 0; i < kWarmupLaunches; ++i) kernel<<<grid, block>>>(a, b, c, dim, dim, dim);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < kTimedLaunches; ++i) {
        spin<<<1, 1>>>(spin_cycles);
        CHECK(cudaEventRecord(start));
        kernel<<<grid, block>>>(a, b, c, dim, dim, dim);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        cudaError_t held = cudaEventQuery(start);
        if (held != cudaSuccess && held != cudaErrorNotReady) CHECK(held);
        t.all_queued = t.all_queued && held == cudaErrorNotReady;
        cudaGetLastError();  // a query that found the hold still running is not an error
        CHECK(cudaEventSynchronize(stop));
        float ms = 0.0f;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        t.launches_ms.push_back(ms);
    }
    t.median_ms = median(t.launches_ms);

    spin<<<1, 1>>>(spin_cycles);
    CHECK(cudaEventRecord(start));
    for (int i = 0; i < kBatchLaunches; ++i) kernel<<<grid, block>>>(a, b, c, dim, dim, dim);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float batch = 0.0f;
    CHECK(cudaEventElapsedTime(&batch, start, stop));
    t.batch_ms = batch / kBatchLaunches;

    std::vector<float> timed(count);
    CHECK(cudaMemcpy(timed.data(), c, count * sizeof(float), cudaMemcpyDeviceToHost));
    t.timed_output_matches = std::equal(timed.begin(), timed.end(), host.begin());
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    return t;
}

static void print_timing(const char* name, const Timing& t, bool last) {
    std::printf("\"%s\": {\"median_ms\": %.6f, \"batch_ms\": %.6f, \"timed_output_matches\": %s, "
                "\"all_queued\": %s, \"launches_ms\": [",
                name, t.median_ms, t.batch_ms, t.timed_output_matches ? "true" : "false",
                t.all_queued ? "true" : "false");
    for (size_t i = 0; i < t.launches_ms.size(); ++i) {
        std::printf("%s%.6f", i ? ", " : "", t.launches_ms[i]);
    }
    std::printf("]}%s", last ? "" : ", ");
}

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: matmul_twin DIM A.f32 B.f32 OUT_PREFIX\n");
        return 2;
    }
    int dim = std::atoi(argv[1]);
    if (dim <= 0) {
        std::fprintf(stderr, "matmul_twin: size must be a positive integer, got %s\n", argv[1]);
        return 2;
    }
    size_t count = static_cast<size_t>(dim) * dim;
    std::vector<float> ha = read_floats(argv[2], count);
    std::vector<float> hb = read_floats(argv[3], count);
    std::string prefix = argv[4];

    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    int clock_khz = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    const long long spin_cycles = static_cast<long long>(clock_khz) * 2;  // about 2 ms

    float *a, *b, *c;
    CHECK(cudaMalloc(&a, count * sizeof(float)));
    CHECK(cudaMalloc(&b, count * sizeof(float)));
    CHECK(cudaMalloc(&c, count * sizeof(float)));
    CHECK(cudaMemcpy(a, ha.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), count * sizeof(float), cudaMemcpyHostToDevice));

    Timing naive = run_kernel(matmul_naive, a, b, c, dim, spin_cycles, prefix + ".naive.f32");
    Timing tiled = run_kernel(matmul_tiled, a, b, c, dim, spin_cycles, prefix + ".tiled.f32");
    std::printf("{\"dim\": %d, \"device\": \"%s\", ", dim, prop.name);
    print_timing("naive", naive, false);
    print_timing("tiled", tiled, true);
    std::printf("}\n");

    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
    CHECK(cudaFree(c));
    return 0;
}
