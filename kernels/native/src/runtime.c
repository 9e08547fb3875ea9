/* The OpenCL kernel runtime: one context on the best device (a GPU first, then any) per process, one in-order queue
 * per JavaScript environment (main thread or worker thread), programs compiled from source and cached by source and
 * build options, buffers moved in and out of typed arrays, NDRange kernels enqueued with typed arguments, and waits
 * either blocking (algorithms run synchronously in worker threads) or off the event loop (a Promise). Failures throw
 * an Error whose code is the OpenCL error name; a failed build's message carries the build log. */
#include <node_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_loader.h"

#define MAGIC_BUF 0x42554631u
#define MAGIC_KERNEL 0x4b524e31u
#define MAGIC_PROGRAM 0x50524731u

typedef struct {
  uint32_t magic;
  cl_mem mem;
  size_t size;
  /* The typed array a zero-copy buffer reads from, kept alive until the buffer is released. */
  napi_ref host;
} Buf;

typedef struct {
  uint32_t magic;
  cl_kernel kernel;
} Kern;

typedef struct Prog {
  uint32_t magic;
  cl_program program;
  uint64_t hash;
  char *source;
  char *options;
  struct Prog *next;
} Prog;

/* The process-wide device and context, made once. */
static struct {
  const ClApi *cl;
  cl_context context;
  cl_device_id device;
  char platform[256];
  char name[256];
  char version[256];
  const char *type;
  int fp64;
  cl_uint compute_units;
  size_t max_work_group;
  cl_ulong global_mem;
  cl_ulong max_alloc;
} g;
static int g_ok = 0;
static char g_error[512] = "";
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static Prog *programs = NULL;
static pthread_mutex_t programs_lock = PTHREAD_MUTEX_INITIALIZER;

/* Per environment: its queue, made on first use. */
typedef struct {
  cl_command_queue queue;
} EnvData;

static const char *device_type_name(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "GPU";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "ACCELERATOR";
  if (t & CL_DEVICE_TYPE_CPU) return "CPU";
  return "OTHER";
}

static int try_device(cl_platform_id platform, cl_device_id device) {
  const ClApi *cl = g.cl;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
  cl_int err = CL_SUCCESS;
  cl_context ctx = cl->CreateContext(props, 1, &device, NULL, NULL, &err);
  if (!ctx || err != CL_SUCCESS) {
    snprintf(g_error, sizeof g_error, "clCreateContext failed: %s (%d)", cl_error_name(err), err);
    return 0;
  }
  g.context = ctx;
  g.device = device;
  cl->GetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof g.platform - 1, g.platform, NULL);
  cl->GetDeviceInfo(device, CL_DEVICE_NAME, sizeof g.name - 1, g.name, NULL);
  cl->GetDeviceInfo(device, CL_DEVICE_VERSION, sizeof g.version - 1, g.version, NULL);
  cl_device_type type = 0;
  cl->GetDeviceInfo(device, CL_DEVICE_TYPE_INFO, sizeof type, &type, NULL);
  g.type = device_type_name(type);
  cl_bitfield fp = 0;
  if (cl->GetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL) == CL_SUCCESS) g.fp64 = fp != 0;
  cl->GetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof g.compute_units, &g.compute_units, NULL);
  cl->GetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof g.max_work_group, &g.max_work_group, NULL);
  cl->GetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof g.global_mem, &g.global_mem, NULL);
  cl->GetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof g.max_alloc, &g.max_alloc, NULL);
  return 1;
}

static void init_device(void) {
  const char *load_error = NULL;
  g.cl = cl_api(&load_error);
  if (!g.cl) {
    snprintf(g_error, sizeof g_error, "%s", load_error);
    return;
  }
  cl_platform_id platforms[16];
  cl_uint np = 0;
  cl_int err = g.cl->GetPlatformIDs(16, platforms, &np);
  if (err != CL_SUCCESS || np == 0) {
    snprintf(g_error, sizeof g_error, "no OpenCL platform found (clGetPlatformIDs: %s)", cl_error_name(err));
    return;
  }
  if (np > 16) np = 16;
  snprintf(g_error, sizeof g_error, "no OpenCL device found");
  /* GPUs first, then accelerators, then anything (PoCL's CPU device). */
  const cl_device_type order[] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL};
  for (int pass = 0; pass < 3; pass++) {
    for (cl_uint p = 0; p < np; p++) {
      cl_device_id devices[16];
      cl_uint nd = 0;
      if (g.cl->GetDeviceIDs(platforms[p], order[pass], 16, devices, &nd) != CL_SUCCESS) continue;
      if (nd > 16) nd = 16;
      for (cl_uint d = 0; d < nd; d++) {
        if (try_device(platforms[p], devices[d])) {
          g_ok = 1;
          return;
        }
      }
    }
  }
}

