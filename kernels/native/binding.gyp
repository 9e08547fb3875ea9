{
  "targets": [
    {
      "target_name": "opencl_probe",
      "sources": ["src/opencl_probe.c"],
      "libraries": ["-ldl"],
      "cflags": ["-O2", "-Wall", "-Wextra"]
    }
  ]
}
