// Kernels, a CUDA graph and profiler ranges: the program behind the workload-type test reports
// (tests/data/corpus/README.md says how they were captured).
//
//   workloads graph   two plain kernels, then a graph of two kernels launched twice: with
//                     `ncu --graph-profiling graph` the plain launches are kernel results and each
//                     graph launch one graph result
//   workloads range   two cudaProfilerStart/Stop ranges of two plain kernels each: with
//                     `ncu --replay-mode range` each range is one range result
#include <cstdio>
#include <cstring>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

__global__ void scale(float *x, int n, float by) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= by;
}

__global__ void add(float *x, const float *y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += y[i];
}

static int check(cudaError_t status, const char *what) {
    if (status != cudaSuccess) {
        std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    const int n = 1 << 20, threads = 256, blocks = (n + threads - 1) / threads;
    bool ranges = argc > 1 && std::strcmp(argv[1], "range") == 0;
    float *x, *y;
    if (check(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc") ||
        check(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc"))
        return 1;
    cudaMemset(x, 0, n * sizeof(float));
    cudaMemset(y, 0, n * sizeof(float));
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    if (ranges) {
        for (int r = 0; r < 2; ++r) {
            cudaProfilerStart();
            scale<<<blocks, threads, 0, stream>>>(x, n, 2.0f);
            add<<<blocks, threads, 0, stream>>>(x, y, n);
            cudaStreamSynchronize(stream);
            cudaProfilerStop();
        }
    } else {
        scale<<<blocks, threads, 0, stream>>>(x, n, 2.0f);
        add<<<blocks, threads, 0, stream>>>(x, y, n);
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
        scale<<<blocks, threads, 0, stream>>>(x, n, 0.5f);
        add<<<blocks, threads, 0, stream>>>(x, y, n);
        cudaStreamEndCapture(stream, &graph);
        if (check(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate")) return 1;
        cudaGraphLaunch(exec, stream);
        cudaGraphLaunch(exec, stream);
    }
    if (check(cudaStreamSynchronize(stream), "the launches")) return 1;
    std::printf("done (%s)\n", ranges ? "ranges" : "kernels and a graph");
    return 0;
}