static int throw_cl(napi_env env, const char *call, cl_int code) {
  char message[256];
  snprintf(message, sizeof message, "%s failed: %s (%d)", call, cl_error_name(code), code);
  napi_throw_error(env, cl_error_name(code), message);
  return 0;
}

/* The device, or throws why there is none. */
static int ready(napi_env env) {
  pthread_once(&g_once, init_device);
  if (!g_ok) {
    napi_throw_error(env, "OPENCL_UNAVAILABLE", g_error);
    return 0;
  }
  return 1;
}

static void env_cleanup(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  EnvData *d = data;
  if (d->queue) {
    g.cl->Finish(d->queue);
    g.cl->ReleaseCommandQueue(d->queue);
  }
  free(d);
}

static cl_command_queue queue_of(napi_env env) {
  if (!ready(env)) return NULL;
  EnvData *d = NULL;
  napi_get_instance_data(env, (void **)&d);
  if (d && d->queue) return d->queue;
  cl_int err = CL_SUCCESS;
  cl_command_queue q = g.cl->CreateCommandQueue(g.context, g.device, 0, &err);
  if (!q || err != CL_SUCCESS) {
    throw_cl(env, "clCreateCommandQueue", err);
    return NULL;
  }
  if (!d) {
    d = calloc(1, sizeof *d);
    napi_set_instance_data(env, d, env_cleanup, NULL);
  }
  d->queue = q;
  return q;
}

static napi_value undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

static void set_str(napi_env env, napi_value obj, const char *key, const char *value) {
  napi_value v;
  napi_create_string_utf8(env, value, NAPI_AUTO_LENGTH, &v);
  napi_set_named_property(env, obj, key, v);
}

static void set_num(napi_env env, napi_value obj, const char *key, double value) {
  napi_value v;
  napi_create_double(env, value, &v);
  napi_set_named_property(env, obj, key, v);
}

/* args[i] as a handle of the given magic, or NULL with an exception. */
static void *handle(napi_env env, napi_value value, uint32_t magic, const char *what) {
  napi_valuetype t;
  napi_typeof(env, value, &t);
  void *data = NULL;
  if (t == napi_external) napi_get_value_external(env, value, &data);
  if (!data || *(uint32_t *)data != magic) {
    char message[128];
    snprintf(message, sizeof message, "expected an OpenCL %s handle", what);
    napi_throw_type_error(env, "EINVAL", message);
    return NULL;
  }
  return data;
}

static int get_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
  size_t argc = want;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  for (size_t i = argc; i < want; i++) argv[i] = undefined(env);
  return 1;
}

/* A typed array's bytes. */
static int bytes_of(napi_env env, napi_value value, void **data, size_t *size) {
  napi_typedarray_type type;
  size_t length = 0;
  napi_value ab;
  size_t offset = 0;
  bool is = false;
  napi_is_typedarray(env, value, &is);
  if (!is) {
    napi_throw_type_error(env, "EINVAL", "expected a typed array");
    return 0;
  }
  napi_get_typedarray_info(env, value, &type, &length, data, &ab, &offset);
  size_t element = 1;
  switch (type) {
    case napi_int16_array:
    case napi_uint16_array:
      element = 2;
      break;
    case napi_int32_array:
    case napi_uint32_array:
    case napi_float32_array:
      element = 4;
      break;
    case napi_float64_array:
    case napi_bigint64_array:
    case napi_biguint64_array:
      element = 8;
      break;
    default:
      element = 1;
  }
  *size = length * element;
  return 1;
}

static size_t size_arg(napi_env env, napi_value v, size_t fallback) {
  napi_valuetype t;
  napi_typeof(env, v, &t);
  if (t != napi_number) return fallback;
  double d = 0;
  napi_get_value_double(env, v, &d);
  return d < 0 ? 0 : (size_t)d;
}

