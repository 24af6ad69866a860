// Probes behind tests/data/corpus/h200/layout-* (benchmarks/device_layout.sh): matmul_naive with
// threadIdx.x over rows (a warp: 16 rows x 2 columns, 8.5 sectors per request where the lesson's
// layout takes 2), and what launch__barrier_count counts (__syncthreads() twice, bar.sync 0 and 1,
// bar.sync 0 and 5).
#include <cstdio>
#include <cuda_runtime.h>

extern "C" __global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n,
                                        int k) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float acc = 0.0f;
#pragma unroll 1
        for (int p = 0; p < k; ++p) acc += a[row * k + p] * b[p * n + col];
        c[row * n + col] = acc;
    }
}

extern "C" __global__ void barriers_two_syncthreads(float* out) {
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    float v = s[63 - threadIdx.x];
    __syncthreads();
    s[threadIdx.x] = v * 2.0f;
    out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x];
}

extern "C" __global__ void barriers_named_0_1(float* out) {
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    asm volatile("bar.sync 0, 64;" ::: "memory");
    float v = s[63 - threadIdx.x];
    asm volatile("bar.sync 1, 64;" ::: "memory");
    out[blockIdx.x * 64 + threadIdx.x] = v;
}

extern "C" __global__ void barriers_named_0_5(float* out) {
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    asm volatile("bar.sync 0, 64;" ::: "memory");
    float v = s[63 - threadIdx.x];
    asm volatile("bar.sync 5, 64;" ::: "memory");
    out[blockIdx.x * 64 + threadIdx.x] = v;
}

int main() {
    const int dim = 512;
    const size_t bytes = size_t(dim) * dim * sizeof(float);
    float *a, *b, *c, *out;
    cudaMalloc(&a, bytes);
    cudaMalloc(&b, bytes);
    cudaMalloc(&c, bytes);
    cudaMalloc(&out, 64 * 64 * sizeof(float));
    cudaMemset(a, 0, bytes);
    cudaMemset(b, 0, bytes);
    matmul_naive<<<dim3(dim / 16, dim / 16), dim3(16, 16)>>>(a, b, c, dim, dim, dim);
    barriers_two_syncthreads<<<64, 64>>>(out);
    barriers_named_0_1<<<64, 64>>>(out);
    barriers_named_0_5<<<64, 64>>>(out);
    cudaError_t status = cudaDeviceSynchronize();
    std::printf("%s\n", cudaGetErrorString(status));
    return status == cudaSuccess ? 0 : 1;
}
