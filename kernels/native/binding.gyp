{
  "targets": [
    {
      "target_name": "opencl",
      "sources": ["src/cl_loader.c", "src/probe.c", "src/runtime.c"],
      "libraries": ["-ldl", "-lpthread"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "defines": ["NAPI_VERSION=9"]
    }
  ]
}