/* device(): the device the runtime uses, or throws why there is none. */
static napi_value Device(napi_env env, napi_callback_info info) {
  (void)info;
  if (!ready(env)) return NULL;
  napi_value o;
  napi_create_object(env, &o);
  set_str(env, o, "platform", g.platform);
  set_str(env, o, "name", g.name);
  set_str(env, o, "type", g.type);
  set_str(env, o, "version", g.version);
  napi_value fp64;
  napi_get_boolean(env, g.fp64, &fp64);
  napi_set_named_property(env, o, "fp64", fp64);
  set_num(env, o, "computeUnits", g.compute_units);
  set_num(env, o, "maxWorkGroupSize", (double)g.max_work_group);
  set_num(env, o, "globalMemSize", (double)g.global_mem);
  set_num(env, o, "maxAllocSize", (double)g.max_alloc);
  return o;
}

static uint64_t fnv(uint64_t h, const char *s) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;
}

static char *read_string(napi_env env, napi_value v) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) {
    napi_throw_type_error(env, "EINVAL", "expected a string");
    return NULL;
  }
  char *s = malloc(len + 1);
  napi_get_value_string_utf8(env, v, s, len + 1, &len);
  return s;
}

/* build(source, options): the program compiled for the device, cached by source and options for the process. */
static napi_value Build(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  get_args(env, info, 2, argv);
  if (!ready(env)) return NULL;
  char *source = read_string(env, argv[0]);
  if (!source) return NULL;
  napi_valuetype t;
  napi_typeof(env, argv[1], &t);
  char *options = t == napi_string ? read_string(env, argv[1]) : strdup("");
  uint64_t hash = fnv(fnv(14695981039346656037ull, source), options);

  pthread_mutex_lock(&programs_lock);
  Prog *found = NULL;
  for (Prog *p = programs; p; p = p->next) {
    if (p->hash == hash && strcmp(p->source, source) == 0 && strcmp(p->options, options) == 0) {
      found = p;
      break;
    }
  }
  if (!found) {
    cl_int err = CL_SUCCESS;
    const char *sources[] = {source};
    cl_program program = g.cl->CreateProgramWithSource(g.context, 1, sources, NULL, &err);
    if (!program || err != CL_SUCCESS) {
      pthread_mutex_unlock(&programs_lock);
      free(source);
      free(options);
      throw_cl(env, "clCreateProgramWithSource", err);
      return NULL;
    }
    err = g.cl->BuildProgram(program, 1, &g.device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
      size_t log_size = 0;
      g.cl->GetProgramBuildInfo(program, g.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
      char *log = calloc(1, log_size + 1);
      g.cl->GetProgramBuildInfo(program, g.device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
      g.cl->ReleaseProgram(program);
      pthread_mutex_unlock(&programs_lock);
      size_t msg_size = log_size + 128;
      char *message = malloc(msg_size);
      snprintf(message, msg_size, "clBuildProgram failed: %s (%d)\n%s", cl_error_name(err), err, log);
      napi_throw_error(env, cl_error_name(err), message);
      free(message);
      free(log);
      free(source);
      free(options);
      return NULL;
    }
    found = calloc(1, sizeof *found);
    found->magic = MAGIC_PROGRAM;
    found->program = program;
    found->hash = hash;
    found->source = source;
    found->options = options;
    found->next = programs;
    programs = found;
  } else {
    free(source);
    free(options);
  }
  pthread_mutex_unlock(&programs_lock);
  napi_value out;
  napi_create_external(env, found, NULL, NULL, &out);
  return out;
}

static void kernel_finalize(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  Kern *k = data;
  if (k->kernel) g.cl->ReleaseKernel(k->kernel);
  free(k);
}

/* kernel(program, name): a kernel object of a built program (own one per thread: arguments live on it). */
static napi_value Kernel(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  get_args(env, info, 2, argv);
  if (!ready(env)) return NULL;
  Prog *p = handle(env, argv[0], MAGIC_PROGRAM, "program");
  if (!p) return NULL;
  char *name = read_string(env, argv[1]);
  if (!name) return NULL;
  cl_int err = CL_SUCCESS;
  cl_kernel kernel = g.cl->CreateKernel(p->program, name, &err);
  free(name);
  if (!kernel || err != CL_SUCCESS) {
    throw_cl(env, "clCreateKernel", err);
    return NULL;
  }
  Kern *k = calloc(1, sizeof *k);
  k->magic = MAGIC_KERNEL;
  k->kernel = kernel;
  napi_value out;
  napi_create_external(env, k, kernel_finalize, NULL, &out);
  return out;
}

static void buffer_release(napi_env env, Buf *b, int adjust) {
  if (!b->mem) return;
  g.cl->ReleaseMemObject(b->mem);
  b->mem = NULL;
  if (b->host) {
    napi_delete_reference(env, b->host);
    b->host = NULL;
  } else if (adjust) {
    int64_t adjusted;
    napi_adjust_external_memory(env, -(int64_t)b->size, &adjusted);
  }
}

static void buffer_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  Buf *b = data;
  buffer_release(env, b, 0);
  free(b);
}

/* buffer(bytes | typedArray, readOnly = false): a device buffer of that size (at least 8 bytes), filled from the
 * array if given. readOnly promises kernels only read it: on a CPU device (host memory) the buffer then uses the
 * array's own memory instead of a copy, keeping the array alive until the buffer is released. */
static napi_value Buffer(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  get_args(env, info, 2, argv);
  cl_command_queue q = queue_of(env);
  if (!q) return NULL;
  void *data = NULL;
  size_t size = 0;
  napi_valuetype t;
  napi_typeof(env, argv[0], &t);
  if (t == napi_number) {
    size = size_arg(env, argv[0], 0);
  } else if (!bytes_of(env, argv[0], &data, &size)) {
    return NULL;
  }
  bool read_only = false;
  napi_valuetype t1;
  napi_typeof(env, argv[1], &t1);
  if (t1 == napi_boolean) napi_get_value_bool(env, argv[1], &read_only);
  cl_int err = CL_SUCCESS;
  if (read_only && data && size >= 8 && strcmp(g.type, "CPU") == 0) {
    cl_mem mem = g.cl->CreateBuffer(g.context, CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, size, data, &err);
    if (!mem || err != CL_SUCCESS) {
      throw_cl(env, "clCreateBuffer", err);
      return NULL;
    }
    Buf *b = calloc(1, sizeof *b);
    b->magic = MAGIC_BUF;
    b->mem = mem;
    b->size = size;
    napi_create_reference(env, argv[0], 1, &b->host);
    napi_value out;
    napi_create_external(env, b, buffer_finalize, NULL, &out);
    return out;
  }
  size_t alloc = size < 8 ? 8 : size;
  cl_mem mem = g.cl->CreateBuffer(g.context, CL_MEM_READ_WRITE, alloc, NULL, &err);
  if (!mem || err != CL_SUCCESS) {
    throw_cl(env, "clCreateBuffer", err);
    return NULL;
  }
  if (data && size > 0) {
    err = g.cl->EnqueueWriteBuffer(q, mem, CL_TRUE, 0, size, data, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
      g.cl->ReleaseMemObject(mem);
      throw_cl(env, "clEnqueueWriteBuffer", err);
      return NULL;
    }
  }
  Buf *b = calloc(1, sizeof *b);
  b->magic = MAGIC_BUF;
  b->mem = mem;
  b->size = alloc;
  int64_t adjusted;
  napi_adjust_external_memory(env, (int64_t)alloc, &adjusted);
  napi_value out;
  napi_create_external(env, b, buffer_finalize, NULL, &out);
  return out;
}

/* release(buffer): frees the device memory now (else the garbage collector does, later). */
static napi_value Release(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  get_args(env, info, 1, argv);
  Buf *b = handle(env, argv[0], MAGIC_BUF, "buffer");
  if (!b) return NULL;
  buffer_release(env, b, 1);
  return undefined(env);
}

static Buf *live_buffer(napi_env env, napi_value v) {
  Buf *b = handle(env, v, MAGIC_BUF, "buffer");
  if (b && !b->mem) {
    napi_throw_error(env, "EINVAL", "the OpenCL buffer was released");
    return NULL;
  }
  return b;
}

static int in_bounds(napi_env env, Buf *b, size_t offset, size_t size) {
  if (offset + size > b->size) {
    char message[160];
    snprintf(message, sizeof message, "%zu bytes at %zu lie outside the %zu-byte buffer", size, offset, b->size);
    napi_throw_range_error(env, "ERANGE", message);
    return 0;
  }
  return 1;
}

/* A blocking copy between a typed array and a buffer: (buffer, typedArray, byteOffset = 0). */
static napi_value transfer(napi_env env, napi_callback_info info, int into_buffer) {
  napi_value argv[3];
  get_args(env, info, 3, argv);
  cl_command_queue q = queue_of(env);
  if (!q) return NULL;
  Buf *b = live_buffer(env, argv[0]);
  void *data;
  size_t size;
  if (!b || !bytes_of(env, argv[1], &data, &size)) return NULL;
  size_t offset = size_arg(env, argv[2], 0);
  if (!in_bounds(env, b, offset, size)) return NULL;
  if (size == 0) return undefined(env);
  cl_int err = into_buffer ? g.cl->EnqueueWriteBuffer(q, b->mem, CL_TRUE, offset, size, data, 0, NULL, NULL)
                           : g.cl->EnqueueReadBuffer(q, b->mem, CL_TRUE, offset, size, data, 0, NULL, NULL);
  if (err != CL_SUCCESS) throw_cl(env, into_buffer ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", err);
  return undefined(env);
}

/* write(buffer, typedArray, byteOffset = 0): copies the array into the buffer (blocking). */
static napi_value Write(napi_env env, napi_callback_info info) { return transfer(env, info, 1); }

/* read(buffer, typedArray, byteOffset = 0): fills the array from the buffer once the queue before it is done. */
static napi_value Read(napi_env env, napi_callback_info info) { return transfer(env, info, 0); }

/* fill(buffer, pattern, byteOffset = 0, bytes = rest): repeats a one-element typed array over the range. */
static napi_value Fill(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  get_args(env, info, 4, argv);
  cl_command_queue q = queue_of(env);
  if (!q) return NULL;
  Buf *b = live_buffer(env, argv[0]);
  void *pattern;
  size_t psize;
  if (!b || !bytes_of(env, argv[1], &pattern, &psize)) return NULL;
  size_t offset = size_arg(env, argv[2], 0);
  size_t size = size_arg(env, argv[3], offset <= b->size ? b->size - offset : 0);
  if (!in_bounds(env, b, offset, size)) return NULL;
  if (size == 0) return undefined(env);
  if (psize == 0 || size % psize != 0 || offset % psize != 0) {
    napi_throw_range_error(env, "ERANGE", "the fill range is not a whole number of patterns");
    return NULL;
  }
  cl_int err = g.cl->EnqueueFillBuffer(q, b->mem, pattern, psize, offset, size, 0, NULL, NULL);
  if (err != CL_SUCCESS) throw_cl(env, "clEnqueueFillBuffer", err);
  return undefined(env);
}

/* copy(src, dst, bytes, srcOffset = 0, dstOffset = 0): device-side copy, enqueued. */
static napi_value Copy(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  get_args(env, info, 5, argv);
  cl_command_queue q = queue_of(env);
  if (!q) return NULL;
  Buf *s = live_buffer(env, argv[0]);
  if (!s) return NULL;
  Buf *d = live_buffer(env, argv[1]);
  if (!d) return NULL;
  size_t size = size_arg(env, argv[2], 0);
  size_t so = size_arg(env, argv[3], 0), doff = size_arg(env, argv[4], 0);
  if (!in_bounds(env, s, so, size) || !in_bounds(env, d, doff, size)) return NULL;
  if (size == 0) return undefined(env);
  cl_int err = g.cl->EnqueueCopyBuffer(q, s->mem, d->mem, so, doff, size, 0, NULL, NULL);
  if (err != CL_SUCCESS) throw_cl(env, "clEnqueueCopyBuffer", err);
  return undefined(env);
}

/* Sets the kernel's arguments from a signature ("m" buffer, "i" int32, "u" uint32, "l" int64, "f" float,
 * "d" double, "L" local memory of that many bytes) and enqueues it over `global` work items in groups of `local`
 * (0: the driver chooses). */
static int enqueue(napi_env env, napi_value *argv, cl_command_queue q, cl_event *event) {
  Kern *k = handle(env, argv[0], MAGIC_KERNEL, "kernel");
  if (!k) return 0;
  char sig[64];
  size_t siglen = 0;
  if (napi_get_value_string_utf8(env, argv[1], sig, sizeof sig, &siglen) != napi_ok) {
    napi_throw_type_error(env, "EINVAL", "expected an argument signature string");
    return 0;
  }
  uint32_t nargs = 0;
  napi_get_array_length(env, argv[2], &nargs);
  if (nargs != siglen) {
    napi_throw_type_error(env, "EINVAL", "the argument signature and the arguments differ in length");
    return 0;
  }
  for (uint32_t i = 0; i < nargs; i++) {
    napi_value v;
    napi_get_element(env, argv[2], i, &v);
    cl_int err = CL_SUCCESS;
    switch (sig[i]) {
      case 'm': {
        Buf *b = live_buffer(env, v);
        if (!b) return 0;
        err = g.cl->SetKernelArg(k->kernel, i, sizeof(cl_mem), &b->mem);
        break;
      }
      case 'i': {
        int32_t x = 0;
        napi_get_value_int32(env, v, &x);
        err = g.cl->SetKernelArg(k->kernel, i, sizeof x, &x);
        break;
      }
      case 'u': {
        uint32_t x = 0;
        napi_get_value_uint32(env, v, &x);
        err = g.cl->SetKernelArg(k->kernel, i, sizeof x, &x);
        break;
      }
      case 'l': {
        int64_t x = 0;
        napi_get_value_int64(env, v, &x);
        err = g.cl->SetKernelArg(k->kernel, i, sizeof x, &x);
        break;
      }
      case 'f': {
        double x = 0;
        napi_get_value_double(env, v, &x);
        float f = (float)x;
        err = g.cl->SetKernelArg(k->kernel, i, sizeof f, &f);
        break;
      }
      case 'd': {
        double x = 0;
        napi_get_value_double(env, v, &x);
        err = g.cl->SetKernelArg(k->kernel, i, sizeof x, &x);
        break;
      }
      case 'L': {
        err = g.cl->SetKernelArg(k->kernel, i, size_arg(env, v, 0), NULL);
        break;
      }
      default:
        napi_throw_type_error(env, "EINVAL", "unknown argument kind in the signature (m i u l f d L)");
        return 0;
    }
    if (err != CL_SUCCESS) {
      char call[64];
      snprintf(call, sizeof call, "clSetKernelArg(%u)", i);
      return throw_cl(env, call, err);
    }
  }
  size_t global = size_arg(env, argv[3], 0);
  size_t local = size_arg(env, argv[4], 0);
  if (global == 0) return 1;
  if (local > 0 && global % local != 0) global += local - global % local;
  cl_int err = g.cl->EnqueueNDRangeKernel(q, k->kernel, 1, NULL, &global, local > 0 ? &local : NULL, 0, NULL, event);
  if (err != CL_SUCCESS) return throw_cl(env, "clEnqueueNDRangeKernel", err);
  return 1;
}

/* run(kernel, signature, args, global, local = 0): enqueues the kernel (returns at once; read or finish waits). */
static napi_value Run(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  get_args(env, info, 5, argv);
  cl_command_queue q = queue_of(env);
  if (!q || !enqueue(env, argv, q, NULL)) return NULL;
  return undefined(env);
}

/* finish(): blocks until everything enqueued on this thread's queue is done. */
static napi_value Finish(napi_env env, napi_callback_info info) {
  (void)info;
  cl_command_queue q = queue_of(env);
  if (!q) return NULL;
  cl_int err = g.cl->Finish(q);
  if (err != CL_SUCCESS) throw_cl(env, "clFinish", err);
  return undefined(env);
}

/* Off the event loop: waits for an event (or the whole queue) in the thread pool and settles a Promise. */
typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  cl_command_queue queue;
  cl_event event;
  cl_int err;
  const char *call;
  napi_ref keep;
} Wait;

static void wait_execute(napi_env env, void *data) {
  (void)env;
  Wait *w = data;
  if (w->event) {
    w->err = g.cl->WaitForEvents(1, &w->event);
    g.cl->ReleaseEvent(w->event);
  } else {
    w->err = g.cl->Finish(w->queue);
  }
}

static void wait_complete(napi_env env, napi_status status, void *data) {
  Wait *w = data;
  napi_value value = undefined(env);
  if (w->keep) {
    napi_get_reference_value(env, w->keep, &value);
    napi_delete_reference(env, w->keep);
  }
  if (status != napi_ok || w->err != CL_SUCCESS) {
    char message[256];
    snprintf(message, sizeof message, "%s failed: %s (%d)", w->call, cl_error_name(w->err), w->err);
    napi_value msg, code, error;
    napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &msg);
    napi_create_string_utf8(env, cl_error_name(w->err), NAPI_AUTO_LENGTH, &code);
    napi_create_error(env, code, msg, &error);
    napi_reject_deferred(env, w->deferred, error);
  } else {
    napi_resolve_deferred(env, w->deferred, value);
  }
  napi_delete_async_work(env, w->work);
  free(w);
}

static napi_value start_wait(napi_env env, cl_command_queue q, cl_event event, const char *call, napi_value keep) {
  Wait *w = calloc(1, sizeof *w);
  w->queue = q;
  w->event = event;
  w->call = call;
  if (keep) napi_create_reference(env, keep, 1, &w->keep);
  napi_value promise, name;
  napi_create_promise(env, &w->deferred, &promise);
  napi_create_string_utf8(env, "opencl-wait", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, wait_execute, wait_complete, w, &w->work);
  napi_queue_async_work(env, w->work);
  return promise;
}

/* runAsync(kernel, signature, args, global, local = 0): enqueues the kernel; the Promise settles when it is done. */
static napi_value RunAsync(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  get_args(env, info, 5, argv);
  cl_command_queue q = queue_of(env);
  if (!q) return NULL;
  cl_event event = NULL;
  if (!enqueue(env, argv, q, &event)) return NULL;
  return start_wait(env, q, event, "clEnqueueNDRangeKernel", NULL);
}

/* finishAsync(): a Promise settled once everything enqueued on this thread's queue is done. */
static napi_value FinishAsync(napi_env env, napi_callback_info info) {
  (void)info;
  cl_command_queue q = queue_of(env);
  if (!q) return NULL;
  return start_wait(env, q, NULL, "clFinish", NULL);
}

/* readAsync(buffer, typedArray, byteOffset = 0): a Promise of the array, filled from the buffer off the event loop
 * (the array must stay attached until it settles). */
static napi_value ReadAsync(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  get_args(env, info, 3, argv);
  cl_command_queue q = queue_of(env);
  if (!q) return NULL;
  Buf *b = live_buffer(env, argv[0]);
  void *data;
  size_t size;
  if (!b || !bytes_of(env, argv[1], &data, &size)) return NULL;
  size_t offset = size_arg(env, argv[2], 0);
  if (!in_bounds(env, b, offset, size)) return NULL;
  cl_event event = NULL;
  if (size > 0) {
    cl_int err = g.cl->EnqueueReadBuffer(q, b->mem, CL_FALSE, offset, size, data, 0, NULL, &event);
    if (err != CL_SUCCESS) {
      throw_cl(env, "clEnqueueReadBuffer", err);
      return NULL;
    }
  }
  return start_wait(env, q, event, "clEnqueueReadBuffer", argv[1]);
}

/* programs(): how many programs the process-wide cache holds. */
static napi_value Programs(napi_env env, napi_callback_info info) {
  (void)info;
  uint32_t count = 0;
  pthread_mutex_lock(&programs_lock);
  for (Prog *p = programs; p; p = p->next) count++;
  pthread_mutex_unlock(&programs_lock);
  napi_value out;
  napi_create_uint32(env, count, &out);
  return out;
}

napi_value Probe(napi_env env, napi_callback_info info);

NAPI_MODULE_INIT() {
  napi_property_descriptor props[] = {
      {"probe", NULL, Probe, NULL, NULL, NULL, napi_default, NULL},
      {"device", NULL, Device, NULL, NULL, NULL, napi_default, NULL},
      {"programs", NULL, Programs, NULL, NULL, NULL, napi_default, NULL},
      {"build", NULL, Build, NULL, NULL, NULL, napi_default, NULL},
      {"kernel", NULL, Kernel, NULL, NULL, NULL, napi_default, NULL},
      {"buffer", NULL, Buffer, NULL, NULL, NULL, napi_default, NULL},
      {"release", NULL, Release, NULL, NULL, NULL, napi_default, NULL},
      {"write", NULL, Write, NULL, NULL, NULL, napi_default, NULL},
      {"read", NULL, Read, NULL, NULL, NULL, napi_default, NULL},
      {"fill", NULL, Fill, NULL, NULL, NULL, napi_default, NULL},
      {"copy", NULL, Copy, NULL, NULL, NULL, napi_default, NULL},
      {"run", NULL, Run, NULL, NULL, NULL, napi_default, NULL},
      {"finish", NULL, Finish, NULL, NULL, NULL, napi_default, NULL},
      {"runAsync", NULL, RunAsync, NULL, NULL, NULL, napi_default, NULL},
      {"finishAsync", NULL, FinishAsync, NULL, NULL, NULL, napi_default, NULL},
      {"readAsync", NULL, ReadAsync, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
